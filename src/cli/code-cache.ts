// How the `mcpwire` executable starts (issue 21): the whole command line is one CommonJS script
// (dist/cli/mcpwire.cjs, made by scripts/bundle-entries.mjs), compiled with V8's code cache. Node 20 has no
// compile cache for ES modules (Node 22's module.enableCompileCache), and parsing ~250 KB of ES modules
// was most of what `mcpwire serve` cost a host at start-up beyond a hand-written server; a script can be
// given the bytecode an earlier run made (vm.Script's cachedData), which V8 checks before it uses it.
//
// The cache is an optimisation and nothing else: any failure to read, check or write it runs the script
// compiled from source, silently (stdout is the protocol's; this module never writes anything but the
// cache). What it trusts:
// - the script it runs, by the SHA-256 the build wrote on the script's first line and by the file's size
//   and time of change, which the cache file repeats: a cache made for other source, or for the script
//   before an edit, is never used (V8 itself only compares the source's length, its own version and its
//   flags, and runs the bytecode of another script of the same length);
// - the folder and each cache file, only if they are the user's own: not a link, owned by this user,
//   writable by nobody else. A cache is code, and the default folder is under the system's temporary
//   folder, shared by every user (on Windows, the user's local application data instead).
// Each command has its cache (`serve`, `call`...): a cache holds the functions compiled by the time it was
// made, and `mcpwire --version`'s would do little for `mcpwire serve`.

import type { Script } from 'node:vm';

const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
const path = process.getBuiltinModule('node:path') as typeof import('node:path');
const vm = process.getBuiltinModule('node:vm') as typeof import('node:vm');

/** The first line of a script built for this loader: `// mcpwire-script sha256=<64 hex digits>`. */
const STAMP = /^\/\/ mcpwire-script sha256=([0-9a-f]{64})\n/;
/** A cache file: this header, the script's hash, size and time of change, then V8's bytes. */
const HEADER = 'mcpwire-code-cache 2 ';

export type CodeCacheState =
  /** No folder to keep caches in (turned off, or not safe to use). */
  | 'off'
  /** None yet for this script, command, Node and machine: one is written once the run is under way. */
  | 'missing'
  /** V8 took it: the script's functions were not compiled again. */
  | 'used'
  /** There was one and V8 refused it (other flags, a damaged file): a new one is written. */
  | 'rejected';

export interface CodeCacheOptions {
  /** The folder caches are kept in; undefined turns the cache off. See `codeCacheFolder`. */
  folder: string | undefined;
  /** Which cache of the script: the command's name (`serve`; anything but a lower-case word is `main`). */
  name: string;
  /** How long after the start the cache is made, in ms: it holds what was compiled by then. Default 1000. */
  writeAfter?: number;
  /** The script's `require`: mcpwire's script only requires Node's own modules. */
  require?: (id: string) => unknown;
  /** The script's `__import`, its import() of packages. */
  import?: (specifier: string) => Promise<unknown>;
}

export interface CodeCacheRun {
  state: CodeCacheState;
  /** The cache file, when there is a folder. */
  file: string | undefined;
  /** Settles when a cache this run was to write is written (true), or was not (false, or nothing to do). */
  written: Promise<boolean>;
}

/** The folder for caches from the environment: MCPWIRE_CODE_CACHE=off|<folder>, NODE_DISABLE_COMPILE_CACHE. */
export function codeCacheFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const chosen = env.MCPWIRE_CODE_CACHE;
  // Node's own switch for its compile cache turns this one off too: one answer to "no cached code".
  if (chosen === 'off' || (env.NODE_DISABLE_COMPILE_CACHE ?? '') !== '') return undefined;
  if (chosen) return path.resolve(chosen);
  // Windows: the user's own local application data (the temporary folder of a service running as SYSTEM
  // is shared with every user, and Windows folders have no owner to check here); none, no cache.
  if (platform === 'win32') {
    return env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'mcpwire', 'code-cache') : undefined;
  }
  const os = process.getBuiltinModule('node:os') as typeof import('node:os');
  const user = typeof process.getuid === 'function' ? `-${process.getuid()}` : '';
  return path.join(os.tmpdir(), `mcpwire-code-cache${user}`);
}

