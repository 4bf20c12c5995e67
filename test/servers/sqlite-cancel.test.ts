// Long statements: a recursive CTE counting to 1e9 runs for minutes inside SQLite, where no thread can
// stop it. notifications/cancelled kills its query process (the process is gone, not merely abandoned)
// and no response is sent; the time limit stops it with a clear error; a write stopped half-way is rolled
// back; rows stream in batches with progress notifications; and the number of queries at once is capped.
// Nothing waits by time: every step waits for the event that makes the next one meaningful.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Progress } from '../../src/jsonrpc/connection.js';
import type { QueryProcessEvent } from '../../src/servers/sqlite/index.js';
import {
  buildFixture,
  makeTempDir,
  query,
  removeDir,
  SqliteSession,
  type ToolResult,
  textOf,
} from '../support/sqlite-harness.js';

const COUNT_TO_1E9 =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1e9) SELECT count(*) AS n FROM c';

let directory: string;
let fixture: string;

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-cancel-');
  fixture = path.join(directory, 'fixture.db');
  buildFixture(fixture);
});

after(() => removeDir(directory));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ESRCH');
    return false;
  }
}

type Started = Extract<QueryProcessEvent, { type: 'started' }>;
type Exited = Extract<QueryProcessEvent, { type: 'exit' }>;

describe('cancelling and time-limiting a long query', { timeout: 120_000 }, () => {
  let session: SqliteSession;

  before(async () => {
    session = await SqliteSession.start({ file: fixture, maxConcurrentQueries: 1 });
  });

  after(() => session.close());

  it('notifications/cancelled kills the query process, and no response is sent', async () => {
    const controller = new AbortController();
    const call = session.client.request(
      'tools/call',
      { name: 'read_query', arguments: { sql: COUNT_TO_1E9 } },
      {
        signal: controller.signal,
      },
    );
    const rejected = assert.rejects(call, { name: 'RequestCancelledError' });
    const started = (await session.events.next(
      (e) => e.type === 'started',
      30_000,
      'query start',
    )) as Started;
    const requestId = (session.clientSide.sent as Array<{ id?: number; method?: string }>).findLast(
      (m) => m.method === 'tools/call',
    )?.id;
    assert.equal(typeof requestId, 'number');
    assert.ok(isAlive(started.pid), 'the query runs in its own process');

    controller.abort();
    await rejected;
    assert.ok(
      (session.clientSide.sent as Array<{ method?: string; params?: { requestId?: unknown } }>).some(
        (m) => m.method === 'notifications/cancelled' && m.params?.requestId === requestId,
      ),
    );
    const exited = (await session.events.next(
      (e) => e.type === 'exit' && e.pid === started.pid,
      10_000,
      'the query process to end',
    )) as Exited;
    assert.equal(exited.signal, 'SIGKILL');
    assert.equal(isAlive(started.pid), false);

    // The server goes on: a new query (in a new process) answers, and by then the cancelled call has
    // long settled. Its id was never answered.
    const next = await session.callTool('read_query', { sql: 'SELECT count(*) AS n FROM users' });
    assert.deepEqual(next.structuredContent?.rows, [{ n: 3 }]);
    const answers = (session.serverSide.sent as Array<{ id?: unknown; method?: string }>).filter(
      (m) => m.id === requestId && m.method === undefined,
    );
    assert.deepEqual(answers, []);
  });

  it('the time limit stops the statement with an error that says what to do', async () => {
    const before = session.events.items.length;
    const result = await session.callTool('read_query', { sql: COUNT_TO_1E9, timeoutMs: 500 });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /^the statement ran longer than its time limit of 500 ms \(preparing it counts\) and was stopped; narrow it \(WHERE, LIMIT, an index\) or give a longer timeoutMs \(at most 30000\)$/,
    );
    const events = session.events.items.slice(before);
    const started = events.find((e) => e.type === 'started') as Started;
    assert.ok(events.some((e) => e.type === 'killed' && e.pid === started.pid && e.reason === 'time limit'));
    // The answer came only once the process was gone.
    assert.ok(events.some((e) => e.type === 'exit' && e.pid === started.pid));
    assert.equal(isAlive(started.pid), false);
  });

  it('refuses a query beyond the number that may run at once, with a clear error', async () => {
    const controller = new AbortController();
    const first = session.client
      .request<ToolResult>(
        'tools/call',
        { name: 'read_query', arguments: { sql: COUNT_TO_1E9 } },
        {
          signal: controller.signal,
        },
      )
      .catch((error: Error) => error);
    const count = session.events.items.filter((e) => e.type === 'started').length;
    await session.events.next(
      (e) => e.type === 'started' && session.events.items.filter((s) => s.type === 'started').length > count,
      30_000,
      'the first query to start',
    );
    const second = await session.callTool('read_query', { sql: 'SELECT 1' });
    assert.equal(second.isError, true);
    assert.match(
      textOf(second),
      /^1 query is running already, the most this server runs at once; wait for one to finish$/,
    );
    controller.abort();
    assert.equal(((await first) as Error).name, 'RequestCancelledError');
  });
});

