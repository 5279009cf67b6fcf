import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Testing } from 'cdk8s';
import { Cloud } from '../../../lib/model';
import { nodeAgentReading } from '../../support/node-agent-reading';
import { runWithStandInKubectl, secretDataLines, StandInRun } from '../support/stand-in-kubectl';

/**
 * The agents' copy of a Secret, its Job's program as synthesised, run by /bin/sh against a
 * stand-in `kubectl` that serves the original (namespace `openstack`) and the copy (namespace
 * `openstack-agents`), when it exists, and records what the program creates or patches.
 */
interface KubeJson {
  readonly kind: string;
  readonly metadata: { name: string; namespace?: string };
  readonly spec?: { template: { spec: { containers: { command: string[] }[] } } };
  readonly rules?: { verbs: string[]; resourceNames?: string[] }[];
}

function synthesise(): KubeJson[] {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  nodeAgentReading(cloud, 'nova-keystone-user', 'password');
  return Testing.synth(cloud) as KubeJson[];
}

const objects = synthesise();
const program = objects.find((o) => o.kind === 'Job')?.spec?.template.spec.containers[0].command[2] ?? '';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const ORIGINAL = { password: b64('secret'), username: b64('nova') };

/** Runs the copy's program with the copy holding `copyKeys` (undefined: no copy yet). */
function run(copyKeys?: readonly string[]): StandInRun {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-secret-copy-'));
  try {
    const byNamespace: Record<string, string> = { openstack: secretDataLines(ORIGINAL) };
    if (copyKeys) byNamespace['openstack-agents'] = copyKeys.map((k) => `${k} `).join('');
    return runWithStandInKubectl(dir, undefined, program, byNamespace);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a Secret's copy for the node agents", () => {
  test('adds to an existing copy only the keys the original has and it lacks', () => {
    // WHEN a copy made before the original gained `username`
    const result = run(['password']);

    // THEN
    expect(result.status).toBe(0);
    expect(result.created).toBeUndefined();
    expect(result.patch).toEqual({ data: { username: ORIGINAL.username } });
    expect(result.argv).toContain('patch secret -n openstack-agents nova-keystone-user --type merge');
  });

  test('an original without data adds nothing to the copy', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-secret-copy-'));
    try {
      const result = runWithStandInKubectl(dir, undefined, program, {
        openstack: '',
        'openstack-agents': 'password ',
      });
      expect(result.status).toBe(0);
      expect(result.patch).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('leaves a complete copy alone, whatever values it holds', () => {
    const result = run(['password', 'username']);
    expect(result.status).toBe(0);
    expect(result.patch).toBeUndefined();
    expect(result.created).toBeUndefined();
  });

  test('its Role in the agents’ namespace may get and patch the copy only, and create Secrets', () => {
    const role = objects.find((o) => o.kind === 'Role' && o.metadata.namespace === 'openstack-agents');
    expect(role?.rules).toEqual([
      expect.objectContaining({ resourceNames: ['nova-keystone-user'], verbs: ['get', 'patch'] }),
      expect.objectContaining({ verbs: ['create'] }),
    ]);
  });
});
