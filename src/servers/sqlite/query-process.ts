// The query process: runs the SQL of read_query and write_query, one statement at a time, and streams
// rows back to the server. It is a separate process, not a worker thread, because better-sqlite3 runs a
// statement synchronously inside SQLite's C code: neither the thread itself nor worker.terminate() can
// stop it there (V8 only stops JavaScript, and a query such as a recursive CTE counting to 1e9 returns to
// JavaScript only at its end). Killing a process stops it at once, wherever it is.
//
// Started by query-pool.ts as `query-process.js DB_FILE MAX_MEMORY_BYTES`; reads jobs from its IPC channel.

import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { AnswerBudget } from './answer-budget.js';
import { loadSqlite } from './database.js';
import { MEMORY_LIMIT_SIGNAL, type QueryJob, type QueryReply } from './query-messages.js';
import { type Cell, toCell, toParameter, uniqueKeys } from './values.js';

const file = process.argv[2]!;
const maxMemory = Number(process.argv[3]);
/** Rows per message; progress is reported once per batch. */
const BATCH_ROWS = 500;
/** A batch is sent sooner when rows come slowly, so that progress keeps coming. */
const BATCH_MS = 100;

type Database = BetterSqlite3.Database;
let Sqlite: typeof BetterSqlite3 | undefined;
const connections: { read?: Database; write?: Database } = {};

function connection(mode: 'read' | 'write'): Database {
  // Through the server's own loader (which has already loaded it once), so a failure reads the same.
  Sqlite ??= loadSqlite();
  connections[mode] ??= new Sqlite(file, { readonly: mode === 'read', fileMustExist: true });
  return connections[mode];
}

function send(reply: QueryReply): void {
  process.send?.(reply);
}

function bind(job: QueryJob): unknown[] {
  if (job.params === undefined) return [];
  if (Array.isArray(job.params)) return job.params.map(toParameter);
  return [Object.fromEntries(Object.entries(job.params).map(([k, v]) => [k, toParameter(v)]))];
}

async function run(job: QueryJob): Promise<void> {
  // Before prepare(), which alone can run for minutes: the server's time limit starts here.
  send({ type: 'accepted', id: job.id });
  const db = connection(job.mode);
  const statement = db.prepare(job.sql);
  if (job.mode === 'read') {
    // The statement-kind check has run in the server already; SQLite's own verdict is the last word.
    if (!statement.readonly)
      throw new Error('read_query refused the statement: SQLite reports that it writes');
    if (!statement.reader) throw new Error('read_query refused the statement: it returns no rows');
  }
  const args = bind(job);
  if (!statement.reader) {
    send({ type: 'started', id: job.id, columns: [] });
    const result = statement.safeIntegers(true).run(...args);
    send({
      type: 'written',
      id: job.id,
      changes: result.changes,
      lastInsertRowid: toCell(result.lastInsertRowid),
      rows: [],
    });
    return;
  }
  statement.raw(true).safeIntegers(true);
  const columns = statement.columns().map((c) => c.name);
  send({ type: 'started', id: job.id, columns });
  // Each row is counted as it is gathered: rows that would not fit in one message are never kept.
  const budget = new AnswerBudget(job.shape, uniqueKeys(columns), job.maxBytes);
  if (job.mode === 'write') {
    // INSERT ... RETURNING: the returned rows are the changed ones. Every row is stepped through, so the
    // statement completes and the count is true, but only maxRows are kept (all of them were returned,
    // 20 000 when asked for 100).
    const rows: Cell[][] = [];
    let changes = 0;
    let overBytes = false;
    for (const row of statement.iterate(...args) as IterableIterator<unknown[]>) {
      if (changes++ >= job.maxRows || overBytes) continue;
      const cells = row.map(toCell);
      if (budget.take(cells)) rows.push(cells);
      else overBytes = true;
    }
    send({
      type: 'written',
      id: job.id,
      changes,
      lastInsertRowid: null,
      rows,
      truncated: changes > rows.length,
      overBytes,
    });
    return;
  }
  const iterator = statement.iterate(...args) as IterableIterator<unknown[]>;
  let batch: Cell[][] = [];
  let lastSent = Date.now();
  let count = 0;
  let truncated = false;
  let overBytes = false;
  try {
    for (;;) {
      const next = iterator.next();
      if (next.done) break;
      if (count === job.maxRows) {
        truncated = true;
        break;
      }
      const cells = next.value.map(toCell);
      if (!budget.take(cells)) {
        truncated = true;
        overBytes = true;
        break;
      }
      batch.push(cells);
      count++;
      if (batch.length >= BATCH_ROWS || (count % 16 === 0 && Date.now() - lastSent >= BATCH_MS)) {
        send({ type: 'rows', id: job.id, rows: batch });
        batch = [];
        lastSent = Date.now();
      }
    }
  } finally {
    // Ends the statement (and its read transaction) when we stop before its last row.
    iterator.return?.();
  }
  if (batch.length > 0) send({ type: 'rows', id: job.id, rows: batch });
  send({ type: 'done', id: job.id, truncated, overBytes });
}

process.on('message', (job: QueryJob) => {
  run(job).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    send({
      type: 'failed',
      id: job.id,
      message: error instanceof Error ? error.message : String(error),
      code: typeof code === 'string' ? code : undefined,
    });
  });
});

// The server went away: an idle process ends here. A process busy inside SQLite cannot see this, so a
// watchdog thread, which keeps running while the main thread is blocked, ends it if its parent is gone.
// The same thread bounds the process's memory. SQLite's own heap limit (PRAGMA hard_heap_limit) cannot:
// better-sqlite3 builds SQLite without memory statistics (SQLITE_DEFAULT_MEMSTATUS=0), and SQLite then
// accepts the pragma but never enforces it. So the thread watches the resident size of the whole process
// (SQLite's allocations, V8's heap, rows on their way out) every few milliseconds and ends the process with
// the signal that tells the server why.
process.on('disconnect', () => process.exit(0));
const watchdog = new Worker(
  `const { parent, maxMemory, signal } = require('node:worker_threads').workerData;
   setInterval(() => {
     if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
     else if (process.memoryUsage.rss() > maxMemory) process.kill(process.pid, signal);
   }, 20);`,
  {
    eval: true,
    execArgv: [],
    workerData: { parent: process.ppid, maxMemory, signal: MEMORY_LIMIT_SIGNAL },
  },
);
watchdog.unref();
