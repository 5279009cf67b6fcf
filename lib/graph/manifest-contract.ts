import { Annotations } from './annotations';
import { dnsLabelProblems, dnsSubdomainProblems } from './dns-name';
import { labelsProblems } from './label';
import { BOOTSTRAP_KIND_NAMES, kindFacts } from './kinds';
import { isKubeObject, KubeObject, objectRef } from './manifest';
import { notAKubeObject } from './not-a-kube-object';
import { shown } from './shown';

/**
 * What a set of manifests must satisfy before anything touches a cluster: the contract that
 * `deploy`, `plan`, `destroy` and the Pulumi adapter rely on. Checked as a whole, every problem
 * at once, so an invalid object is found before the first write instead of after eight.
 */

/**
 * The name of the objects no component owns (namespaces, CRDs, shared RBAC and configuration) where
 * they are handled as one unit: the GitOps exports' unit (its folder, Kustomization, change group),
 * the runtime's bootstrap deletion units (`bootstrap`, `bootstrap crds`, `bootstrap namespaces`) and
 * the progress view's row. Reserved: no component may be named so.
 */
export const BOOTSTRAP_UNIT = 'bootstrap';

/** Kinds whose names must be DNS-1123 labels (they become DNS names or label values). */
const LABEL_NAMED_KINDS: ReadonlySet<string> = new Set(['Namespace', 'Service']);

/**
 * The contract's problems, each starting with where the object is (`where`, by default its
 * `Kind/namespace/name`) and naming the fix.
 */
export function manifestProblems(
  objects: readonly KubeObject[],
  where: (object: KubeObject) => string = objectRef,
): string[] {
  const problems: string[] = [];
  const seen = new Map<string, KubeObject>();
  if (!Array.isArray(objects)) return [`the manifests must be a list of objects, got ${typeof objects}`];
  for (const [index, object] of objects.entries()) {
    if (!isKubeObject(object)) {
      problems.push(notAKubeObject(object, index));
      continue;
    }
    const at = where(object);
    const { name, namespace, labels, annotations } = object.metadata;
    const nameProblems = LABEL_NAMED_KINDS.has(object.kind)
      ? dnsLabelProblems(name, `${object.kind} name`)
      : dnsSubdomainProblems(name, `${object.kind} name`);
    problems.push(...nameProblems.map((p) => `${at}: ${p}; fix the name and re-synthesise`));
    if (namespace !== undefined)
      problems.push(...dnsLabelProblems(namespace, 'metadata.namespace').map((p) => `${at}: ${p}`));
    if (labels !== undefined)
      problems.push(...labelsProblems(labels, 'metadata.labels').map((p) => `${at}: ${p}`));
    if (annotations !== undefined && !isStringMap(annotations)) {
      problems.push(`${at}: metadata.annotations must map names to strings, got ${shown(annotations)}`);
      continue;
    }
    const component = annotations?.[Annotations.COMPONENT];
    if (component === undefined && !kindFacts(object).bootstrap) {
      problems.push(
        `${at}: has no ${Annotations.COMPONENT} annotation; only ${BOOTSTRAP_KIND_NAMES.join(', ')} may be shared ` +
          'bootstrap objects: synthesise it from a component, or add the annotation naming the component that owns it',
      );
    } else if (component === BOOTSTRAP_UNIT) {
      problems.push(
        `${at}: component name "${BOOTSTRAP_UNIT}" is reserved for the objects no component owns; rename the component`,
      );
    } else if (component !== undefined) {
      problems.push(...dnsLabelProblems(component, `${Annotations.COMPONENT}`).map((p) => `${at}: ${p}`));
    }
    const key = `${object.apiVersion.split('/').slice(0, -1).join('/')}/${object.kind}/${namespace ?? ''}/${name}`;
    const first = seen.get(key);
    if (first) {
      const owners = [first, object].map(
        (o) => o.metadata.annotations?.[Annotations.COMPONENT] ?? BOOTSTRAP_UNIT,
      );
      const owned =
        owners[0] === owners[1] ? '' : `, owned by both component ${owners[0]} and component ${owners[1]}`;
      problems.push(
        `${at}: the same object as ${where(first)} (same kind, namespace and name)${owned}; remove one of them`,
      );
    } else seen.set(key, object);
  }
  return problems;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}