describe('progress', () => {
  let session: SqliteSession;

  before(async () => {
    session = await SqliteSession.start({ file: fixture });
  });

  after(() => session.close());

  it('reports the rows read so far while rows stream in, before the answer', async () => {
    const updates: Progress[] = [];
    const result = await session.client.request<ToolResult>(
      'tools/call',
      {
        name: 'read_query',
        arguments: {
          sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000) SELECT x FROM c',
          maxRows: 2600,
        },
      },
      { onProgress: (progress) => updates.push(progress) },
    );
    assert.equal(result.structuredContent?.rowCount, 2600);
    assert.equal(result.structuredContent?.truncated, true);
    // Rows come in batches of at most 500: at least six updates, always increasing, ending at 2600.
    assert.ok(updates.length >= 6, `only ${updates.length} progress notifications`);
    for (let i = 1; i < updates.length; i++) assert.ok(updates[i]!.progress > updates[i - 1]!.progress);
    assert.equal(updates.at(-1)?.progress, 2600);
    assert.equal(updates.at(-1)?.message, '2600 rows so far');
  });

  it('sends no progress to a client that did not ask for it', async () => {
    const before = session.notices.items.length;
    await session.callTool('read_query', {
      sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) SELECT x FROM c',
      maxRows: 3000,
    });
    assert.deepEqual(
      session.notices.items.slice(before).filter((n) => n.method === 'notifications/progress'),
      [],
    );
  });
});

describe('a write stopped half-way', { timeout: 120_000 }, () => {
  it('is rolled back: the table is as before and no journal is left', async () => {
    const file = path.join(directory, 'writable.db');
    copyFileSync(fixture, file);
    let journalWhenKilled: boolean | undefined;
    const session = await SqliteSession.start({ file, write: true });
    // Whether SQLite had started writing (its rollback journal exists) when the process was killed.
    session.events
      .next(
        (e) => {
          if (e.type === 'killed') journalWhenKilled = existsSync(`${file}-journal`);
          return e.type === 'killed';
        },
        60_000,
        'the kill',
      )
      .catch(() => {});
    try {
      await session.callTool('create_table', { sql: 'CREATE TABLE numbers (x INTEGER)' });
      const result = await session.callTool('write_query', {
        sql: `INSERT INTO numbers (x) ${COUNT_TO_1E9.replace('SELECT count(*) AS n FROM c', 'SELECT x FROM c')}`,
        timeoutMs: 1500,
      });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /time limit of 1500 ms/);
      assert.equal(journalWhenKilled, true, 'the statement had begun writing when it was stopped');
      assert.equal(existsSync(`${file}-journal`), false, 'the hot journal was rolled back');
      assert.deepEqual(query(file, 'SELECT count(*) AS n FROM numbers'), [{ n: 0 }]);
      assert.deepEqual(query(file, 'PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
      const read = await session.callTool('read_query', { sql: 'SELECT count(*) AS n FROM users' });
      assert.deepEqual(read.structuredContent?.rows, [{ n: 3 }]);
    } finally {
      await session.close();
    }
  });
});
