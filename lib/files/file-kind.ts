import type * as fs from 'fs';

/** What an entry on disk is, in words for a message: `a directory`, `a FIFO (named pipe)`, … */
export function fileKind(stats: fs.Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** A file the CLI will not read or write as asked, with the path and the fix in the message. */
export class FileRefusedError extends Error {
  constructor(
    /** The path as the user gave it (or as found in the folder they gave). */
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'FileRefusedError';
  }
}

/** Whether `child` is `root` or below it (both absolute, links resolved). */
export function isInside(root: string, child: string, sep: string): boolean {
  return child === root || child.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** `bytes` as `1.5 MiB`, for messages about sizes. */
export function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
