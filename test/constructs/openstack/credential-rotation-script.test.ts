import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  credentialKeysPublishScript,
  credentialMigrateAndRotateScript,
  KEY_PROPAGATION_SECONDS,
  KEYS_ROTATED_AT_ANNOTATION,
  ROTATION_WORK_DIR,
} from '../../../constructs/openstack/credential-rotation-script';
import { runWithStandInKubectl, secretDataLines } from '../support/stand-in-kubectl';

/**
 * The publishing half of a credential key rotation run by /bin/sh for real (coreutils) against a
 * stand-in `kubectl` that serves the Secret and records the patch it is sent. The first half's
 * output (the keys it read, the keys `keystone-manage credential_rotate` left) is laid out in the
 * work directory as that half leaves it. The first half itself runs on the real node
 * (test/e2e-real/upgrade.real.test.ts), against a real database.
 */
const SECRET = 'keystone-credential-keys';
const key = (name: string) => `${name}-`.padEnd(43, 'k') + '=';
const b64 = (text: string) => Buffer.from(text).toString('base64');

interface Case {
  /** The keys the first half read (file contents by index). */
  readonly read: Record<string, string>;
  /** The keys after keystone-manage's rotation. */
  readonly rotated: Record<string, string>;
  /** The Secret's keys when the publish reads it. @default read */
  readonly secret?: Record<string, string>;
  /** Seconds since the last rotation, per the Secret's annotation. @default - no annotation */
  readonly rotatedSecondsAgo?: number;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly patch?: {
    metadata: { resourceVersion: string; annotations: Record<string, string> };
    data: Record<string, string | null>;
  };
  readonly argv: string;
}

