import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { FileRefusedError, readRegularFile } from '../../lib/files';

/** A fresh folder for one test. */
function folder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-files-'));
}

/** The error `fn` threw, which must be a FileRefusedError. */
function refusal(fn: () => unknown): FileRefusedError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FileRefusedError) return error;
    throw error;
  }
  throw new Error('nothing was refused');
}

const OPTIONS = { what: 'manifest file', maxBytes: 1024 } as const;

describe('readRegularFile', () => {
  test('reads a regular file, and a link to one inside the folder given', () => {
    // GIVEN
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'a.yaml'), 'kind: A\n');
    fs.symlinkSync('a.yaml', path.join(dir, 'b.yaml'));

    // WHEN / THEN
    expect(readRegularFile(path.join(dir, 'a.yaml'), OPTIONS)).toBe('kind: A\n');
    expect(readRegularFile(path.join(dir, 'b.yaml'), { ...OPTIONS, within: dir })).toBe('kind: A\n');
  });

  test('a link out of the folder given is not followed', () => {
    // GIVEN a link to a readable file elsewhere
    const dir = folder();
    const elsewhere = path.join(folder(), 'secret.yaml');
    fs.writeFileSync(elsewhere, 'kind: Secret\n');
    fs.symlinkSync(elsewhere, path.join(dir, 'x.yaml'));

    // WHEN
    const error = refusal(() => readRegularFile(path.join(dir, 'x.yaml'), { ...OPTIONS, within: dir }));

    // THEN
    expect(error.message).toBe(
      `${dir}/x.yaml is a symbolic link to ${fs.realpathSync(elsewhere)}, outside ${dir}; links are not followed out of the folder given: copy the file into ${dir}, or pass the file itself`,
    );
  });

  test('a link to /dev/zero is refused by name before a byte is read', () => {
    // GIVEN a link to a device that says it is empty and never ends
    const link = path.join(folder(), 'zero.yaml');
    fs.symlinkSync('/dev/zero', link);

    // WHEN
    const error = refusal(() => readRegularFile(link, OPTIONS));

    // THEN
    expect(error.message).toBe(
      `${link} is a symbolic link to /dev/zero, which is a character device, not a regular file; a manifest file must be a file: remove it or put the file there`,
    );
  });

  test('a FIFO is refused without waiting for a writer', () => {
    // GIVEN a named pipe nobody writes to
    const fifo = path.join(folder(), 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);

    // WHEN / THEN
    expect(refusal(() => readRegularFile(fifo, OPTIONS)).message).toContain(
      `${fifo} is a FIFO (named pipe), not a regular file`,
    );
  });

  test('a socket is refused by name', async () => {
    // GIVEN a listening Unix socket
    const socket = path.join(folder(), 'sock.yaml');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      // WHEN / THEN
      expect(refusal(() => readRegularFile(socket, OPTIONS)).message).toContain(
        `${socket} is a socket, not a regular file`,
      );
    } finally {
      server.close();
    }
  });

  test('a directory is refused by name, not with EISDIR', () => {
    // GIVEN
    const dir = path.join(folder(), 'x.yaml');
    fs.mkdirSync(dir);

    // WHEN / THEN
    expect(refusal(() => readRegularFile(dir, OPTIONS)).message).toBe(
      `${dir} is a directory, not a regular file; a manifest file must be a file: remove it or put the file there`,
    );
  });

  test('the size is enforced while reading: one byte over the limit is refused', () => {
    // GIVEN a file exactly at the limit and one a byte over it
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'ok.yaml'), 'x'.repeat(1024));
    fs.writeFileSync(path.join(dir, 'big.yaml'), 'x'.repeat(1025));

    // WHEN / THEN
    expect(readRegularFile(path.join(dir, 'ok.yaml'), OPTIONS)).toHaveLength(1024);
    expect(
      refusal(() => readRegularFile(path.join(dir, 'big.yaml'), { ...OPTIONS, tooBigFix: 'split it' }))
        .message,
    ).toBe(`${dir}/big.yaml is more than the 0.0 MiB a manifest file may have; split it`);
  });

  test('a missing file and a dangling link are named', () => {
    const dir = folder();
    fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling.yaml'));
    expect(refusal(() => readRegularFile(path.join(dir, 'missing.yaml'), OPTIONS)).message).toBe(
      `${dir}/missing.yaml cannot be read: it does not exist`,
    );
    expect(refusal(() => readRegularFile(path.join(dir, 'dangling.yaml'), OPTIONS)).message).toContain(
      `${dir}/dangling.yaml is a symbolic link to ${dir}/nowhere, which cannot be followed (it does not exist)`,
    );
  });
});
