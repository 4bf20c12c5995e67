// Every tool, resource and prompt of the SQLite server against the fixture database, in process: what the
// text says, what structuredContent holds (checked against each tool's outputSchema and every result
// against the official 2025-11-25 schema), bound parameters of every form, exact big integers and blobs,
// row limits, and the write tools of a server started with --write.

import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BIG,
  buildFixture,
  digest,
  makeTempDir,
  outputSchemaErrors,
  query,
  removeDir,
  SqliteSession,
  specErrors,
  type ToolResult,
  textOf,
} from '../support/sqlite-harness.js';

const REVISION = '2025-11-25';

let directory: string;
let fixture: string;

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-');
  fixture = path.join(directory, 'fixture.db');
  buildFixture(fixture);
});

after(() => removeDir(directory));

/** Checks a result against the CallToolResult schema and the tool's own outputSchema. */
async function checked(session: SqliteSession, name: string, result: ToolResult): Promise<ToolResult> {
  assert.equal(specErrors(REVISION, 'CallToolResult', result), undefined);
  if (!result.isError) {
    const { tools } = await session.request<{ tools: Array<{ name: string; outputSchema?: object }> }>(
      'tools/list',
    );
    const schema = tools.find((t) => t.name === name)?.outputSchema as Record<string, unknown>;
    assert.ok(schema, `${name} has an outputSchema`);
    assert.equal(outputSchemaErrors(schema, result.structuredContent), undefined);
  }
  return result;
}