function publish(c: Case): Run {
  const dir = mkdtempSync(path.join(tmpdir(), 'credential-rotation-'));
  try {
    const work = path.join(dir, 'work');
    for (const [sub, keys] of [
      ['read', c.read],
      ['keys', c.rotated],
    ] as const) {
      mkdirSync(path.join(work, sub), { recursive: true });
      for (const [index, value] of Object.entries(keys)) writeFileSync(path.join(work, sub, index), value);
    }
    const now = Math.floor(Date.now() / 1000);
    const annotation = c.rotatedSecondsAgo === undefined ? '' : String(now - c.rotatedSecondsAgo);
    const secret = Object.fromEntries(Object.entries(c.secret ?? c.read).map(([k, v]) => [k, b64(v)]));
    const script = credentialKeysPublishScript(SECRET).split(`${ROTATION_WORK_DIR}/`).join(`${work}/`);
    const run = runWithStandInKubectl(dir, `4711\n${annotation}\n${secretDataLines(secret)}`, script);
    return { ...run, patch: run.patch as Run['patch'] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('credentialKeysPublishScript', () => {
  test('the first rotation: the rotated keys replace the Secret, with the resourceVersion read and the time', () => {
    const before = Math.floor(Date.now() / 1000);
    const run = publish({
      read: { '0': key('staged'), '1': key('primary') },
      rotated: { '0': key('new'), '1': key('primary'), '2': key('staged') },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.patch?.metadata.resourceVersion).toBe('4711');
    expect(Number(run.patch?.metadata.annotations[KEYS_ROTATED_AT_ANNOTATION])).toBeGreaterThanOrEqual(
      before,
    );
    expect(run.patch?.data).toEqual({
      '0': b64(key('new')),
      '1': b64(key('primary')),
      '2': b64(key('staged')),
    });
    expect(run.stdout.trim()).toBe(
      'credential key rotation: key 2 is the primary (the staged key before), a new staged key 0, dropped: none; every credential was encrypted with key 1 first (credential_migrate)',
    );
  });

  test('with three keys the oldest is dropped: null in the merge patch', () => {
    const run = publish({
      read: { '0': key('staged'), '1': key('old'), '2': key('primary') },
      rotated: { '0': key('new'), '2': key('primary'), '3': key('staged') },
      rotatedSecondsAgo: KEY_PROPAGATION_SECONDS + 1,
    });
    expect(run.status).toBe(0);
    expect(run.patch?.data).toEqual({
      '0': b64(key('new')),
      '1': null,
      '2': b64(key('primary')),
      '3': b64(key('staged')),
    });
    expect(run.stdout).toContain('key 3 is the primary');
    expect(run.stdout).toContain('dropped: 1;');
    expect(run.stdout).toContain('encrypted with key 2 first');
  });

  test('keys ten and above sort as numbers', () => {
    const run = publish({
      read: { '0': key('staged'), '9': key('old'), '10': key('primary') },
      rotated: { '0': key('new'), '10': key('primary'), '11': key('staged') },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('key 11 is the primary');
    expect(run.stdout).toContain('dropped: 9;');
    expect(run.stdout).toContain('encrypted with key 10 first');
  });

  test('sooner than the propagation time after the last rotation: refused, the keys left as they are, the wait named', () => {
    const run = publish({
      read: { '0': key('staged'), '1': key('primary') },
      rotated: { '0': key('new'), '1': key('primary'), '2': key('staged') },
      rotatedSecondsAgo: 100,
    });
    expect(run.status).toBe(1);
    expect(run.patch).toBeUndefined();
    // (the script reads the clock a moment after the stand-in Secret was written: a second or more later)
    const said =
      /^credential key rotation: the keys of Secret (\S+) were rotated (\d+) s ago: .*the keys are left as they are .*, run again after (\d+) s$/.exec(
        run.stderr.trim(),
      );
    expect(said?.[1]).toBe(SECRET);
    const [age, wait] = [Number(said?.[2]), Number(said?.[3])];
    expect(age).toBeGreaterThanOrEqual(100);
    expect(age).toBeLessThan(160);
    expect(age + wait).toBe(KEY_PROPAGATION_SECONDS);
    expect(run.stderr).toContain('kubelet');
  });

  test('the Secret changed since the first half read it: refused, nothing written', () => {
    const run = publish({
      read: { '0': key('staged'), '1': key('primary') },
      rotated: { '0': key('new'), '1': key('primary'), '2': key('staged') },
      secret: { '0': key('other'), '1': key('staged'), '2': key('primary') },
    });
    expect(run.status).toBe(1);
    expect(run.patch).toBeUndefined();
    expect(run.stderr.trim()).toBe(
      `credential key rotation: Secret ${SECRET} changed since this run read it (another rotation?): nothing written; the next run starts from the keys it holds now`,
    );
  });

  test('no key value reaches kubectl argv or the output', () => {
    const run = publish({
      read: { '0': key('staged'), '1': key('primary') },
      rotated: { '0': key('new'), '1': key('primary'), '2': key('staged') },
    });
    for (const value of [key('new'), key('primary'), key('staged')]) {
      for (const text of [run.argv, run.stdout, run.stderr]) {
        expect(text).not.toContain(value);
        expect(text).not.toContain(b64(value));
      }
    }
  });
});

describe('credentialMigrateAndRotateScript', () => {
  test('migrates before keystone-manage rotates, and only a scratch copy of the mounted keys', () => {
    const script = credentialMigrateAndRotateScript('/etc/keystone/credential-keys');
    const lines = script.split('\n');
    const migrate = lines.findIndex((l) => l.startsWith('keystone-manage credential_migrate'));
    const rotate = lines.findIndex((l) => l.startsWith('keystone-manage credential_rotate'));
    expect(migrate).toBeGreaterThan(-1);
    expect(rotate).toBeGreaterThan(migrate);
    expect(lines).toContain(`export OS_CREDENTIAL__KEY_REPOSITORY=${ROTATION_WORK_DIR}/keys`);
    expect(lines.slice(0, migrate).join('\n')).toContain('cp -L /etc/keystone/credential-keys/[0-9]*');
  });
});
