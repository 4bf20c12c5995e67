// Opening the database file: read-only unless the server may write, with one clear sentence and a hint
// for every way it can fail at start-up (the binding not installed or not built, the file missing, a
// directory, unreadable, not a database). better-sqlite3 is loaded here, on first use, so that other
// mcpwire commands never load it; it is an optional peer dependency (a native addon, which installing
// mcpwire as a library must not compile), so it may not be there at all.

import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
type DatabaseClass = typeof BetterSqlite3;

/** The database cannot be served; `hint` says what to do about it. */
export class SqliteOpenError extends Error {
  override readonly name = 'SqliteOpenError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export interface OpenOptions {
  /** Open for writing (else read-only: SQLite itself then refuses every change). */
  write: boolean;
  /** Make a new, empty database if the file does not exist. */
  create: boolean;
}

const BINDING_HINT =
  'Reinstall with "npm ci": without a prebuilt binary, better-sqlite3 compiles from source, which needs python3, make and a C++ compiler.';

/** The require that finds better-sqlite3 from where mcpwire is installed, as its peer dependencies are. */
const ownRequire = createRequire(import.meta.url);

/**
 * Loads better-sqlite3 (Node's require caches it). `from` is the require that looks for it: the tests give
 * one rooted where it cannot be found. It is resolved before it is loaded, so that "not installed" is told
 * apart from a package that is there but fails to load (a missing dependency of its own, say).
 */
export function loadSqlite(from: NodeJS.Require = ownRequire): DatabaseClass {
  try {
    from.resolve('better-sqlite3');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') {
      throw new SqliteOpenError(
        'the SQLite server needs the better-sqlite3 package, which is not installed',
        'Run "npm install better-sqlite3" where mcpwire is installed (with npx: npx -p mcpwire -p better-sqlite3 mcpwire serve sqlite ...).',
      );
    }
    throw bindingError(error);
  }
  try {
    return from('better-sqlite3') as DatabaseClass;
  } catch (error) {
    throw bindingError(error);
  }
}

function bindingError(error: unknown): SqliteOpenError {
  return new SqliteOpenError(`the SQLite binding could not be loaded (${messageOf(error)})`, BINDING_HINT);
}

/** Opens `file` as the server's own connection (for the schema; queries get connections of their own). */
export async function openDatabase(file: string, options: OpenOptions): Promise<Database> {
  if (file === '' || file === ':memory:') {
    throw new SqliteOpenError(
      `"${file}" is not a database file`,
      'Give the path of a SQLite database file (queries run in a separate process, which must open it too).',
    );
  }
  // The binding first: without it nothing about the file can be fixed usefully.
  const Sqlite = loadSqlite();
  const absolute = path.resolve(file);
  const exists = checkFile(file, absolute, options);
  let db: Database;
  try {
    if (!exists) {
      // Creating needs a writable connection; a read-only server then reopens the new file read-only.
      new Sqlite(absolute).close();
    }
    db = new Sqlite(absolute, { readonly: !options.write, fileMustExist: true });
  } catch (error) {
    // better-sqlite3 loads its compiled addon only when the first database is opened.
    if (/bindings|\.node|NODE_MODULE_VERSION|dlopen/i.test(messageOf(error))) throw bindingError(error);
    throw new SqliteOpenError(
      `cannot open ${file}: ${messageOf(error)}`,
      'Check the file and its permissions.',
    );
  }
  try {
    // SQLite reads the header only when it must: make it read it now, while a clear error can be given.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new SqliteOpenError(
        `${file} is not a SQLite database (SQLite says: ${messageOf(error)})`,
        'Give the path of a SQLite database file, or a new path with --create.',
      );
    }
    throw new SqliteOpenError(
      `cannot read ${file}: ${messageOf(error)}`,
      'Check the file and its permissions.',
    );
  }
  return db;
}

/** Checks the file before SQLite does, for errors people can act on; returns whether it exists. */
function checkFile(file: string, absolute: string, options: OpenOptions): boolean {
  let isFile: boolean;
  try {
    isFile = statSync(absolute).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new SqliteOpenError(
        `cannot read ${file}: ${messageOf(error)}`,
        'Check the path and its permissions.',
      );
    }
    if (!options.create) {
      throw new SqliteOpenError(
        `the database file ${file} does not exist`,
        'Check the path, or add --create to make a new, empty database there.',
      );
    }
    const directory = path.dirname(absolute);
    try {
      accessSync(directory, constants.W_OK);
    } catch {
      throw new SqliteOpenError(
        `cannot create ${file}: the directory ${directory} does not exist or is not writable`,
        'Create the directory first, or choose another path.',
      );
    }
    return false;
  }
  if (!isFile) {
    throw new SqliteOpenError(`${file} is not a file`, 'Give the path of a SQLite database file.');
  }
  try {
    accessSync(absolute, options.write ? constants.R_OK | constants.W_OK : constants.R_OK);
  } catch {
    throw new SqliteOpenError(
      `cannot ${options.write ? 'read and write' : 'read'} ${file}: permission denied`,
      options.write
        ? 'Change its permissions, or serve it read-only (without --write).'
        : 'Change its permissions.',
    );
  }
  return true;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
