// What every tool, resource and prompt of the SQLite server shares: the database, the query processes,
// the limits, and the pieces of tool schemas and answers that several tools use.

import type { Database } from './database.js';
import { QueryMemoryError, type QueryPool, QueryTimeoutError, SqlError } from './query-pool.js';
import { CELL_SCHEMA, type Cell } from './values.js';

export { uniqueKeys } from './values.js';

export interface SqliteOptions {
  /** The database file as given on the command line (for messages). */
  file: string;
  /** The server's own connection: schema questions, and rolling back a killed write. */
  db: Database;
  pool: QueryPool;
  /** Write tools are registered only when true. */
  write: boolean;
  /** The most rows one query may return (its maxRows argument is capped here). */
  maxRows: number;
  /** The time limit of a statement in ms: the default, and the most a call may ask for. */
  queryTimeoutMs: number;
  /** The largest message the transport sends, in bytes: no answer is built larger. */
  maxMessageSize: number;
}

const SCALAR = { type: ['string', 'number', 'boolean', 'null'] };

export const PARAMS_SCHEMA = {
  // The type beside anyOf tells clients that build arguments from text (mcpwire call) to parse JSON.
  type: ['array', 'object'],
  description:
    'Values bound to the placeholders of the SQL, never spliced into it: an array for ? placeholders, or an object for named ones (:name, @name or $name, given without the prefix). Booleans are bound as 1 and 0.',
  anyOf: [
    { type: 'array', items: SCALAR },
    { type: 'object', additionalProperties: SCALAR },
  ],
};

export function timeoutSchema(options: SqliteOptions) {
  return {
    type: 'integer',
    minimum: 1,
    maximum: options.queryTimeoutMs,
    description: `The statement's time limit in ms (default and most: ${options.queryTimeoutMs}). It is stopped when it runs longer.`,
  };
}

export const ROWS_SCHEMA = {
  type: 'array',
  items: { type: 'object', additionalProperties: CELL_SCHEMA },
  description: 'One object per row, by column name; a repeated column name gets ":2", ":3"... appended.',
};

export function rowObjects(keys: readonly string[], rows: readonly Cell[][]): Array<Record<string, Cell>> {
  return rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, row[i] ?? null])));
}

/** What to do when rows do not fit in one answer. */
export function narrowAdvice(options: SqliteOptions): string {
  return `select fewer or shorter columns (substr(column, 1, 1000), length(column)), narrow the query (WHERE, LIMIT), or start the server with a larger --max-message-size (now ${options.maxMessageSize} bytes)`;
}

/** The message of a failed statement, with what to do next where SQLite's own words do not say it. */
export function explainFailure(error: unknown, options: SqliteOptions): Error {
  if (error instanceof QueryTimeoutError) {
    return new Error(
      `${error.message}; narrow it (WHERE, LIMIT, an index) or give a longer timeoutMs (at most ${options.queryTimeoutMs})`,
    );
  }
  if (error instanceof QueryMemoryError) {
    return new Error(
      `${error.message}; simplify it, or start the server with a larger --max-query-memory (maxQueryMemory)`,
    );
  }
  if (!(error instanceof SqlError)) return error instanceof Error ? error : new Error(String(error));
  let message = `SQLite error: ${error.message}`;
  if (/no such table/i.test(error.message)) message += ' (list_tables shows the tables)';
  else if (/no such column/i.test(error.message)) message += " (describe_table shows a table's columns)";
  else if (error.code === 'SQLITE_READONLY') message += ' (the server opened the database read-only)';
  return new Error(message);
}