describe('a read-only SQLite server', () => {
  let session: SqliteSession;
  let before_: string;

  before(async () => {
    before_ = digest(fixture);
    session = await SqliteSession.start({ file: fixture, maxRows: 50 });
  });

  after(async () => {
    await session.close();
    // Everything the read-only server was asked to do left the file as it was.
    assert.equal(digest(fixture), before_);
  });

  it('offers the read tools only, and declares tools, resources and prompts', async () => {
    const { tools } = await session.request<{ tools: Array<{ name: string; annotations?: unknown }> }>(
      'tools/list',
    );
    assert.deepEqual(tools.map((t) => t.name).sort(), ['describe_table', 'list_tables', 'read_query']);
    for (const tool of tools) {
      assert.equal(specErrors(REVISION, 'Tool', tool), undefined);
      assert.deepEqual(tool.annotations, { readOnlyHint: true, openWorldHint: false });
    }
  });

  it('list_tables lists tables and views with their columns, and not SQLite’s own tables', async () => {
    const result = await checked(session, 'list_tables', await session.callTool('list_tables'));
    const tables = result.structuredContent?.tables as Array<{
      name: string;
      type: string;
      columns: string[];
    }>;
    assert.deepEqual(
      tables.map((t) => `${t.name}:${t.type}`),
      ['odd "name" / x:table', 'orders:table', 'team_sizes:view', 'teams:table', 'users:table'],
    );
    assert.deepEqual(tables.find((t) => t.name === 'team_sizes')?.columns, ['team', 'members']);
    assert.match(textOf(result), /^users \(table\): id, name, email, team_id, score, avatar, big$/m);
  });

  it('describe_table gives columns, types, keys and indexes', async () => {
    const result = await checked(
      session,
      'describe_table',
      await session.callTool('describe_table', { table: 'users' }),
    );
    const table = result.structuredContent as {
      columns: Array<{
        name: string;
        type: string;
        notNull: boolean;
        default: string | null;
        primaryKey: number;
      }>;
      foreignKeys: Array<{ columns: string[]; table: string; references: string[]; onDelete: string }>;
      indexes: Array<{ name: string; unique: boolean; partial: boolean; columns: string[] }>;
      sql: string;
    };
    assert.deepEqual(table.columns[0], {
      name: 'id',
      type: 'INTEGER',
      notNull: false,
      default: null,
      primaryKey: 1,
      generated: false,
    });
    assert.equal(table.columns.find((c) => c.name === 'name')?.notNull, true);
    assert.equal(table.columns.find((c) => c.name === 'score')?.default, '0');
    assert.deepEqual(table.foreignKeys, [
      {
        columns: ['team_id'],
        table: 'teams',
        references: ['id'],
        onUpdate: 'NO ACTION',
        onDelete: 'SET NULL',
      },
    ]);
    assert.deepEqual(table.indexes, [
      { name: 'users_email', unique: true, origin: 'c', partial: true, columns: ['<expression>'] },
      { name: 'users_team', unique: false, origin: 'c', partial: false, columns: ['team_id'] },
    ]);
    assert.match(table.sql, /^CREATE TABLE users/);
    const text = textOf(result);
    assert.match(text, /team_id\s+INTEGER\s+-> teams\(id\)/);
    assert.match(text, /users_email\s+UNIQUE \(<expression>\) WHERE/);

    const orders = (await session.callTool('describe_table', { table: 'ORDERS' })).structuredContent as {
      name: string;
      columns: Array<{ name: string; primaryKey: number }>;
    };
    assert.equal(orders.name, 'orders', 'names are found regardless of case, as SQLite does');
    assert.deepEqual(
      orders.columns.map((c) => [c.name, c.primaryKey]),
      [
        ['user_id', 1],
        ['item', 2],
        ['quantity', 0],
      ],
    );
  });

  it('describe_table of an unknown table names the tables there are', async () => {
    const message = await session.toolError('describe_table', { table: 'nope' });
    assert.match(message, /no table or view named "nope".*orders.*users/);
  });

  it('read_query returns a text table and structured rows, values exact', async () => {
    const result = await checked(
      session,
      'read_query',
      await session.callTool('read_query', {
        sql: 'SELECT id, name, email, score, avatar, big FROM users ORDER BY id',
      }),
    );
    const structured = result.structuredContent as {
      columns: string[];
      rows: unknown[];
      rowCount: number;
      truncated: boolean;
    };
    assert.deepEqual(structured.columns, ['id', 'name', 'email', 'score', 'avatar', 'big']);
    assert.equal(structured.rowCount, 3);
    assert.equal(structured.truncated, false);
    assert.deepEqual(structured.rows[0], {
      id: 1,
      name: 'ada',
      email: 'ada@example.com',
      score: 9.5,
      avatar: { base64: Buffer.from([0, 255, 16]).toString('base64') },
      // Beyond 2^53: a string with every digit, not a rounded number.
      big: BIG,
    });
    assert.deepEqual(structured.rows[2], {
      id: 3,
      name: 'Zoë\nsecond line',
      email: 'zoe@example.com',
      score: null,
      avatar: null,
      big: null,
    });
    const lines = textOf(result).split('\n');
    assert.match(lines[0]!, /^id \| name\s+\| email\s+\| score \| avatar\s+\| big$/);
    assert.match(lines[2]!, /^1 {2}\| ada .*\| <blob, 3 bytes> \| 9007199254740993$/);
    // The line break inside a value does not break the table.
    assert.match(lines[4]!, /^3 {2}\| Zoë⏎second line \| zoe@example.com \| NULL/);
    assert.equal(lines.at(-1), '3 rows.');
  });

  it('binds positional and named parameters, booleans as 1 and 0', async () => {
    const positional = await session.callTool('read_query', {
      sql: 'SELECT name FROM users WHERE team_id = ? AND score > ? ORDER BY id',
      params: [1, 1],
    });
    assert.deepEqual(positional.structuredContent?.rows, [{ name: 'ada' }]);
    for (const placeholder of [':team', '@team', '$team']) {
      const named = await session.callTool('read_query', {
        sql: `SELECT count(*) AS n FROM users WHERE team_id = ${placeholder}`,
        params: { team: 2 },
      });
      assert.deepEqual(named.structuredContent?.rows, [{ n: 1 }], placeholder);
    }
    const booleans = await session.callTool('read_query', {
      sql: 'SELECT ? AS t, ? AS f',
      params: [true, false],
    });
    assert.deepEqual(booleans.structuredContent?.rows, [{ t: 1, f: 0 }]);
    const missing = await session.toolError('read_query', { sql: 'SELECT :a + :b', params: { a: 1 } });
    assert.match(missing, /SQLite error: .*named parameter/i);
  });

  it('keeps both of two columns with the same name', async () => {
    const result = await session.callTool('read_query', {
      sql: 'SELECT u.name, t.name FROM users u JOIN teams t ON t.id = u.team_id WHERE u.id = 1',
    });
    assert.deepEqual(result.structuredContent?.columns, ['name', 'name:2']);
    assert.deepEqual(result.structuredContent?.rows, [{ name: 'ada', 'name:2': 'red' }]);
  });

  it('stops at maxRows and says that there were more', async () => {
    const sql =
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT x FROM c';
    const result = await checked(
      session,
      'read_query',
      await session.callTool('read_query', { sql, maxRows: 7 }),
    );
    assert.equal(result.structuredContent?.rowCount, 7);
    assert.equal(result.structuredContent?.truncated, true);
    assert.match(textOf(result), /The first 7 rows; there are more: raise maxRows \(at most 50\)/);
    // Exactly maxRows rows: not truncated.
    const exact = await session.callTool('read_query', { sql: 'SELECT 1 UNION ALL SELECT 2', maxRows: 2 });
    assert.equal(exact.structuredContent?.truncated, false);
    // The server's own limit caps what a call may ask for.
    const over = await session.callTool('read_query', { sql, maxRows: 51 });
    assert.equal(over.isError, true);
    assert.match(textOf(over), /maxRows/);
  });

  it('runs views, EXPLAIN QUERY PLAN and returns no rows as "0 rows."', async () => {
    const view = await session.callTool('read_query', { sql: 'SELECT * FROM team_sizes ORDER BY team' });
    assert.deepEqual(view.structuredContent?.rows, [
      { team: 'blue', members: 1 },
      { team: 'red', members: 2 },
    ]);
    const plan = await session.callTool('read_query', {
      sql: 'EXPLAIN QUERY PLAN SELECT * FROM users WHERE team_id = 1',
    });
    assert.match(textOf(plan), /users_team/);
    const none = await session.callTool('read_query', { sql: 'SELECT * FROM users WHERE 0' });
    assert.equal(none.structuredContent?.rowCount, 0);
    assert.match(textOf(none), /0 rows\.$/);
  });

  it('explains SQL errors and points at the tool that helps', async () => {
    assert.match(
      await session.toolError('read_query', { sql: 'SELECT * FROM nope' }),
      /no such table: nope \(list_tables/,
    );
    assert.match(
      await session.toolError('read_query', { sql: 'SELECT nope FROM users' }),
      /no such column: nope \(describe_table/,
    );
    assert.match(
      await session.toolError('read_query', { sql: 'SELECT FROM WHERE' }),
      /SQLite error: .*syntax error/,
    );
    assert.match(await session.toolError('read_query', { sql: 'SELEC 1' }), /this is a SELEC statement/);
  });

  it('offers the schema and one resource per table with its first rows', async () => {
    const { resources } = await session.request<{ resources: Array<{ uri: string; name: string }> }>(
      'resources/list',
    );
    assert.equal(specErrors(REVISION, 'ListResourcesResult', { resources }), undefined);
    assert.deepEqual(
      resources.map((r) => r.uri),
      [
        'sqlite://schema',
        'sqlite://table/odd%20%22name%22%20%2F%20x',
        'sqlite://table/orders',
        'sqlite://table/teams',
        'sqlite://table/users',
      ],
    );
    const schema = await session.request<{ contents: Array<{ text: string; mimeType: string }> }>(
      'resources/read',
      { uri: 'sqlite://schema' },
    );
    assert.equal(specErrors(REVISION, 'ReadResourceResult', schema), undefined);
    assert.equal(schema.contents[0]?.mimeType, 'application/sql');
    assert.match(
      schema.contents[0]!.text,
      /CREATE TABLE teams[\s\S]*CREATE VIEW team_sizes[\s\S]*CREATE INDEX users_team/,
    );

    const users = await session.request<{ contents: Array<{ text: string }> }>('resources/read', {
      uri: 'sqlite://table/users',
    });
    assert.equal(specErrors(REVISION, 'ReadResourceResult', users), undefined);
    assert.match(
      users.contents[0]!.text,
      /^table users\n[\s\S]*first rows:\nid \| name[\s\S]*\| ada [\s\S]*3 rows\.\n$/,
    );

    const odd = await session.request<{ contents: Array<{ text: string }> }>('resources/read', {
      uri: resources[1]!.uri,
    });
    assert.match(odd.contents[0]!.text, /^table odd "name" \/ x[\s\S]*\nodd\s*\n/);

    const { resourceTemplates } = await session.request<{
      resourceTemplates: Array<{ uriTemplate: string }>;
    }>('resources/templates/list');
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['sqlite://table/{name}'],
    );
    const missing = await session.requestError('resources/read', { uri: 'sqlite://table/nope' });
    assert.equal(missing.code, -32002);
  });

  it('completes table names in the resource template', async () => {
    const result = await session.request<{ completion: { values: string[] } }>('completion/complete', {
      ref: { type: 'ref/resource', uri: 'sqlite://table/{name}' },
      argument: { name: 'name', value: 'T' },
    });
    assert.deepEqual(result.completion.values, ['team_sizes', 'teams']);
  });

  it('has a prompt to explore the database, with or without a topic', async () => {
    const { prompts } = await session.request<{ prompts: Array<{ name: string; arguments: unknown[] }> }>(
      'prompts/list',
    );
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['explore_database'],
    );
    const plain = await session.request<{ messages: Array<{ role: string; content: { text: string } }> }>(
      'prompts/get',
      { name: 'explore_database' },
    );
    assert.equal(specErrors(REVISION, 'GetPromptResult', plain), undefined);
    const text = plain.messages[0]!.content.text;
    assert.match(text, /fixture\.db, which is read-only\. It has 5 tables and views:/);
    assert.match(text, /- users \(table\): id, name, email, team_id/);
    assert.match(text, /describe_table[\s\S]*read_query[\s\S]*params/);
    assert.match(text, /summarise what the database is about/);
    const topical = await session.request<{ messages: Array<{ content: { text: string } }> }>('prompts/get', {
      name: 'explore_database',
      arguments: { topic: 'which team scores best' },
    });
    assert.match(topical.messages[0]!.content.text, /answer this, .*: which team scores best$/);
  });
});

