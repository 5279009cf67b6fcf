import * as fs from 'fs';
import * as path from 'path';
import { FileRefusedError, fileKind, isInside, mebibytes } from './file-kind';

/** How {@link readRegularFile} reads one file. */
export interface ReadRegularFileOptions {
  /** The file is refused once it has given more bytes than this: counted while reading, never taken from `stat`. */
  readonly maxBytes: number;
  /** What the file is for, in messages: `manifest`, `kubeconfig`. */
  readonly what: string;
  /** The fix for a file over `maxBytes`. @default - "use a smaller file" */
  readonly tooBigFix?: string;
  /**
   * A symbolic link is followed only to a target inside this folder (both with links resolved);
   * one pointing elsewhere is refused.
   * @default - a link is followed wherever it points (the user named the file itself)
   */
  readonly within?: string;
}

// O_NOFOLLOW: the path was resolved already, a link swapped in since is not followed.
// O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused after the open).
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads a regular file as UTF-8, the careful way: the entry is checked by type first (`lstat`),
 * a directory, FIFO, socket or device is refused by name before it is opened, a link out of
 * `within` is not followed, the opened file is checked to be the one inspected, and at most
 * `maxBytes + 1` bytes are ever read (a link to `/dev/zero` says size 0 and never ends).
 *
 * @example
 * readRegularFile('dist/cloud.k8s.yaml', { what: 'manifest', maxBytes: 256 * 1024 * 1024, within: 'dist' });
 */
export function readRegularFile(file: string, options: ReadRegularFileOptions): string {
  const target = resolveEntry(file, options);
  const stats = fs.statSync(target);
  if (!stats.isFile()) {
    const what =
      target === file ? fileKind(stats) : `a symbolic link to ${target}, which is ${fileKind(stats)}`;
    throw new FileRefusedError(
      file,
      `${file} is ${what}, not a regular file; a ${options.what} must be a file: remove it or put the file there`,
    );
  }
  const fd = fs.openSync(target, OPEN_FLAGS);
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile() || opened.ino !== stats.ino || opened.dev !== stats.dev) {
      throw new FileRefusedError(file, `${file} was replaced while it was opened; run the command again`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, options.maxBytes + 1 - total));
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > options.maxBytes) {
        throw new FileRefusedError(
          file,
          `${file} is more than the ${mebibytes(options.maxBytes)} a ${options.what} may have; ${options.tooBigFix ?? 'use a smaller file'}`,
        );
      }
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** The path to open: `file` itself, or the target of a link that stays within `options.within`. */
function resolveEntry(file: string, options: ReadRegularFileOptions): string {
  let entry: fs.Stats;
  try {
    entry = fs.lstatSync(file);
  } catch (error) {
    throw new FileRefusedError(file, `${file} cannot be read: ${reason(error)}`);
  }
  if (!entry.isSymbolicLink()) return file;
  let target: string;
  try {
    target = fs.realpathSync(file);
  } catch (error) {
    throw new FileRefusedError(
      file,
      `${file} is a symbolic link to ${fs.readlinkSync(file)}, which cannot be followed (${reason(error)}); point it at a file or remove it`,
    );
  }
  if (options.within !== undefined) {
    const root = fs.realpathSync(options.within);
    if (!isInside(root, target, path.sep)) {
      throw new FileRefusedError(
        file,
        `${file} is a symbolic link to ${target}, outside ${options.within}; links are not followed out of the folder given: copy the file into ${options.within}, or pass the file itself`,
      );
    }
  }
  return target;
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  return error instanceof Error ? error.message : String(error);
}
