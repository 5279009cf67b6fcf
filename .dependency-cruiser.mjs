/**
 * The layering of docs/architecture.md ("The floors", "The runtime"), checked by `npm run lint`
 * (`depcruise`). Each floor imports only from the floors below it; no circle anywhere, type-only
 * imports included.
 *
 *   constructs/                      -> lib/model, lib/scheduling, lib/graph
 *     tempest -> openstack, infra    -> openstack-kit (infra: its endpoint contract only) -> kube
 *   lib/model                        -> lib/scheduling, lib/graph
 *   lib/scheduling                   -> lib/graph (the manifest contract's reserved label only)
 *   lib/graph                        -> lib/files
 *   lib/files                        -> nothing of ours (files read by type and size, the limited YAML parse)
 *   lib/pulumi, lib/export           -> lib/graph (lib/export and lib/runtime: lib/files too)
 *   lib/runtime                      -> lib/graph, lib/files
 *   lib/cli                          -> lib/runtime, lib/export, lib/graph, lib/files
 *   lib/testing (stackwright/testing) -> lib/runtime, lib/model, lib/graph; imported by no library code
 */

/** Everything of ours a library file could import (user code, benchmarks and tests sit on top). */
const OURS = '^(constructs/|lib/|index\\.ts$)';

/** A floor may import itself and `below`; nothing else of ours. */
function floor(name, from, below, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from },
    to: { path: OURS, pathNot: below },
  };
}

/** Files of `from` must not import files of `to` (folder roles inside lib/runtime). */
function notInto(name, from, to, comment, pathNot) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from },
    to: { path: to, ...(pathNot ? { pathNot } : {}) },
  };
}

