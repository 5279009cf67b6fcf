import {
  ApiObject,
  App,
  GroupVersionKind,
  ImplicitTokenResolver,
  JsonPatch,
  Lazy,
  LazyResolver,
  NumberStringUnionResolver,
} from 'cdk8s';
import { Construct } from 'constructs';
import { AMBIGUOUS_FIELDS, MAP_FIELDS, RENAMED_FIELDS } from './generated/k8s-json-names';
import { hasMarker, JSON_API_OBJECT_MARKER, mark } from './markers';
import { freeConstructId } from './validation/construct-id';

/**
 * A kind of cdk8s-plus' generated `k8s` namespace (`k8s.KubeDeployment`, `k8s.KubeJob`, …): its props
 * type types the object, its `GVK` names it. Only those two are used, never the class itself.
 */
export interface KubeKind<P> {
  readonly GVK: GroupVersionKind;
  new (scope: Construct, id: string, props: P): ApiObject;
}

/**
 * A Kubernetes object typed by a kind of cdk8s-plus' `k8s` namespace and held as plain JSON: what
 * every construct of the SDK creates instead of the typed `k8s.Kube*` class.
 *
 * The typed classes render each object twice: cdk8s resolves and sorts the props, then their
 * generated `toJson_*` converters walk the result again, rebuilding every object key by key. Kept
 * as JSON (converted once, when built), the object renders in one walk, to the same bytes
 * (bench/synth has the numbers).
 *
 * @example
 * new JsonApiObject(component, 'service', k8s.KubeService, {
 *   metadata: { name: component.componentName },
 *   spec: { selector: component.selectorLabels, ports: [{ name: 'http', port: 80 }] },
 * });
 */
export class JsonApiObject<P extends object> extends ApiObject {
  /**
   * True when `x` is a JsonApiObject. (`instanceof` cannot tell: it answers `ApiObject.isApiObject`
   * for every subclass.)
   */
  static isJsonApiObject(x: unknown): x is JsonApiObject<object> {
    return hasMarker(x, JSON_API_OBJECT_MARKER);
  }

  /**
   * The object as it was built: `apiVersion`, `kind` and the props as given (their TypeScript
   * names, `clusterIp` for `clusterIP`; `Lazy` values unresolved; metadata added at synthesis not
   * included). Rendering converts the names in the same walk that resolves and sorts.
   */
  readonly manifest: { readonly [field: string]: unknown };

  constructor(scope: Construct, id: string, kind: KubeKind<P>, props: P) {
    const manifest = { ...kind.GVK, ...props } as { readonly [field: string]: unknown };
    // cdk8s reads the metadata when the object is built (name, namespace, labels): it gets it converted.
    super(scope, freeConstructId(scope, id), {
      ...kind.GVK,
      metadata: plainJson(manifest.metadata) as object,
    });
    mark(this, JSON_API_OBJECT_MARKER);
    this.manifest = manifest;
  }

  /** Whether JSON patches were added: cdk8s applies them (`patches` is private to `ApiObject`). */
  private patched = false;

  override addJsonPatch(...ops: JsonPatch[]): void {
    this.patched = true;
    super.addJsonPatch(...ops);
  }

