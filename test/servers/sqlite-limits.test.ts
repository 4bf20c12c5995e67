// A hostile statement can be costly before it runs a single row: nested non-materialized CTEs make
// SQLite's prepare() work (and, in some shapes, allocate) exponentially in the number of levels, from
// about a kilobyte of SQL. The time limit covers preparing the statement, and the query process's memory
// is bounded; either way the statement is stopped with a clear error, its process is killed, and the
// server goes on answering.
// Nothing waits by time: each call is awaited, and the test timeouts only keep a regression from hanging.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { QueryProcessEvent } from '../../src/servers/sqlite/index.js';
import { buildFixture, makeTempDir, removeDir, SqliteSession, textOf } from '../support/sqlite-harness.js';

let directory: string;
let fixture: string;

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-limits-');
  fixture = path.join(directory, 'fixture.db');
  buildFixture(fixture);
});

after(() => removeDir(directory));

/** WITH a0 AS (SELECT 1), a1 AS (... a0, a0), a2 AS (... a1, a1) ...: each level doubles what SQLite expands. */
function nestedCtes(levels: number, body: (previous: string) => string): string {
  const parts = ['a0(c) AS NOT MATERIALIZED (SELECT 1)'];
  for (let i = 1; i < levels; i++) parts.push(`a${i}(c) AS NOT MATERIALIZED (${body(`a${i - 1}`)})`);
  return `WITH ${parts.join(', ')} SELECT count(*) AS n FROM a${levels - 1}`;
}

// Measured on SQLite 3.53: prepare() takes about 25 s at 18 levels (2.4 times longer a level) and ends in
// "too many FROM clause terms", while the process stays near 300 MiB, within the default memory limit.
const SLOW_TO_PREPARE = nestedCtes(18, (p) => `SELECT x.c FROM ${p} x, ${p} y`);
// prepare() doubles its memory a level: 1.3 GiB at 20 levels, about 5 GiB at 22.
const HUNGRY_TO_PREPARE = nestedCtes(22, (p) => `SELECT c FROM ${p} UNION ALL SELECT c FROM ${p}`);

type Exited = Extract<QueryProcessEvent, { type: 'exit' }>;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process that ran the last query: it is gone, and the server still answers. */
async function assertStoppedAndServing(session: SqliteSession, since: number): Promise<void> {
  const spawned = session.events.items.slice(since).filter((e) => e.type === 'spawn');
  const pid = (spawned.at(-1) ?? session.events.items.filter((e) => e.type === 'spawn').at(-1))!.pid;
  await session.events.next((e) => e.type === 'exit' && e.pid === pid, 10_000, 'the process to end');
  assert.equal(isAlive(pid), false);
  const next = await session.callTool('read_query', { sql: 'SELECT count(*) AS n FROM users' });
  assert.deepEqual(next.structuredContent?.rows, [{ n: 3 }]);
}

describe('the time limit covers preparing a statement', { timeout: 120_000 }, () => {
  let session: SqliteSession;

  before(async () => {
    session = await SqliteSession.start({ file: fixture, maxConcurrentQueries: 1 });
  });

  after(() => session.close());

  it('bug: a statement slow to prepare ran past its time limit; it is stopped at the limit', async () => {
    assert.ok(SLOW_TO_PREPARE.length < 1500, `${SLOW_TO_PREPARE.length} bytes of SQL`);
    const since = session.events.items.length;
    const result = await session.callTool('read_query', { sql: SLOW_TO_PREPARE, timeoutMs: 1000 });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /^the statement ran longer than its time limit of 1000 ms \(preparing it counts\) and was stopped; narrow it/,
    );
    const events = session.events.items.slice(since);
    assert.ok(
      events.some((e) => e.type === 'killed' && e.reason === 'time limit'),
      JSON.stringify(events),
    );
    assert.equal(
      events.some((e) => e.type === 'started'),
      false,
      'it never got past prepare()',
    );
    await assertStoppedAndServing(session, since);
  });

  it('a write slow to prepare is stopped too', async () => {
    const writable = await SqliteSession.start({ file: fixture, write: true });
    try {
      const sql = `INSERT INTO teams (name) ${SLOW_TO_PREPARE.replace('SELECT count(*) AS n FROM', 'SELECT c FROM')}`;
      const result = await writable.callTool('write_query', { sql, timeoutMs: 1000 });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /time limit of 1000 ms \(preparing it counts\)/);
    } finally {
      await writable.close();
    }
  });
});

describe('the memory of a query process is bounded', { timeout: 120_000 }, () => {
  let session: SqliteSession;

  before(async () => {
    session = await SqliteSession.start({
      file: fixture,
      maxQueryMemory: 256 * 1024 * 1024,
      queryTimeoutMs: 600_000,
    });
  });

  after(() => session.close());

  it('bug: a statement that grows without bound is stopped at the memory limit, with what to do', async () => {
    const since = session.events.items.length;
    const result = await session.callTool('read_query', { sql: HUNGRY_TO_PREPARE });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /^the statement needed more memory than the query process may use \(256 MiB\) and was stopped; simplify it, or start the server with a larger --max-query-memory \(maxQueryMemory\)$/,
    );
    const exits = session.events.items.slice(since).filter((e): e is Exited => e.type === 'exit');
    assert.equal(exits.length, 1);
    await assertStoppedAndServing(session, since);
  });

  it('a value that needs more memory than allowed is stopped the same way', async () => {
    // One 400 MB value, built by SQLite inside the query process.
    const result = await session.callTool('read_query', {
      sql: "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 400) SELECT length(group_concat(zeroblob(1000000) || 'x', '')) AS n FROM s",
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /more memory than the query process may use \(256 MiB\)/);
  });
});

describe('options', () => {
  it('refuses a memory limit too small for the query process to start in', async () => {
    await assert.rejects(
      SqliteSession.start({ file: fixture, maxQueryMemory: 1024 * 1024 }),
      /maxQueryMemory must be at least 128 MiB/,
    );
  });
});
