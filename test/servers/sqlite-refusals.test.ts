// What the SQLite server refuses, and proof that refused SQL changed nothing: after every attempt the
// database file (and any journal beside it) is byte for byte what it was. SQL injection through
// parameters stays data; several statements in one call, ATTACH and writing PRAGMAs are refused; a
// read-only server refuses every kind of change, and so does read_query on a server that may write.
// The guards behind the statement-kind check are tested on their own too.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { QueryPool, SqlError } from '../../src/servers/sqlite/query-pool.js';
import {
  buildFixture,
  digest,
  makeTempDir,
  query,
  removeDir,
  SqliteSession,
  textOf,
} from '../support/sqlite-harness.js';

let directory: string;
let fixture: string;

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-refusals-');
  fixture = path.join(directory, 'fixture.db');
  buildFixture(fixture);
});

after(() => removeDir(directory));

/** Statements that would change the database or reach outside it, each with what the refusal says. */
const CHANGES: Array<[string, RegExp]> = [
  ['DELETE FROM users', /DELETE statement, and this server is read-only; start it with --write/],
  ["INSERT INTO teams (name) VALUES ('green')", /an INSERT statement/],
  ['UPDATE users SET score = 0', /an UPDATE statement/],
  ["REPLACE INTO teams VALUES (1, 'x')", /a REPLACE statement/],
  ['WITH doomed AS (SELECT id FROM users) DELETE FROM users WHERE id IN doomed', /a DELETE statement/],
  ['DROP TABLE users', /a DROP statement/],
  ['CREATE TABLE t (a)', /a CREATE statement/],
  ['ALTER TABLE users ADD COLUMN x', /an ALTER statement/],
  ['CREATE INDEX i ON users (name)', /a CREATE statement/],
  ['ANALYZE', /an ANALYZE statement/],
  ['REINDEX', /a REINDEX statement/],
  ['VACUUM', /a VACUUM statement/],
  ["VACUUM INTO 'copy.db'", /a VACUUM statement/],
  ['BEGIN IMMEDIATE', /a BEGIN statement/],
  ['PRAGMA user_version = 7', /PRAGMA statements are refused/],
  ['PRAGMA journal_mode = WAL', /PRAGMA statements are refused/],
  ["ATTACH 'other.db' AS other", /ATTACH is refused/],
  ["ATTACH ':memory:' AS scratch", /ATTACH is refused/],
  ['DETACH other', /DETACH is refused/],
  ['SELECT 1; DELETE FROM users', /exactly one statement; this SQL holds 2/],
  ["SELECT 'a;b' AS x; SELECT 2", /exactly one statement/],
  ['/* a comment first */ delete from users -- and after', /a DELETE statement/],
];

describe('a read-only server', () => {
  let session: SqliteSession;
  let unchanged: string;

  before(async () => {
    unchanged = digest(fixture);
    session = await SqliteSession.start({ file: fixture });
  });

  after(() => session.close());

  for (const [sql, expected] of CHANGES) {
    it(`refuses ${sql}`, async () => {
      const message = await session.toolError('read_query', { sql });
      assert.match(message, expected);
      assert.equal(digest(fixture), unchanged, 'the database file is byte for byte unchanged');
    });
  }

  it('never created the files that VACUUM INTO and ATTACH name', () => {
    assert.equal(existsSync(path.join(directory, 'copy.db')), false);
    assert.equal(existsSync(path.join(directory, 'other.db')), false);
    assert.equal(existsSync('copy.db'), false);
    assert.equal(existsSync('other.db'), false);
  });

  it('keeps injection through parameters as data', async () => {
    const attempts = ["x' OR '1'='1", "'; DROP TABLE users; --", '1 OR 1=1', 'ada" --'];
    for (const attempt of attempts) {
      const result = await session.callTool('read_query', {
        sql: 'SELECT id FROM users WHERE name = ?',
        params: [attempt],
      });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent?.rows, [], attempt);
      const echoed = await session.callTool('read_query', { sql: 'SELECT :v AS v', params: { v: attempt } });
      assert.deepEqual(
        echoed.structuredContent?.rows,
        [{ v: attempt }],
        'the value arrives exactly as given',
      );
    }
    assert.deepEqual(query(fixture, 'SELECT count(*) AS n FROM users'), [{ n: 3 }]);
    assert.equal(digest(fixture), unchanged);
  });

  it('cannot load extensions from SQL', async () => {
    const message = await session.toolError('read_query', { sql: "SELECT load_extension('/tmp/evil.so')" });
    assert.match(message, /not authorized/);
  });

  it('offers no write tools to call', async () => {
    const error = await session.requestError('tools/call', {
      name: 'write_query',
      arguments: { sql: 'DELETE FROM users' },
    });
    assert.equal(error.code, -32602);
    assert.match(error.message, /Unknown tool: write_query/);
    assert.equal(digest(fixture), unchanged);
  });
});

