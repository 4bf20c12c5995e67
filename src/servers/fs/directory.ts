// A directory checked to be inside the roots, through which every write and every listing works.
//
// Checking a path and then using it again by name leaves a window in which another local process can
// swap a directory on the way for a symbolic link to outside the roots; in one attack run 840 of 1,821
// writes landed outside, and list_directory listed /etc. So on Linux the directory is opened (a final
// link is not followed), the kernel says through /proc/self/fd/N what the handle points at, and that is
// checked against the roots. Its entries are then reached as /proc/self/fd/N/<name>: the kernel looks
// the name up in the directory the handle holds, whatever has happened to its path since. A name is never
// followed when it is a link (files open with O_NOFOLLOW; mkdir, rename and lstat do not follow), and a
// subdirectory is opened the same way, through its parent's handle, and checked again.
//
// Without /proc (macOS, Windows, a Linux without /proc mounted) the directory is used by its path, as
// before: the path was checked, but a swap in that window still redirects the use.

import { constants, type Dirent, existsSync } from 'node:fs';
import { type FileHandle, open, readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { fsPath, nameFromBytes, showName } from './names.js';
import { AccessDeniedError, type Roots } from './roots.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

/** An entry of a directory: its exact name (in the code's form, see names.ts) and what it is. */
export interface Entry {
  name: string;
  type: EntryType;
}

/** Called with a directory after its path was checked and before it is opened (tests make a race there). */
export type AfterCheck = (directory: string) => void | Promise<void>;

const HANDLES = process.platform === 'linux' && existsSync('/proc/self/fd');
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export class CheckedDirectory {
  private constructor(
    /** Its real path: on Linux, what the kernel says the handle points at. */
    readonly path: string,
    private readonly handle: FileHandle | undefined,
    private readonly roots: Roots,
    private readonly afterCheck: AfterCheck | undefined,
  ) {}

  /** Opens a directory whose path Roots.resolve returned. */
  static async open(roots: Roots, directory: string, afterCheck?: AfterCheck): Promise<CheckedDirectory> {
    await afterCheck?.(directory);
    if (!HANDLES) return new CheckedDirectory(directory, undefined, roots, afterCheck);
    return CheckedDirectory.opened(roots, directory, fsPath(directory), afterCheck);
  }

  /** A subdirectory, opened through this directory's handle, never through a link. */
  async subdirectory(name: string): Promise<CheckedDirectory> {
    const full = path.join(this.path, name);
    await this.afterCheck?.(full);
    if (!this.handle) return new CheckedDirectory(full, undefined, this.roots, this.afterCheck);
    return CheckedDirectory.opened(this.roots, full, this.entry(name), this.afterCheck);
  }

  private static async opened(
    roots: Roots,
    directory: string,
    target: string | Buffer,
    afterCheck: AfterCheck | undefined,
  ): Promise<CheckedDirectory> {
    const shown = showName(directory);
    let handle: FileHandle;
    try {
      handle = await open(target, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new Error(`${shown} became a symbolic link while it was being opened`);
      if (code === 'ENOTDIR') throw new Error(`${shown} is not a directory`);
      throw error;
    }
    try {
      const real = nameFromBytes(await readlink(`/proc/self/fd/${handle.fd}`, { encoding: 'buffer' }));
      if (!roots.contains(real)) {
        throw new AccessDeniedError(
          shown,
          `"${shown}" was moved outside the allowed directories while it was being opened`,
          roots.directories,
        );
      }
      return new CheckedDirectory(real, handle, roots, afterCheck);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The path an fs call takes for an entry of this directory: through the handle where there is one. */
  entry(name: string): string | Buffer {
    return fsPath(this.handle ? `/proc/self/fd/${this.handle.fd}/${name}` : path.join(this.path, name));
  }

  /** Every entry, sorted by name, each name exact. */
  async entries(): Promise<Entry[]> {
    const self = this.handle ? `/proc/self/fd/${this.handle.fd}` : fsPath(this.path);
    const dirents = await readdir(self, { withFileTypes: true, encoding: 'buffer' });
    return dirents
      .map((dirent) => ({ name: nameFromBytes(dirent.name), type: typeOf(dirent) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Its inode and modification time, to tell whether a listing kept from before is still current. */
  async version(): Promise<{ ino: bigint; mtimeNs: bigint }> {
    const info = this.handle
      ? await this.handle.stat({ bigint: true })
      : await stat(fsPath(this.path), { bigint: true });
    return { ino: info.ino, mtimeNs: info.mtimeNs };
  }

  /**
   * Creates or replaces the content of a regular file in this directory. The name is not followed when it
   * is a link, and a FIFO, device or socket is refused (opening one for writing blocked, or wrote to it).
   */
  async writeFile(name: string, data: string): Promise<void> {
    const shown = showName(path.join(this.path, name));
    let file: FileHandle;
    try {
      file = await open(
        this.entry(name),
        constants.O_WRONLY | constants.O_CREAT | O_NOFOLLOW | constants.O_NONBLOCK,
        0o666,
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new Error(`${shown} became a symbolic link; nothing was written`);
      if (code === 'ENXIO')
        throw new Error(`${shown} is a named pipe (FIFO); only regular files are written`);
      throw error;
    }
    try {
      if (!(await file.stat()).isFile()) {
        throw new Error(`${shown} is not a regular file; only regular files are written`);
      }
      // Truncated only now, once it is known to be a regular file (O_TRUNC would have come first).
      await file.truncate(0);
      await file.writeFile(data, 'utf8');
    } finally {
      await file.close();
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }
}

function typeOf(entry: Dirent<Buffer>): EntryType {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}
