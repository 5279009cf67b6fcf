import { KubeObject } from '../../lib/graph';

interface Peer {
  readonly podSelector?: { matchLabels?: Record<string, string> };
  readonly namespaceSelector?: { matchLabels?: Record<string, string> };
}

interface Rule {
  readonly from?: Peer[];
  readonly ports?: { port: number }[];
}

/**
 * The reachability the NetworkPolicies of a cloud allow, as a Markdown table: one row per policy
 * (the pods it selects), one line per ingress rule: who (`own members`, the services whose pods
 * may connect, `<service> in <namespace>` for pods of another namespace, or `any source`) and on
 * which ports (`all ports` when the rule names none).
 */
export function reachabilityTable(objects: readonly KubeObject[]): string {
  const rows = objects
    .filter((o) => o.kind === 'NetworkPolicy')
    .map((policy) => {
      const spec = policy.spec as { podSelector: { matchLabels?: Record<string, string> }; ingress?: Rule[] };
      const own = JSON.stringify(spec.podSelector.matchLabels ?? {});
      const rules = (spec.ingress ?? []).map((rule) => {
        const who =
          rule.from === undefined
            ? 'any source'
            : rule.from
                .map((peer) => {
                  if (JSON.stringify(peer.podSelector?.matchLabels ?? {}) === own) return 'own members';
                  const service = peer.podSelector?.matchLabels?.['app.kubernetes.io/instance'];
                  const namespace = peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
                  if (service === undefined) return JSON.stringify(peer);
                  return namespace === undefined ? service : `${service} in ${namespace}`;
                })
                .join(', ');
        const ports = rule.ports ? rule.ports.map((p) => p.port).join(', ') : 'all ports';
        return `${who} → ${ports}`;
      });
      const target =
        Object.keys(spec.podSelector.matchLabels ?? {}).length === 0
          ? `every pod of ${policy.metadata.namespace}`
          : policy.metadata.name;
      return `| ${target} | ${rules.length > 0 ? rules.join('<br>') : 'nothing (deny)'} |`;
    });
  return ['| pods | may be reached by → on ports |', '| --- | --- |', ...rows].join('\n');
}