describe('a server started with --write', () => {
  let file: string;
  let session: SqliteSession;

  before(async () => {
    file = path.join(directory, 'writable.db');
    copyFileSync(fixture, file);
    session = await SqliteSession.start({ file, write: true });
  });

  after(() => session.close());

  it('still refuses changes through read_query, pointing at write_query', async () => {
    const unchanged = digest(file);
    for (const sql of [
      'DELETE FROM users',
      'UPDATE users SET score = 0',
      "INSERT INTO teams VALUES (9, 'x')",
    ]) {
      assert.match(await session.toolError('read_query', { sql }), /use write_query/);
    }
    assert.equal(digest(file), unchanged);
  });

  it('refuses in write_query what is not INSERT, UPDATE or DELETE', async () => {
    const unchanged = digest(file);
    const refused: Array<[string, RegExp]> = [
      ['SELECT * FROM users', /use read_query/],
      ['DROP TABLE users', /DROP is not offered/],
      ['CREATE TABLE t (a)', /use create_table/],
      ['PRAGMA user_version = 7', /PRAGMA statements are refused/],
      ["ATTACH 'other.db' AS other", /ATTACH is refused/],
      ['DELETE FROM orders; DELETE FROM users', /exactly one statement/],
      ['VACUUM', /VACUUM is not offered/],
    ];
    for (const [sql, expected] of refused)
      assert.match(await session.toolError('write_query', { sql }), expected);
    for (const sql of ['DROP TABLE users', 'CREATE TEMP TABLE t (a)', 'CREATE VIEW v AS SELECT 1']) {
      assert.match(await session.toolError('create_table', { sql }), /create_table makes|only CREATE TABLE/);
    }
    assert.equal(digest(file), unchanged);
  });

  it('keeps injection through write_query parameters as data', async () => {
    const evil = "'); DROP TABLE users; --";
    const result = await session.callTool('write_query', {
      sql: 'INSERT INTO teams (name) VALUES (?)',
      params: [evil],
    });
    assert.equal(textOf(result), '1 row changed. Last inserted rowid: 3.');
    assert.deepEqual(query(file, 'SELECT name FROM teams WHERE id = 3'), [{ name: evil }]);
    assert.deepEqual(query(file, 'SELECT count(*) AS n FROM users'), [{ n: 3 }]);
  });
});

describe('the guards behind the statement-kind check', () => {
  // These go to the query process directly, as if the statement-kind check had let them through.
  let pool: QueryPool;
  let unchanged: string;

  before(() => {
    unchanged = digest(fixture);
    pool = new QueryPool(fixture, { maxProcesses: 2 });
  });

  after(() => pool.close());

  const run = (sql: string) =>
    pool.read(
      { sql, maxRows: 10, maxBytes: 1 << 20, shape: 'table' },
      { signal: new AbortController().signal, timeoutMs: 10_000 },
    );

  it('refuse what SQLite reports as writing (statement.readonly)', async () => {
    for (const sql of [
      'DELETE FROM users',
      'DELETE FROM users RETURNING id',
      'WITH x AS (SELECT 1) UPDATE users SET score = 0 RETURNING id',
      'PRAGMA user_version = 7',
      'CREATE TABLE t (a)',
    ]) {
      await assert.rejects(run(sql), (error: Error) => {
        assert.ok(error instanceof SqlError, sql);
        assert.match(error.message, /SQLite reports that it writes/, sql);
        return true;
      });
    }
    assert.equal(digest(fixture), unchanged);
  });

  it('refuse what returns no rows (ATTACH counts as read-only to SQLite, so this is what stops it)', async () => {
    await assert.rejects(run("ATTACH ':memory:' AS scratch"), /it returns no rows/);
  });

  it('refuse several statements (better-sqlite3 prepares exactly one)', async () => {
    await assert.rejects(run('SELECT 1; SELECT 2'), /more than one statement/);
  });
});
