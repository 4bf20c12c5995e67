// The server's side of the query processes: hands each statement to a process of its own, gathers the
// rows it streams back, reports progress per batch, and kills the process when the request is cancelled
// or the time limit passes (see query-process.ts for why a process and not a thread). Each process's
// memory is bounded too: it ends itself when it outgrows the limit. One idle process is kept warm for the
// next query, so only the first query, and the first after a kill, pays for start-up.

import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnswerShape } from './answer-budget.js';
import { MEMORY_LIMIT_SIGNAL, type Parameters, type QueryJob, type QueryReply } from './query-messages.js';
import type { Cell } from './values.js';

const here = fileURLToPath(import.meta.url);
// Built, this is query-process.js; under tsx (the tests), query-process.ts with the same loader.
const PROCESS_FILE = path.join(path.dirname(here), `query-process${path.extname(here)}`);
const EXEC_ARGV = path.extname(here) === '.ts' ? ['--import', import.meta.resolve('tsx')] : [];
const MAX_IDLE = 1;
const MiB = 1024 * 1024;
/** Below this, Node, better-sqlite3 and the watchdog thread leave no room to run a statement in. */
const MIN_QUERY_MEMORY = 128 * MiB;
export const DEFAULT_QUERY_MEMORY = 512 * MiB;

/** Throws unless `bytes` is a memory limit a query process can work within. */
export function checkQueryMemory(bytes: number): void {
  if (!(bytes >= MIN_QUERY_MEMORY)) {
    throw new RangeError(
      `maxQueryMemory must be at least ${MIN_QUERY_MEMORY / MiB} MiB (a query process uses 60 to 90 MiB before it runs anything); got ${bytes} bytes`,
    );
  }
}

/** What the pool does with its processes, for whoever watches (the tests). */
export type QueryProcessEvent =
  | { type: 'spawn'; pid: number }
  /** The statement is prepared and about to run. */
  | { type: 'started'; pid: number; mode: 'read' | 'write' }
  | { type: 'killed'; pid: number; reason: 'cancelled' | 'time limit' }
  | { type: 'exit'; pid: number; signal: NodeJS.Signals | null };

export interface QueryPoolOptions {
  /** Queries that may run at once; more are refused. */
  maxProcesses: number;
  /** Bytes of memory (resident) one query process may use, Node itself included (512 MiB). */
  maxMemory?: number;
  /** Called after a process running a write was killed (to roll back what it left half done). */
  afterKilledWrite?: () => void;
  observe?: (event: QueryProcessEvent) => void;
}

export interface Statement {
  sql: string;
  params?: Parameters | undefined;
  maxRows: number;
  /** The most bytes the answer may take, and how its rows appear in it (answer-budget.ts). */
  maxBytes: number;
  shape: AnswerShape;
}

export interface RunOptions {
  signal: AbortSignal;
  /** Milliseconds the statement may take, from when its process receives it: preparing it counts. */
  timeoutMs: number;
  /** Rows received so far, after each batch. */
  onRows?: (rows: number) => void;
}

export interface ReadResult {
  columns: string[];
  rows: Cell[][];
  truncated: boolean;
  /** The rows left out would have made the answer larger than maxBytes. */
  overBytes: boolean;
}

export interface WriteResult {
  columns: string[];
  changes: number;
  lastInsertRowid: Cell;
  rows: Cell[][];
  /** RETURNING gave more rows than maxRows, or than fit in maxBytes (overBytes). */
  truncated: boolean;
  overBytes: boolean;
}

/** The statement ran past its time limit and was stopped. */
export class QueryTimeoutError extends Error {
  override readonly name = 'QueryTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(
      `the statement ran longer than its time limit of ${timeoutMs} ms (preparing it counts) and was stopped`,
    );
  }
}

/** The statement's process outgrew its memory limit and ended itself. */
export class QueryMemoryError extends Error {
  override readonly name = 'QueryMemoryError';
  constructor(readonly maxMemory: number) {
    super(
      `the statement needed more memory than the query process may use (${Math.round(maxMemory / MiB)} MiB) and was stopped`,
    );
  }
}

