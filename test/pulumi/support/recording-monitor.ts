import * as pulumi from '@pulumi/pulumi';
import { MockMonitor } from '@pulumi/pulumi/runtime/mocks';

/** One `RegisterResource` request as the engine would receive it, reduced to what the tests check. */
export interface Registration {
  readonly type: string;
  readonly name: string;
  readonly urn: string;
  /** URN of the parent resource ('' for the stack's root). */
  readonly parent: string;
  /** URNs of the explicit and implicit dependencies (`dependsOn` lands here). */
  readonly dependencies: readonly string[];
  readonly custom: boolean;
  readonly inputs: Record<string, unknown>;
  readonly additionalSecretOutputs: readonly string[];
  readonly aliases: readonly { readonly name: string; readonly parentUrn: string }[];
  readonly provider: string;
}

type Callback = (err: unknown, response: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Wraps Pulumi's mock monitor so it records the raw register requests. `MockResourceArgs` hides the
 * parent, the dependencies and the aliases; the request the SDK sends carries all three, so the
 * tests check what `pulumi up` would be told instead of trusting the plan alone. (Replacing the
 * monitor with `setMockOptions` would reset the SDK's feature flags, so the installed one is wrapped.)
 */
function record(monitor: MockMonitor, registrations: Registration[], onRegistered: () => void): void {
  const register = monitor.registerResource.bind(monitor);
  // The request is the SDK's generated protobuf class; only its getters are used.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  monitor.registerResource = async (req: any, callback: Callback) =>
    register(req, (err, response) => {
      if (!err) {
        registrations.push({
          type: req.getType(),
          name: req.getName(),
          urn: response.getUrn(),
          parent: req.getParent(),
          dependencies: [...req.getDependenciesList()].sort(),
          custom: req.getCustom(),
          inputs: pulumi.runtime.deserializeProperties(req.getObject()),
          additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          aliases: req.getAliasesList().map((a: any) => ({
            name: a.getSpec()?.getName() ?? '',
            parentUrn: a.getSpec()?.getParenturn() ?? '',
          })),
          provider: req.getProvider(),
        });
        onRegistered();
      }
      callback(err, response);
    });
}

/**
 * Installs Pulumi mocks that echo inputs as state and record every registration. Call before
 * constructing resources; `settle` waits until every given resource has been registered.
 */
export async function installRecordingMocks(): Promise<{
  registrations: Registration[];
  settle: (resources: Iterable<pulumi.Resource>) => Promise<void>;
  /** Resolves once `count` registrations have been recorded in total. */
  registered: (count: number) => Promise<void>;
}> {
  const mocks: pulumi.runtime.Mocks = {
    newResource: (args) => ({ id: args.custom ? `${args.name}-id` : undefined, state: args.inputs }),
    call: (args) => args.inputs,
  };
  await pulumi.runtime.setMocks(mocks, 'project', 'stack', false);
  const registrations: Registration[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  record(pulumi.runtime.getMonitor() as unknown as MockMonitor, registrations, () => {
    waiters.filter((w) => registrations.length >= w.count).forEach((w) => w.resolve());
    waiters = waiters.filter((w) => registrations.length < w.count);
  });
  return {
    registrations,
    registered: (count) =>
      registrations.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    settle: async (resources) => {
      await Promise.all([...resources].map((r) => outputValue(r.urn)));
    },
  };
}

/** The value of an output, once known. */
export function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}