describe('a SQLite server started with --write and a row limit', () => {
  let file: string;
  let session: SqliteSession;

  before(async () => {
    file = path.join(directory, 'returning.db');
    copyFileSync(fixture, file);
    session = await SqliteSession.start({ file, write: true, maxRows: 3 });
  });

  after(() => session.close());

  it('bug: RETURNING ignored the row limit (20 000 rows came back); it keeps maxRows and says so', async () => {
    await session.callTool('create_table', { sql: 'CREATE TABLE many (n INTEGER)' });
    const result = await checked(
      session,
      'write_query',
      await session.callTool('write_query', {
        sql: 'WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 50) INSERT INTO many (n) SELECT n FROM s RETURNING n',
      }),
    );
    const structured = result.structuredContent as { changes: number; rows: unknown[]; truncated?: boolean };
    assert.equal(structured.changes, 50, 'every row was written, and counted');
    assert.deepEqual(structured.rows, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.equal(structured.truncated, true);
    assert.match(textOf(result), /RETURNING gave 50 rows; the first 3 \(the row limit\) are shown/);
    assert.deepEqual(query(file, 'SELECT count(*) AS c FROM many'), [{ c: 50 }]);
  });
});

describe('a SQLite server started with --write', () => {
  let file: string;
  let session: SqliteSession;

  before(async () => {
    file = path.join(directory, 'writable.db');
    copyFileSync(fixture, file);
    session = await SqliteSession.start({ file, write: true });
  });

  after(() => session.close());

  it('offers write_query and create_table as well', async () => {
    const { tools } = await session.request<{ tools: Array<{ name: string }> }>('tools/list');
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'create_table',
      'describe_table',
      'list_tables',
      'read_query',
      'write_query',
    ]);
  });

  it('write_query inserts, updates and deletes, and reports the rows changed', async () => {
    const insert = await checked(
      session,
      'write_query',
      await session.callTool('write_query', {
        sql: 'INSERT INTO users (name, team_id) VALUES (?, ?), (?, ?)',
        params: ['dan', 2, 'eve', 2],
      }),
    );
    assert.deepEqual(insert.structuredContent, { changes: 2, columns: [], rows: [], lastInsertRowid: 5 });
    assert.equal(textOf(insert), '2 rows changed. Last inserted rowid: 5.');
    const update = await session.callTool('write_query', {
      sql: 'UPDATE users SET score = :score WHERE team_id = :team',
      params: { score: 1.5, team: 2 },
    });
    assert.deepEqual(update.structuredContent, { changes: 3, columns: [], rows: [] });
    const deleted = await checked(
      session,
      'write_query',
      await session.callTool('write_query', {
        sql: "DELETE FROM users WHERE name = 'eve' RETURNING id, name",
      }),
    );
    assert.deepEqual(deleted.structuredContent, {
      changes: 1,
      columns: ['id', 'name'],
      rows: [{ id: 5, name: 'eve' }],
    });
    assert.deepEqual(query(file, 'SELECT name, score FROM users WHERE team_id = 2 ORDER BY id'), [
      { name: 'bob', score: 1.5 },
      { name: 'dan', score: 1.5 },
    ]);
  });

  it('write_query reports constraint failures and changes nothing then', async () => {
    const message = await session.toolError('write_query', {
      sql: 'INSERT INTO teams (name) VALUES (?)',
      params: ['red'],
    });
    assert.match(message, /SQLite error: UNIQUE constraint failed: teams\.name/);
    assert.deepEqual(query(file, 'SELECT count(*) AS n FROM teams'), [{ n: 2 }]);
  });

  it('read_query still refuses writes, and says to use write_query', async () => {
    const message = await session.toolError('read_query', { sql: 'DELETE FROM users' });
    assert.match(message, /use write_query/);
    assert.deepEqual(query(file, 'SELECT count(*) AS n FROM users'), [{ n: 4 }]);
  });

  it('create_table creates a table and describes it; IF NOT EXISTS on an existing one creates nothing', async () => {
    const created = await checked(
      session,
      'create_table',
      await session.callTool('create_table', {
        sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users(id), body TEXT NOT NULL)',
      }),
    );
    assert.deepEqual(created.structuredContent, { created: true, table: 'notes' });
    assert.match(textOf(created), /^Created table notes[\s\S]*user_id\s+INTEGER\s+-> users\(id\)/);
    const again = await session.callTool('create_table', { sql: 'CREATE TABLE IF NOT EXISTS notes (x)' });
    assert.deepEqual(again.structuredContent, { created: false, table: null });
    assert.match(
      await session.toolError('create_table', { sql: 'CREATE TABLE notes (x)' }),
      /already exists/,
    );
    // The new table is a resource now, and listed.
    const { resources } = await session.request<{ resources: Array<{ uri: string }> }>('resources/list');
    assert.ok(resources.some((r) => r.uri === 'sqlite://table/notes'));
    const listed = await session.callTool('list_tables');
    assert.match(textOf(listed), /^notes \(table\): id, user_id, body$/m);
  });
});