const RUNTIME = '^lib/runtime/';

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import circle ties two modules into one; break it with a structural type or by moving the shared part down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },

    // The floors.
    floor(
      'constructs-build-on-the-model',
      '^constructs/',
      '^(constructs/|lib/(model|scheduling|graph)/)',
      'constructs/ uses lib/model, lib/scheduling and lib/graph; it never imports a back end (runtime, pulumi, export, cli) or lib/testing.',
    ),
    floor(
      'model-builds-on-scheduling-and-graph',
      '^lib/model/',
      '^lib/(model|scheduling|graph)/',
      'lib/model knows nothing about OpenStack or the back ends.',
    ),
    floor(
      'scheduling-stands-alone',
      '^lib/scheduling/',
      '^lib/(scheduling|graph)/',
      'lib/scheduling imports nothing of ours but the manifest contract (the reserved downscale label).',
    ),
    floor(
      'graph-reads-files',
      '^lib/graph/',
      '^lib/(graph|files)/',
      'lib/graph, the manifest contract, imports nothing of ours but lib/files (how a manifest file is read).',
    ),
    floor(
      'files-is-the-bottom',
      '^lib/files/',
      '^lib/files/',
      'lib/files (files read by type and size, the limited YAML parse) imports nothing of ours.',
    ),
    floor(
      'pulumi-reads-manifests',
      '^lib/pulumi/',
      '^lib/(pulumi|graph)/',
      'lib/pulumi works from manifests (lib/graph), never from the construct tree or another back end.',
    ),
    floor(
      'export-reads-manifests',
      '^lib/export/',
      '^lib/(export|graph|files)/',
      'lib/export works from manifests (lib/graph), never from the construct tree or another back end.',
    ),
    floor(
      'runtime-reads-manifests',
      RUNTIME,
      '^lib/(runtime|graph|files)/',
      'lib/runtime never imports constructs/ (nor the model, scheduling or another back end): it works from manifests.',
    ),
    floor(
      'cli-on-top-of-the-back-ends',
      '^lib/cli/',
      '^lib/(cli|runtime|export|graph|files)/',
      'lib/cli drives the runtime and the exports.',
    ),
    floor(
      'testing-on-top',
      '^lib/testing/',
      '^lib/(testing|runtime|model|graph)/',
      'stackwright/testing serves tests: the in-memory cluster, the manual clock, synthObjects.',
    ),
    {
      name: 'testing-is-for-tests',
      comment: 'Library code never imports stackwright/testing.',
      severity: 'error',
      from: { path: '^(constructs|lib)/', pathNot: '^lib/testing/' },
      to: { path: '^lib/testing/' },
    },

    // Inside constructs/: services on the kit, the kit on the Kubernetes building blocks.
    notInto(
      'kube-blocks-know-no-openstack',
      '^constructs/kube/',
      '^constructs/(openstack-kit|openstack|infra|tempest)/',
      'constructs/kube holds Kubernetes building blocks; OpenStack wiring belongs in constructs/openstack-kit.',
    ),
    notInto(
      'kit-knows-no-service',
      '^constructs/openstack-kit/',
      '^constructs/(openstack|infra|tempest)/',
      'The service kit serves every service; a base that names a service is typed structurally instead.',
    ),
    notInto(
      'infra-provides-the-endpoints',
      '^constructs/infra/',
      '^constructs/(openstack|tempest|openstack-kit)/',
      'Infrastructure services implement the endpoint contract of the kit (endpoints.ts) and import nothing else of it.',
      '^constructs/openstack-kit/endpoints\\.ts$',
    ),

    // Inside lib/runtime: the folder roles of docs/architecture.md ("The runtime").
    notInto(
      'runtime-not-through-its-face',
      RUNTIME,
      '^lib/runtime/index\\.ts$',
      'lib/runtime/index.ts is the public face; the runtime imports its modules directly.',
    ),
    notInto(
      'runtime-vocabulary-is-the-bottom',
      '^lib/runtime/(ports|result|events|defaults|cluster-unreachable-error|error-message)\\.ts$',
      RUNTIME,
      'The data a run produces and the port it talks to depend on no folder of the runtime (a Finding is data too).',
      '^lib/runtime/((ports|result|events|defaults|cluster-unreachable-error|error-message)\\.ts|diagnose/finding\\.ts)$',
    ),
    notInto(
      'timing-stands-alone',
      '^lib/runtime/timing/',
      RUNTIME,
      'Clocks, back-off and timers know nothing of the runtime around them.',
      '^lib/runtime/timing/',
    ),
    notInto(
      'readiness-is-pure',
      '^lib/runtime/readiness/',
      '^lib/runtime/(engine|operations|inventory|kube|availability|diagnose|timing)/',
      'Readiness rules are pure functions of a live object: no I/O, no engine.',
    ),
    notInto(
      'diagnose-below-the-engine',
      '^lib/runtime/diagnose/',
      '^lib/runtime/(engine|operations|inventory|kube|availability)/',
      'Diagnosis reads through the ClusterPort and is called by the engine, not the other way round.',
    ),
    notInto(
      'availability-below-kube-and-engine',
      '^lib/runtime/availability/',
      '^lib/runtime/(engine|operations|inventory|kube|diagnose|readiness)/',
      'Availability is a state machine the Kubernetes port drives and the engine subscribes to: it imports neither.',
    ),
    notInto(
      'kube-is-an-adapter',
      '^lib/runtime/kube/',
      '^lib/runtime/(engine|operations|inventory|diagnose|readiness)/',
      'The Kubernetes port implements ClusterPort; it knows nothing of what the engine does with it.',
    ),
    notInto(
      'engine-talks-to-the-port',
      '^lib/runtime/engine/',
      '^lib/runtime/(operations|inventory|kube)/',
      'The engine reaches the cluster through ClusterPort (the real one or InMemoryCluster); operations drive the engine. object-diff is pure object hashing.',
      '^lib/runtime/kube/object-diff\\.ts$',
    ),
    notInto(
      'inventory-below-operations',
      '^lib/runtime/inventory/',
      '^lib/runtime/(engine|operations)/',
      'The inventory is a record the operations read and write.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|dist-lib)/' },
    // Type-only imports count: `import type` can close a circle as well as any other.
    tsPreCompilationDeps: true,
    // No tsConfig: its `paths` (stackwright/*) have no baseUrl, and with one the npm package
    // `constructs` would resolve to our constructs/ folder. Library code imports relatively.
  },
};