/** SQLite refused or failed the statement; `code` is SQLite's (SQLITE_ERROR, SQLITE_CONSTRAINT...). */
export class SqlError extends Error {
  override readonly name = 'SqlError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

const pools = new Set<QueryPool>();
let exitHookInstalled = false;

export class QueryPool {
  private readonly maxMemory: number;
  private readonly idle: ChildProcess[] = [];
  private readonly busy = new Set<ChildProcess>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly options: QueryPoolOptions,
  ) {
    this.maxMemory = options.maxMemory ?? DEFAULT_QUERY_MEMORY;
    checkQueryMemory(this.maxMemory);
    pools.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      // A process busy inside SQLite would not notice the server leaving: end them all with it.
      process.once('exit', () => {
        for (const pool of pools) pool.close();
      });
    }
  }

  read(statement: Statement, options: RunOptions): Promise<ReadResult> {
    return this.run({ mode: 'read', ...statement }, options) as Promise<ReadResult>;
  }

  write(statement: Statement, options: RunOptions): Promise<WriteResult> {
    return this.run({ mode: 'write', ...statement }, options) as Promise<WriteResult>;
  }

  /** Kills every process; the pool cannot be used afterwards. */
  close(): void {
    this.closed = true;
    pools.delete(this);
    for (const child of [...this.idle, ...this.busy]) child.kill('SIGKILL');
    this.idle.length = 0;
    this.busy.clear();
  }

  private acquire(): ChildProcess {
    if (this.closed) throw new Error('the database has been closed');
    const ready = this.idle.pop();
    const child = ready ?? this.spawn();
    this.busy.add(child);
    child.ref();
    child.channel?.ref();
    return child;
  }

  private release(child: ChildProcess): void {
    this.busy.delete(child);
    if (this.closed || child.exitCode !== null || child.signalCode !== null) return;
    if (this.idle.length >= MAX_IDLE) {
      child.disconnect();
      return;
    }
    // An idle process must not keep the server running once its client has gone.
    child.unref();
    child.channel?.unref();
    this.idle.push(child);
  }

  private spawn(): ChildProcess {
    const { maxMemory } = this;
    const child = fork(PROCESS_FILE, [this.file, String(maxMemory)], {
      // stdout is the server's MCP channel: the query process must never write there.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // V8 collects garbage harder near its heap limit: with the process's limit as its own, garbage is
      // not left to grow past what the watchdog allows.
      execArgv: [...EXEC_ARGV, `--max-old-space-size=${Math.floor(maxMemory / MiB)}`],
      serialization: 'advanced',
    });
    const pid = child.pid ?? -1;
    this.options.observe?.({ type: 'spawn', pid });
    child.on('exit', (_code, signal) => {
      const at = this.idle.indexOf(child);
      if (at !== -1) this.idle.splice(at, 1);
      this.busy.delete(child);
      this.options.observe?.({ type: 'exit', pid, signal });
    });
    // A failed spawn is reported to the job through 'exit'; this keeps it from being an uncaught error.
    child.on('error', () => {});
    return child;
  }

  private run(job: Omit<QueryJob, 'id'>, options: RunOptions): Promise<ReadResult | WriteResult> {
    const { signal } = options;
    if (signal.aborted) return Promise.reject(signal.reason);
    const running = this.busy.size;
    if (running >= this.options.maxProcesses) {
      return Promise.reject(
        new Error(
          `${running} ${running === 1 ? 'query is' : 'queries are'} running already, the most this server runs at once; wait for one to finish`,
        ),
      );
    }
    const child = this.acquire();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let columns: string[] = [];
      const rows: Cell[][] = [];
      let timer: NodeJS.Timeout | undefined;
      const cleanUp = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const stop = (reason: unknown, why: 'cancelled' | 'time limit') => {
        cleanUp();
        this.options.observe?.({ type: 'killed', pid: child.pid ?? -1, reason: why });
        // Answer only once the process is really gone: nothing of the statement runs on after that.
        child.once('exit', () => {
          if (job.mode === 'write') this.options.afterKilledWrite?.();
          reject(reason);
        });
        child.kill('SIGKILL');
      };
      const onAbort = () => stop(signal.reason, 'cancelled');
      const onExit = (code: number | null, exitSignal: NodeJS.Signals | null) => {
        cleanUp();
        if (exitSignal === MEMORY_LIMIT_SIGNAL) {
          if (job.mode === 'write') this.options.afterKilledWrite?.();
          reject(new QueryMemoryError(this.maxMemory));
          return;
        }
        reject(new Error(`the query process ended unexpectedly (${exitSignal ?? `exit code ${code}`})`));
      };
      const startClock = () => {
        timer = setTimeout(
          () => stop(new QueryTimeoutError(options.timeoutMs), 'time limit'),
          options.timeoutMs,
        );
      };
      const onMessage = (reply: QueryReply) => {
        if (reply.id !== id) return;
        switch (reply.type) {
          case 'accepted':
            // Not from the fork: a new process's start-up is not the statement's time. From here on,
            // preparing the statement counts (a kilobyte of SQL can take minutes to prepare).
            startClock();
            return;
          case 'started':
            columns = reply.columns;
            this.options.observe?.({ type: 'started', pid: child.pid ?? -1, mode: job.mode });
            return;
          case 'rows':
            for (const row of reply.rows) rows.push(row);
            options.onRows?.(rows.length);
            return;
          case 'done':
            cleanUp();
            this.release(child);
            resolve({ columns, rows, truncated: reply.truncated, overBytes: reply.overBytes });
            return;
          case 'written':
            cleanUp();
            this.release(child);
            resolve({
              columns,
              changes: reply.changes,
              lastInsertRowid: reply.lastInsertRowid,
              rows: reply.rows,
              truncated: reply.truncated === true,
              overBytes: reply.overBytes === true,
            });
            return;
          case 'failed':
            cleanUp();
            this.release(child);
            reject(new SqlError(reply.message, reply.code));
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ ...job, id } satisfies QueryJob);
    });
  }
}
