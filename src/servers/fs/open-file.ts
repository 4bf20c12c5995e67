// Reading a file the way the checks meant: the path is resolved inside a root, then the file is opened
// without following a final symlink and without blocking, and every check is made on what was opened
// (its handle), not on the path again. A FIFO or a device inside a root is refused instead of read
// (one never ends, the other blocked a reading thread for good); and on Linux, where the kernel names
// what a handle points at, a file swapped for a link to outside the roots between the check and the
// open is refused too.

import { constants } from 'node:fs';
import { type FileHandle, open, readlink } from 'node:fs/promises';
import { nameFromBytes } from './names.js';
import type { Roots } from './roots.js';

export interface ReadChecks {
  /** The name the client used, for messages. */
  shown: string;
  /** The error for a directory (each tool says what to do instead). */
  directory: () => Error;
  /** Throws when a file of this size cannot be answered. */
  size?: (bytes: number) => void;
}

/** Reads `file`: a path as fsPath gives it, or an entry of a CheckedDirectory. */
export async function readRegularFile(
  roots: Roots,
  file: string | Buffer,
  checks: ReadChecks,
): Promise<Buffer> {
  const { handle } = await openRegularFile(roots, file, checks);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Opens `file` and makes every check on the handle; the caller reads it and closes it. `size` is what
 * stat said when it was checked.
 */
export async function openRegularFile(
  roots: Roots,
  file: string | Buffer,
  checks: ReadChecks,
): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new Error(`${checks.shown} became a symbolic link while it was being opened; try again`);
    }
    throw error;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw checks.directory();
    if (!info.isFile()) {
      const kind = info.isFIFO()
        ? 'named pipe (FIFO)'
        : info.isCharacterDevice() || info.isBlockDevice()
          ? 'device'
          : info.isSocket()
            ? 'socket'
            : 'special file';
      throw new Error(`${checks.shown} is a ${kind}, not a regular file; only regular files are read`);
    }
    if (process.platform === 'linux') {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`, { encoding: 'buffer' }).then(
        nameFromBytes,
        () => undefined,
      );
      if (opened !== undefined && !roots.contains(opened)) {
        throw new Error(
          `${checks.shown} was moved outside the allowed directories while it was being opened`,
        );
      }
    }
    checks.size?.(info.size);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
