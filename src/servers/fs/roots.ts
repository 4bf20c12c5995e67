// Which directories the filesystem server may touch, and the one function every tool and every resource
// read goes through to turn a requested path into a real path inside them. Nothing outside the roots is
// ever read, listed or written: not through "..", absolute paths, a sibling whose name starts with a
// root's name, symlinks that point out, percent-encoded dots in URIs, NUL bytes or backslashes. Paths
// come back in the code's form of names.ts (exact, whatever bytes the names hold).

import { readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestContext } from '../../protocol/context.js';
import { InputRequired } from '../../protocol/stateless.js';
import { fsPath, nameFromBytes, pathOfFileUri, readName } from './names.js';

/** A path the server refuses; the message names the allowed directories. */
export class AccessDeniedError extends Error {
  override readonly name = 'AccessDeniedError';
  constructor(
    readonly requested: string,
    reason: string,
    readonly allowed: readonly string[],
  ) {
    super(`Access denied: ${reason}. Allowed directories: ${allowed.join(', ')}`);
  }
}

export interface ResolveOptions {
  /** The path may not exist yet (a file to write): its parent must exist and be inside a root. */
  allowMissing?: boolean;
}

/** The roots of one request, real paths without trailing separators. */
export class Roots {
  constructor(readonly directories: readonly string[]) {}

  /**
   * Resolves a path from a tool's arguments, as the listings show names (names.ts): relative to the first
   * root, checked, symlinks followed.
   */
  async resolve(requested: string, options: ResolveOptions = {}): Promise<string> {
    if (typeof requested !== 'string' || requested.length === 0) {
      throw new AccessDeniedError(String(requested), 'the path is empty', this.directories);
    }
    const name = readName(requested);
    if (name instanceof Error) throw new AccessDeniedError(requested, name.message, this.directories);
    return this.resolveName(requested, name, options);
  }

  /** Resolves a path in the code's form; `requested` is what the client wrote, for messages. */
  async resolveName(requested: string, name: string, options: ResolveOptions): Promise<string> {
    if (name.includes('\0')) {
      throw new AccessDeniedError(requested, 'the path contains a NUL byte', this.directories);
    }
    const first = this.directories[0];
    if (first === undefined)
      throw new AccessDeniedError(requested, 'no directory is allowed', this.directories);
    const absolute = path.resolve(first, name);
    if (!this.contains(absolute)) {
      throw new AccessDeniedError(
        requested,
        `"${requested}" is outside the allowed directories`,
        this.directories,
      );
    }
    let real: string;
    try {
      real = await realpathOf(absolute);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !options.allowMissing) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new FileNotFoundError(requested);
        }
        throw error;
      }
      // A new file: its parent must exist, really inside a root.
      const parent = await realpathOf(path.dirname(absolute)).catch(() => {
        throw new FileNotFoundError(path.dirname(requested));
      });
      real = path.join(parent, path.basename(absolute));
      // A dangling symbolic link: writing through it would create its target, wherever that is.
      const link = this.contains(real)
        ? await readlink(fsPath(real), { encoding: 'buffer' }).then(nameFromBytes, () => undefined)
        : undefined;
      if (link !== undefined) {
        const target = path.resolve(parent, link);
        if (!this.contains(target)) {
          throw new AccessDeniedError(
            requested,
            `"${requested}" leads outside the allowed directories through a symbolic link`,
            this.directories,
          );
        }
        return this.resolveName(requested, target, options);
      }
    }
    if (!this.contains(real)) {
      throw new AccessDeniedError(
        requested,
        `"${requested}" leads outside the allowed directories through a symbolic link`,
        this.directories,
      );
    }
    return real;
  }

  /** Resolves a file:// URI the same way; its percent-escapes are the bytes of the names. */
  async resolveUri(uri: string): Promise<string> {
    let filePath: string | undefined;
    let problem = 'not a file URI without a host, or it encodes a "/"';
    try {
      filePath = path.sep === '/' ? pathOfFileUri(uri) : fileURLToPath(uri);
    } catch (error) {
      problem = (error as Error).message;
    }
    if (filePath === undefined) {
      throw new AccessDeniedError(uri, `"${uri}" is not a usable file URI (${problem})`, this.directories);
    }
    return this.resolveName(uri, filePath, {});
  }

  /** Lexical containment: the path is a root or below one (a sibling "root-other" is not). */
  contains(absolute: string): boolean {
    return this.directories.some((root) => {
      const relative = path.relative(root, absolute);
      return (
        relative === '' ||
        (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
      );
    });
  }
}

/** The real path of a path in the code's form, in that form. */
async function realpathOf(name: string): Promise<string> {
  return nameFromBytes(await realpath(fsPath(name), { encoding: 'buffer' }));
}

export class FileNotFoundError extends Error {
  override readonly name = 'FileNotFoundError';
  constructor(readonly requested: string) {
    super(`No such file or directory: ${requested}`);
  }
}

/** Real paths of directories given on the command line; each must exist and be a directory. */
export async function resolveRootDirectories(directories: readonly string[]): Promise<string[]> {
  const resolved: string[] = [];
  for (const directory of directories) {
    const absolute = path.resolve(directory);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch {
      throw new Error(`root "${directory}" does not exist`);
    }
    if (!(await stat(real)).isDirectory()) throw new Error(`root "${directory}" is not a directory`);
    if (!resolved.includes(real)) resolved.push(real);
  }
  return resolved;
}

const ROOTS_CACHE = Symbol('mcpwire.fs.roots');
/** The client's roots once they arrived, for what cannot wait for them (starting a file watch). */
const KNOWN_ROOTS = Symbol('mcpwire.fs.roots.known');

/**
 * The roots of a request: the client's own roots when it offers them (cached for its session, refreshed
 * when it says they changed), else the ones the server was started with.
 */
export async function rootsFor(context: RequestContext, configured: Roots): Promise<Roots> {
  if (!context.clientCapabilities.roots) return configured;
  let cached = context.sessionState.get(ROOTS_CACHE) as Promise<Roots> | undefined;
  if (!cached) {
    const fetching: Promise<Roots> = fetchClientRoots(context, configured).then((roots) => {
      if (context.sessionState.get(ROOTS_CACHE) === fetching) context.sessionState.set(KNOWN_ROOTS, roots);
      return roots;
    });
    cached = fetching;
    context.sessionState.set(ROOTS_CACHE, cached);
  }
  return cached;
}

/** The roots of a session as far as they are known now: the client's once it gave them, else undefined. */
export function knownRoots(sessionState: Map<unknown, unknown>): Roots | undefined {
  return sessionState.get(KNOWN_ROOTS) as Roots | undefined;
}

export function forgetClientRoots(sessionState: Map<unknown, unknown>): void {
  sessionState.delete(ROOTS_CACHE);
  sessionState.delete(KNOWN_ROOTS);
}

async function fetchClientRoots(context: RequestContext, configured: Roots): Promise<Roots> {
  try {
    const { roots } = await context.listRoots({ timeout: 10_000 });
    const paths = roots.flatMap((root) => {
      try {
        return root.uri.startsWith('file://') ? [fileURLToPath(root.uri)] : [];
      } catch {
        return [];
      }
    });
    const resolved = await resolveRootDirectories(paths).catch(() => []);
    return resolved.length > 0 ? new Roots(resolved) : configured;
  } catch (error) {
    context.sessionState.delete(ROOTS_CACHE);
    // In the stateless revision the question goes back to the client as an input_required result.
    if (error instanceof InputRequired) throw error;
    // A client that declares roots but cannot list them keeps the server's own.
    return configured;
  }
}
