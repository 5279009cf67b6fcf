import { KubeObject } from '../../lib/graph';

interface Rule {
  readonly from?: { podSelector?: { matchLabels?: Record<string, string> } }[];
  readonly ports?: { port: number }[];
}

/**
 * The reachability the NetworkPolicies of a cloud allow, as a Markdown table: one row per policy
 * (the pods it selects), one line per ingress rule: who (`own members`, the services whose pods
 * may connect, or `any source`) and on which ports (`all ports` when the rule names none).
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
                .map((peer) =>
                  JSON.stringify(peer.podSelector?.matchLabels ?? {}) === own
                    ? 'own members'
                    : (peer.podSelector?.matchLabels?.['app.kubernetes.io/instance'] ?? JSON.stringify(peer)),
                )
                .join(', ');
        const ports = rule.ports ? rule.ports.map((p) => p.port).join(', ') : 'all ports';
        return `${who} → ${ports}`;
      });
      const target =
        Object.keys(spec.podSelector.matchLabels ?? {}).length === 0 ? 'every pod' : policy.metadata.name;
      return `| ${target} | ${rules.length > 0 ? rules.join('<br>') : 'nothing (deny)'} |`;
    });
  return ['| pods | may be reached by → on ports |', '| --- | --- |', ...rows].join('\n');
}
