// serve sqlite bounds every answer in bytes while it gathers the rows: three rows of 100 MB strings used
// to make a 286 MiB line (the message size was checked on input only). Rows are counted as the query
// process reads them, JSON escaping included (a '"' takes two bytes in structuredContent, four in the
// JSON of RETURNING rows inside the text), and the rows that would not fit are never kept: the answer
// says so and how to narrow the query. Each answer's exact bytes on the wire are measured here.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, SqliteSession, textOf } from '../support/sqlite-harness.js';

const LIMIT = 1 << 20;
/** Five rows, each a string of 150,000 '"': 300,000 bytes once escaped in JSON. */
const QUOTES = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5)
  SELECT i, replace(hex(zeroblob(150000)), '00', '"') AS v FROM n`;

let directory: string;
let session: SqliteSession;

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-size-');
  session = await SqliteSession.start({
    file: path.join(directory, 'size.db'),
    create: true,
    write: true,
    maxMessageSize: LIMIT,
  });
  await session.callTool('create_table', { sql: 'CREATE TABLE t (v TEXT)' });
});

after(async () => {
  await session.close();
  await removeDir(directory);
});

/** The bytes of the last message the server sent, as the transport serialises it. */
function lastAnswerBytes(): number {
  return Buffer.byteLength(JSON.stringify(session.serverSide.sent.at(-1)));
}

describe('serve sqlite: answers bounded in bytes', { timeout: 60_000 }, () => {
  it('bug: read_query gathered rows with no byte bound; it stops at the rows that fit, and says how to narrow', async () => {
    const result = await session.callTool('read_query', { sql: QUOTES });
    assert.notEqual(result.isError, true, textOf(result));
    const structured = result.structuredContent as { rows: unknown[]; truncated: boolean };
    // Three rows of 300,000 escaped bytes fit in 1 MiB; a fourth would not.
    assert.equal(structured.rows.length, 3);
    assert.equal(structured.truncated, true);
    assert.match(textOf(result), /the next would make the answer larger than the maximum message size/);
    assert.match(textOf(result), /substr\(column, 1, 1000\).*--max-message-size \(now 1048576 bytes\)/);
    assert.ok(lastAnswerBytes() <= LIMIT, `${lastAnswerBytes()} bytes`);
  });

  it('a first row larger than the message is an error that says how to narrow the query', async () => {
    const message = await session.toolError('read_query', {
      sql: `SELECT replace(hex(zeroblob(600000)), '00', 'é"') AS v`,
    });
    assert.match(message, /the first row alone would make the answer larger than the maximum message size/);
    assert.match(message, /select fewer or shorter columns/);
    // The server goes on answering.
    const next = await session.callTool('read_query', { sql: 'SELECT 1 AS one' });
    assert.deepEqual(next.structuredContent?.rows, [{ one: 1 }]);
  });

  it('RETURNING rows are bounded too (they appear twice: as objects and as JSON in the text)', async () => {
    const result = await session.callTool('write_query', {
      sql: `INSERT INTO t (v) ${QUOTES.replace('SELECT i, ', 'SELECT ')} RETURNING v`,
    });
    assert.notEqual(result.isError, true, textOf(result));
    const structured = result.structuredContent as { changes: number; rows: unknown[]; truncated: boolean };
    assert.equal(structured.changes, 5, 'every row was written');
    // 300,000 bytes as an object, 600,000 more as JSON inside the text: one row fits in 1 MiB.
    assert.equal(structured.rows.length, 1);
    assert.equal(structured.truncated, true);
    assert.match(textOf(result), /the next would have made the answer larger than the maximum message size/);
    assert.ok(lastAnswerBytes() <= LIMIT, `${lastAnswerBytes()} bytes`);
  });

  it('a table resource counts only its text table (long values are clipped there): all five rows show', async () => {
    const { contents } = await session.request<{ contents: Array<{ text: string }> }>('resources/read', {
      uri: 'sqlite://table/t',
    });
    assert.match(contents[0]!.text, /\n5 rows\.\n$/);
    assert.ok(lastAnswerBytes() <= LIMIT, `${lastAnswerBytes()} bytes`);
  });
});
