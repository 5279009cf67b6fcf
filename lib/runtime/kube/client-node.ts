import type * as ClientNode from '@kubernetes/client-node';

/** The @kubernetes/client-node module namespace (types only; the module itself is loaded lazily). */
export type ClientNodeModule = typeof ClientNode;

interface ProcessWithBuiltins {
  getBuiltinModule?(id: 'module'): typeof import('module');
}

let loaded: ClientNodeModule | undefined;

/**
 * Loads @kubernetes/client-node. The package is ESM-only since 1.0 while this project compiles to
 * CommonJS: Node >= 20.19 can `require()` it, but jest's module registry cannot. Going through
 * Node's own `createRequire` (reached via `process.getBuiltinModule`, which jest does not wrap)
 * loads it with Node's loader in both worlds, so unit and e2e tests run the exact code users run.
 */
export function loadClientNode(): ClientNodeModule {
  if (loaded) return loaded;
  const builtins = (process as unknown as ProcessWithBuiltins).getBuiltinModule;
  const nodeRequire = builtins ? builtins.call(process, 'module').createRequire(__filename) : require;
  try {
    loaded = nodeRequire('@kubernetes/client-node') as ClientNodeModule;
  } catch (error) {
    throw new Error(
      `cannot load @kubernetes/client-node (an ES module; needs Node >= 20.19 to be required from CommonJS): ${String(error)}`,
    );
  }
  return loaded;
}