  /**
   * Renders the object as `ApiObject.toJson()` does, in one walk: cdk8s resolves the props (building
   * the path of every value as it goes) and then copies them again to sort their keys. With resolvers
   * of the user's own in the App, JSON patches, or `CDK8S_DISABLE_SORT` set, cdk8s renders it.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cdk8s' own signature
  override toJson(): any {
    if (this.patched || process.env.CDK8S_DISABLE_SORT || !App.of(this).resolvers.every(isBuiltInResolver)) {
      // cdk8s renders its `props` (private to `ApiObject`): the whole object, converted now.
      (this as unknown as { props: unknown }).props = plainJson(this.manifest);
      return super.toJson();
    }
    try {
      // The metadata comes rendered (resolved, sorted, empty values dropped) from cdk8s.
      const { apiVersion, kind, ...rest } = renderJson(
        { ...this.manifest, metadata: undefined },
        false,
      ) as Record<string, unknown>;
      return { apiVersion, kind, metadata: this.metadata.toJson(), ...rest };
    } catch (e) {
      throw new Error(
        `Failed serializing construct at path '${this.node.path}' with name '${this.name}': ${e}`,
      );
    }
  }
}

function isBuiltInResolver(resolver: unknown): boolean {
  return (
    resolver instanceof LazyResolver ||
    resolver instanceof ImplicitTokenResolver ||
    resolver instanceof NumberStringUnionResolver
  );
}

/**
 * What cdk8s' `resolve` followed by `sanitizeValue` (keys sorted) makes of `value` with the App's
 * built-in resolvers, and the typed class' converters of the result, in one walk: `Lazy` values
 * produced, tokens (`resolve()`) resolved, number-or-string unions (`k8s.Quantity`,
 * `k8s.IntOrString`) replaced by what they hold, fields under their JSON names (`clusterIp` is
 * `clusterIP`; keys of maps such as labels stay as they are), null and undefined fields dropped,
 * and any other class instance refused.
 */
function renderJson(value: unknown, isMap: boolean): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Lazy) return renderJson(value.produce(), isMap);
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => renderJson(item, false));
  const token = value as { resolve?: unknown; value?: unknown; constructor?: { name?: string } };
  const plain = Object.getPrototypeOf(value) === Object.prototype;
  if (!plain && (typeof token.value === 'string' || typeof token.value === 'number')) return token.value;
  if (typeof token.resolve === 'function') return renderJson((token.resolve as () => unknown)(), isMap);
  if (!plain) throw new Error(`can't render non-simple object of type '${token.constructor?.name}'`);
  // Keys under their JSON names, sorted natively (a comparator costs more than the walk itself).
  const names = Object.keys(value);
  let renamed: Map<string, string> | undefined;
  // Keys whose values are maps (labels, data, …): one lookup per key, here, not a second below.
  let maps: Set<string> | undefined;
  if (!isMap) {
    for (let i = 0; i < names.length; i++) {
      const special = SPECIAL_FIELDS.get(names[i]);
      if (special === undefined) continue;
      if (special === MAP) {
        (maps ??= new Set()).add(names[i]);
        continue;
      }
      const name = jsonName(names[i], special);
      (renamed ??= new Map()).set(name, names[i]);
      names[i] = name;
    }
  }
  names.sort();
  const rendered: Record<string, unknown> = {};
  for (const name of names) {
    const key = renamed?.get(name) ?? name;
    const field = renderJson((value as Record<string, unknown>)[key], maps?.has(key) === true);
    if (field !== undefined && field !== null) rendered[name] = field;
  }
  return rendered;
}

/**
 * `value` as Kubernetes JSON, what the typed class' converters make of it: fields under their JSON
 * names (`clusterIp` is `clusterIP`; keys of maps such as labels stay as they are), and the
 * number-or-string unions (`k8s.Quantity`, `k8s.IntOrString`: class instances with a string or
 * number `value`, as cdk8s' `NumberStringUnionResolver` tells them) replaced by what they hold, also
 * in what a `Lazy` produces. Objects and arrays with nothing to change are shared, not copied.
 */
function plainJson(value: unknown, isMap = false): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Lazy) return Lazy.any({ produce: () => plainJson(value.produce(), isMap) });
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = plainJson(value[i]);
      if (item !== value[i]) (copy ??= [...value])[i] = item;
    }
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    const held = (value as { value?: unknown }).value;
    return typeof held === 'string' || typeof held === 'number' ? held : value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // One lookup for the common case, a field that is neither renamed nor a map.
    const special = isMap ? undefined : SPECIAL_FIELDS.get(key);
    const plain = plainJson(field, special === MAP);
    const name = special === undefined || special === MAP ? key : jsonName(key, special);
    if (name !== key) {
      copy ??= { ...value };
      delete copy[key];
      copy[name] = plain;
    } else if (plain !== field) (copy ??= { ...value })[key] = plain;
  }
  return copy ?? value;
}

const MAP = Symbol('map');
const AMBIGUOUS = Symbol('ambiguous');

/** What a field name asks of `plainJson`: its JSON name, or that its value is a map, or that it is ambiguous. */
const SPECIAL_FIELDS = new Map<string, string | typeof MAP | typeof AMBIGUOUS>([
  ...[...MAP_FIELDS].map((field) => [field, MAP] as const),
  ...RENAMED_FIELDS,
  ...[...AMBIGUOUS_FIELDS].map((field) => [field, AMBIGUOUS] as const),
]);

function jsonName(field: string, special: string | typeof AMBIGUOUS): string {
  if (special === AMBIGUOUS) {
    throw new Error(
      `field "${field}" has another JSON name in some Kubernetes types; define this object with its typed k8s class`,
    );
  }
  return special;
}
