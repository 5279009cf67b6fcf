import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fernetRotationScript } from '../../../constructs/openstack/fernet-rotation-script';
import { runWithStandInKubectl, secretDataLines } from '../support/stand-in-kubectl';

/**
 * The rotation script run by /bin/sh for real (openssl, coreutils) against a stand-in `kubectl`
 * that serves a Secret's keys and records the patch it is sent, which the test then applies the
 * way the API server merges it.
 */
const SECRET = 'keystone-fernet-keys';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const key = (n: number) => b64(`key-${n}-`.padEnd(44, 'x'));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The keys after the patch (base64 values by index), or undefined when nothing was patched. */
  readonly keys?: Record<string, string>;
  readonly patch?: { metadata: { resourceVersion: string }; data: Record<string, string | null> };
  /** Every argv kubectl was called with. */
  readonly argv: string;
}

function rotate(data: Record<string, string>, maxActiveKeys: number): Run {
  const dir = mkdtempSync(path.join(tmpdir(), 'fernet-rotation-'));
  try {
    const tmp = path.join(dir, 'tmp');
    const script = fernetRotationScript(SECRET, maxActiveKeys).replace(/\/tmp\//g, `${tmp}-`);
    const run = runWithStandInKubectl(dir, `4711\n${secretDataLines(data)}`, script);
    const patch = run.patch as Run['patch'];
    const keys = patch
      ? Object.fromEntries(
          Object.entries({ ...data, ...patch.data }).filter(
            (entry): entry is [string, string] => entry[1] !== null,
          ),
        )
      : undefined;
    return { ...run, patch, keys };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('fernetRotationScript', () => {
  test('the staged key becomes the primary, a new staged key is generated, nothing dropped below the limit', () => {
    const run = rotate({ '0': key(0), '1': key(1) }, 3);
    expect(run.status).toBe(0);
    expect(Object.keys(run.keys ?? {}).sort()).toEqual(['0', '1', '2']);
    expect(run.keys?.['2']).toBe(key(0));
    expect(run.keys?.['1']).toBe(key(1));
    // a Fernet key: 32 random bytes, URL-safe base64, no newline
    const staged = Buffer.from(run.keys?.['0'] ?? '', 'base64').toString();
    expect(staged).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(Buffer.from(staged.replace(/-/g, '+').replace(/_/g, '/'), 'base64')).toHaveLength(32);
    expect(run.stdout).toBe(
      'fernet rotation: key 2 is the primary (the staged key before), a new staged key 0, dropped: none (max_active_keys 3)\n',
    );
  });

  test('the oldest secondary keys go once the limit is reached; the primary and the staged key never do', () => {
    const full = rotate({ '0': key(0), '1': key(1), '2': key(2) }, 3);
    expect(full.keys).toEqual({ '0': expect.any(String), '2': key(2), '3': key(0) });
    expect(full.patch?.data['1']).toBeNull();
    // a limit lowered since the last rotation drops every key above it at once
    const lowered = rotate({ '0': key(0), '1': key(1), '2': key(2), '3': key(3), '4': key(4) }, 3);
    expect(Object.keys(lowered.keys ?? {}).sort()).toEqual(['0', '4', '5']);
    expect(lowered.stdout).toContain('dropped: 1 2 3 (max_active_keys 3)');
  });

  test('indexes are compared as numbers (10 is newer than 9)', () => {
    const run = rotate({ '0': key(0), '9': key(9), '10': key(10) }, 5);
    expect(run.keys).toEqual({ '0': expect.any(String), '9': key(9), '10': key(10), '11': key(0) });
  });

  test('the patch carries the resourceVersion read, so a concurrent change makes it fail instead of being overwritten', () => {
    expect(rotate({ '0': key(0), '1': key(1) }, 3).patch?.metadata).toEqual({ resourceVersion: '4711' });
  });

  test('no key reaches an argv or the log', () => {
    const run = rotate({ '0': key(0), '1': key(1) }, 3);
    for (const value of [key(0), key(1), run.patch?.data['0'] as string]) {
      expect(run.argv).not.toContain(value);
      expect(run.stdout + run.stderr).not.toContain(value);
    }
    expect(run.argv).toContain(`patch secret ${SECRET} --type merge --patch-file`);
  });

  test.each([
    [{ '1': key(1) }, `fernet rotation: Secret ${SECRET} has no staged key 0;`],
    [{ '0': key(0), primary: key(1) }, `fernet rotation: Secret ${SECRET} holds a key that is not a number;`],
  ])('a Secret that is no Fernet key repository is refused, unchanged: %j', (data, message) => {
    const run = rotate(data, 3);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.patch).toBeUndefined();
  });
});
