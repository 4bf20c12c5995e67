// Shared by the SQLite server's tests: the fixture database (built here, in a temporary directory, with
// better-sqlite3 itself), an in-process session driven by a raw JSON-RPC Connection acting as the client,
// a record of what the query processes do, and a digest of the database files to prove nothing changed.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Connection } from '../../src/jsonrpc/connection.js';
import type { JsonRpcError } from '../../src/jsonrpc/errors.js';
import {
  createSqliteServer,
  type QueryProcessEvent,
  type SqliteServer,
  type SqliteServerOptions,
} from '../../src/servers/sqlite/index.js';
import { createInMemoryPair, type InMemoryTransport } from '../../src/transport/memory.js';
import { requestError } from './request-error.js';

export { makeTempDir, outputSchemaErrors, removeDir, specErrors } from './fs-harness.js';

/** 2^53 + 1: an integer JavaScript numbers cannot hold. */
export const BIG = '9007199254740993';

/** Builds the fixture database at `file` and returns it closed. */
export function buildFixture(file: string): void {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      email TEXT,
      team_id INTEGER REFERENCES teams(id) ON DELETE SET NULL,
      score REAL DEFAULT 0,
      avatar BLOB,
      big INTEGER
    );
    CREATE INDEX users_team ON users(team_id);
    CREATE UNIQUE INDEX users_email ON users(lower(email)) WHERE email IS NOT NULL;
    CREATE TABLE orders (
      user_id INTEGER NOT NULL REFERENCES users(id),
      item TEXT NOT NULL,
      quantity INTEGER NOT NULL DEFAULT 1,
      PRIMARY KEY (user_id, item)
    ) WITHOUT ROWID;
    CREATE TABLE "odd ""name"" / x" (v TEXT);
    CREATE VIEW team_sizes AS
      SELECT t.name AS team, count(u.id) AS members FROM teams t LEFT JOIN users u ON u.team_id = t.id GROUP BY t.id;
    INSERT INTO teams (name) VALUES ('red'), ('blue');
    INSERT INTO "odd ""name"" / x" VALUES ('odd');
  `);
  const insert = db.prepare(
    'INSERT INTO users (name, email, team_id, score, avatar, big) VALUES (?, ?, ?, ?, ?, ?)',
  );
  insert.run('ada', 'ada@example.com', 1, 9.5, Buffer.from([0, 255, 16]), BigInt(BIG));
  insert.run('bob', null, 2, 7, null, 42);
  insert.run('Zoë\nsecond line', 'zoe@example.com', 1, null, null, null);
  db.prepare('INSERT INTO orders (user_id, item, quantity) VALUES (?, ?, ?)').run(1, 'tea', 3);
  db.prepare('INSERT INTO orders (user_id, item) VALUES (?, ?)').run(2, 'coffee');
  db.close();
}

/** A digest of the database file and of any journal or WAL beside it: equal digests, unchanged files. */
export function digest(file: string): string {
  const hash = createHash('sha256');
  for (const suffix of ['', '-journal', '-wal', '-shm']) {
    const part = file + suffix;
    hash.update(`${suffix}:${existsSync(part) ? 'present' : 'absent'}:`);
    if (existsSync(part)) hash.update(readFileSync(part));
  }
  return hash.digest('hex');
}

/** Rows of `sql` read with a connection of the test's own. */
export function query(file: string, sql: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

export interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Notice {
  method: string;
  params: unknown;
}

/** Resolves with the first item, already seen or to come, that passes `test`. */
class Watched<T> {
  readonly items: T[] = [];
  private readonly waiters: Array<{ test: (item: T) => boolean; resolve: (item: T) => void }> = [];

  push(item: T): void {
    this.items.push(item);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(item)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(item);
      }
    }
  }

  next(test: (item: T) => boolean, timeoutMs: number, what: string): Promise<T> {
    const seen = this.items.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        test,
        resolve: (item: T) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      // A deadline for a test that would otherwise hang, not a wait for something to happen.
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no ${what} within ${timeoutMs} ms; seen: ${JSON.stringify(this.items)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}

/** One client session with a SQLite server in this process, over an in-memory transport pair. */
export class SqliteSession {
  readonly notices = new Watched<Notice>();
  readonly events = new Watched<QueryProcessEvent>();
  sqlite!: SqliteServer;
  client!: Connection;
  /** The server's end of the wire: every message it sent is in `serverSide.sent`. */
  serverSide!: InMemoryTransport;
  clientSide!: InMemoryTransport;

  static async start(options: SqliteServerOptions): Promise<SqliteSession> {
    const session = new SqliteSession();
    session.sqlite = await createSqliteServer({
      ...options,
      observeQueries: (event) => session.events.push(event),
    });
    const [clientSide, serverSide] = createInMemoryPair();
    session.serverSide = serverSide;
    session.clientSide = clientSide;
    session.sqlite.server.connect(serverSide);
    session.client = new Connection(clientSide, { timeout: 60_000 });
    session.client.onOtherNotification((method, params) => session.notices.push({ method, params }));
    session.client.start();
    await session.client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'sqlite-test', version: '1.0.0' },
    });
    session.client.notify('notifications/initialized');
    return session;
  }

  request<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    return this.client.request<T>(method, params);
  }

  callTool(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    return this.client.request<ToolResult>('tools/call', { name, arguments: args });
  }

  /** A tool call that must fail as a tool (isError); returns its message. */
  async toolError(name: string, args: Record<string, unknown>): Promise<string> {
    const result = await this.callTool(name, args);
    if (result.isError !== true) {
      throw new Error(`${name} succeeded where it should have failed: ${JSON.stringify(result)}`);
    }
    return textOf(result);
  }

  /** The JSON-RPC error a request fails with (fails the test if it succeeds). */
  requestError(method: string, params?: unknown): Promise<JsonRpcError> {
    return requestError(this.client, method, params);
  }

  async close(): Promise<void> {
    await this.client.close();
    this.sqlite.close();
  }
}

export function textOf(result: ToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => String(block.text))
    .join('\n');
}

export function fixturePath(directory: string, name = 'fixture.db'): string {
  return path.join(directory, name);
}
