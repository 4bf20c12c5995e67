// `mcpwire serve sqlite DB_FILE`: a SQLite database behind MCP, built on mcpwire's server framework.
// Read-only unless asked to write, and then guarded three times: the connection that runs a read is
// opened read-only, each tool accepts only its own kinds of statement (sql-kind.ts), and SQLite's own
// verdict on a prepared statement (statement.readonly) is checked before it runs.

import { McpServer } from '../../server/server.js';
import { DEFAULT_MAX_MESSAGE_SIZE } from '../../transport/framing/decoder.js';
import type { SqliteOptions } from './context.js';
import { openDatabase } from './database.js';
import { registerPrompts } from './prompts.js';
import { checkQueryMemory, DEFAULT_QUERY_MEMORY, QueryPool, type QueryProcessEvent } from './query-pool.js';
import { registerReadTools } from './read-tools.js';
import { registerResources } from './resources.js';
import { registerWriteTools } from './write-tools.js';

export { SqliteOpenError } from './database.js';
export type { QueryProcessEvent } from './query-pool.js';

export interface SqliteServerOptions {
  /** The database file. */
  file: string;
  /** Open it for writing and offer write_query and create_table. */
  write?: boolean;
  /** Make a new, empty database when the file does not exist. */
  create?: boolean;
  /** The most rows a query returns (10 000). */
  maxRows?: number;
  /** A statement's time limit in ms, the default and the most a call may ask for (30 000). */
  queryTimeoutMs?: number;
  /** Statements that may run at once (4). */
  maxConcurrentQueries?: number;
  /**
   * Bytes of memory one query process may use, Node itself (60 to 90 MiB) included (512 MiB; at least
   * 128 MiB). A statement that needs more is stopped with an error.
   */
  maxQueryMemory?: number;
  /**
   * The largest message the transport sends (256 MiB, as the transport's own default): an answer's rows
   * are gathered only while they fit.
   */
  maxMessageSize?: number;
  version?: string;
  /** Told what the query processes do (for tests and diagnostics). */
  observeQueries?: (event: QueryProcessEvent) => void;
}

export interface SqliteServer {
  server: McpServer;
  /** Ends the query processes and closes the database. */
  close(): void;
}

/** Opens the database (throwing SqliteOpenError, with a hint, when it cannot) and builds the server. */
export async function createSqliteServer(options: SqliteServerOptions): Promise<SqliteServer> {
  const write = options.write ?? false;
  const maxMemory = options.maxQueryMemory ?? DEFAULT_QUERY_MEMORY;
  // Checked before the file is opened, so that a wrong option leaves nothing open.
  checkQueryMemory(maxMemory);
  const db = await openDatabase(options.file, { write, create: options.create ?? false });
  const pool = new QueryPool(db.name, {
    maxProcesses: options.maxConcurrentQueries ?? 4,
    maxMemory,
    observe: options.observeQueries,
    // A write killed half-way leaves a hot journal; the server's writable connection rolls it back now,
    // before a read-only connection (which cannot roll it back) trips over it.
    afterKilledWrite: () => {
      try {
        db.prepare('SELECT count(*) FROM sqlite_schema').get();
      } catch {
        // The next statement will try again.
      }
    },
  });
  const sqliteOptions: SqliteOptions = {
    file: options.file,
    db,
    pool,
    write,
    maxRows: options.maxRows ?? 10_000,
    queryTimeoutMs: options.queryTimeoutMs ?? 30_000,
    maxMessageSize: options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE,
  };
  const server = new McpServer({
    name: 'mcpwire-sqlite',
    title: 'mcpwire SQLite',
    version: options.version ?? '0.0.0',
    instructions: `A SQLite database (${options.file}), ${write ? 'readable and writable' : 'read-only'}. list_tables and describe_table show what it holds; read_query runs one SELECT with bound parameters${write ? '; write_query runs INSERT, UPDATE and DELETE, create_table makes tables' : ''}. The schema is the resource sqlite://schema; each table is sqlite://table/{name}.`,
  });
  registerReadTools(server, sqliteOptions);
  if (write) registerWriteTools(server, sqliteOptions);
  registerResources(server, sqliteOptions);
  registerPrompts(server, sqliteOptions);
  return {
    server,
    close: () => {
      pool.close();
      db.close();
    },
  };
}