describe('change notifications', () => {
  it('create_table tells clients that the resource list changed, and subscribers that the schema did', async () => {
    const file = path.join(directory, 'notify.db');
    buildFixture(file);
    const session = await SqliteSession.start({ file, write: true });
    try {
      await session.request('resources/subscribe', { uri: 'sqlite://schema' });
      await session.callTool('create_table', { sql: 'CREATE TABLE tags (name TEXT PRIMARY KEY)' });
      await session.notices.next(
        (n) => n.method === 'notifications/resources/list_changed',
        5000,
        'list_changed',
      );
      const updated = await session.notices.next(
        (n) => n.method === 'notifications/resources/updated',
        5000,
        'resources/updated',
      );
      assert.deepEqual(updated.params, { uri: 'sqlite://schema' });
      // IF NOT EXISTS on a table that is there creates nothing, and announces nothing.
      const before = session.notices.items.length;
      await session.callTool('create_table', { sql: 'CREATE TABLE IF NOT EXISTS tags (name TEXT)' });
      await session.request('ping');
      assert.equal(session.notices.items.length, before);
    } finally {
      await session.close();
    }
  });
});

describe('--create', () => {
  it('makes a new, empty database, which a --write server can fill', async () => {
    const file = path.join(directory, 'new.db');
    const session = await SqliteSession.start({ file, create: true, write: true });
    try {
      assert.equal(textOf(await session.callTool('list_tables')), 'The database has no tables yet.');
      const schema = await session.request<{ contents: Array<{ text: string }> }>('resources/read', {
        uri: 'sqlite://schema',
      });
      assert.equal(schema.contents[0]!.text, '-- The database has no tables yet.\n');
      await session.callTool('create_table', { sql: 'CREATE TABLE t (a)' });
      await session.callTool('write_query', { sql: 'INSERT INTO t VALUES (1)' });
      assert.deepEqual(query(file, 'SELECT a FROM t'), [{ a: 1 }]);
    } finally {
      await session.close();
    }
  });

  it('opens an existing database as it is', async () => {
    const file = path.join(directory, 'existing.db');
    copyFileSync(fixture, file);
    const session = await SqliteSession.start({ file, create: true });
    try {
      assert.match(textOf(await session.callTool('list_tables')), /^users \(table\)/m);
    } finally {
      await session.close();
    }
  });

  it('is needed for a missing file; a file that is not a database is refused at start', async () => {
    const { createSqliteServer, SqliteOpenError } = await import('../../src/servers/sqlite/index.js');
    await assert.rejects(createSqliteServer({ file: path.join(directory, 'missing.db') }), (error: Error) => {
      assert.ok(error instanceof SqliteOpenError);
      assert.match(error.message, /^the database file .*missing\.db does not exist$/);
      assert.match(error.hint, /--create/);
      return true;
    });
    const text = path.join(directory, 'notes.txt');
    writeFileSync(text, 'not a database, just text that is long enough to have a header\n'.repeat(4));
    await assert.rejects(createSqliteServer({ file: text }), /is not a SQLite database/);
    await assert.rejects(createSqliteServer({ file: directory }), /is not a file/);
    await assert.rejects(
      createSqliteServer({ file: path.join(directory, 'no-such-dir', 'x.db'), create: true }),
      /cannot create .*does not exist or is not writable/,
    );
  });
});