/** Runs the CommonJS script `scriptFile` (built with its stamp), with its code cache when there is one. */
export function runWithCodeCache(scriptFile: string, options: CodeCacheOptions): CodeCacheRun {
  const { source, size, mtimeMs } = readScript(scriptFile);
  const stamp = STAMP.exec(source)?.[1];
  // The stamp names the script as built; its size and time of change, the file as read: a script edited
  // in place (patched, by hand) never runs the bytecode of what it was.
  const header = stamp && `${HEADER}${stamp} ${size} ${mtimeMs}\n`;
  const folder = header === undefined ? undefined : safeFolder(options.folder);
  // Named by command and Node, not by script: a new build's cache replaces the last one's, so the folder
  // holds a file per command and Node version however often mcpwire is rebuilt or upgraded.
  const name = /^[a-z][a-z-]{0,31}$/.test(options.name) ? options.name : 'main';
  const file =
    folder === undefined
      ? undefined
      : path.join(folder, `${name}-${process.versions.v8}-${process.arch}.cache`);
  const cachedData = file === undefined ? undefined : readCache(file, header!);
  // The module wrapper CommonJS gives a file, on the script's first line so that its lines keep their
  // numbers, and __import: the script loads packages (ajv, jose, redis) with this module's import(), as
  // one compiled from a code cache cannot call import() itself (see scripts/bundle-entries.mjs).
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`,
    { filename: scriptFile, cachedData },
  );
  const state: CodeCacheState =
    file === undefined
      ? 'off'
      : cachedData === undefined
        ? 'missing'
        : script.cachedDataRejected
          ? 'rejected'
          : 'used';
  const written =
    state === 'missing' || state === 'rejected' ? writeLater(script, file!, header!, options) : done;
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(
    module.exports,
    module.exports,
    options.require ?? builtinOnly,
    module,
    scriptFile,
    path.dirname(scriptFile),
    options.import ?? importPackage,
  );
  return { state, file, written };
}

const done = Promise.resolve(false);

/** Packages resolve from here as from the script: both are in dist/cli/. */
const importPackage = (specifier: string): Promise<unknown> => import(specifier);

function builtinOnly(id: string): unknown {
  const builtin = process.getBuiltinModule(id);
  if (builtin === undefined)
    throw new Error(`mcpwire's script requires ${id}, which is not one of Node's modules`);
  return builtin;
}

/** The script's text, with the size and time of change of the file it was read from (one open). */
function readScript(file: string): { source: string; size: number; mtimeMs: number } {
  const fd = fs.openSync(file, 'r');
  try {
    const { size, mtimeMs } = fs.fstatSync(fd);
    return { source: fs.readFileSync(fd, 'utf8'), size, mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** Owned by this user and writable by nobody else (always true on Windows: no such owners or modes). */
function isPrivate(stat: import('node:fs').Stats): boolean {
  return typeof process.getuid !== 'function' || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
}

/** The folder if it is safe to keep code in (made, private, if missing); undefined if not. */
function safeFolder(folder: string | undefined): string | undefined {
  if (folder === undefined) return undefined;
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(folder);
    return stat.isDirectory() && isPrivate(stat) ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** V8's bytes of the cache file, if it is private and its header is `header`. */
function readCache(file: string, header: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    // Checked as opened, not by name first: what is read is what was checked.
    fd = fs.openSync(file, 'r');
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || !isPrivate(stat)) return undefined;
    const bytes = fs.readFileSync(fd);
    // A cache for other source (or a damaged one) counts as none: it is written again.
    if (bytes.length <= header.length || bytes.toString('latin1', 0, header.length) !== header)
      return undefined;
    return bytes.subarray(header.length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeLater(
  script: Script,
  file: string,
  header: string,
  options: CodeCacheOptions,
): Promise<boolean> {
  return new Promise((resolve) => {
    const write = (exitCode?: number) => {
      clearTimeout(timer);
      process.off('exit', write);
      // A usage error (an unknown command, a wrong option) ran next to nothing, under a name that may be a
      // typo: a cache of it would be a file of no use.
      resolve(exitCode === 2 ? false : writeCache(script, file, header));
    };
    // Unreferenced: the cache never keeps a process alive. A run shorter than the wait writes it as it exits.
    const timer = setTimeout(() => write(), options.writeAfter ?? 1000);
    timer.unref();
    process.on('exit', write);
  });
}

function writeCache(script: Script, file: string, header: string): boolean {
  // Written aside and renamed into place: processes started together never read half a file.
  const partial = `${file}.${process.pid}.partial`;
  try {
    const data = script.createCachedData();
    fs.writeFileSync(partial, Buffer.concat([Buffer.from(header, 'latin1'), data]), {
      mode: 0o600,
    });
    fs.renameSync(partial, file);
    return true;
  } catch {
    try {
      fs.rmSync(partial, { force: true });
    } catch {}
    return false;
  }
}
