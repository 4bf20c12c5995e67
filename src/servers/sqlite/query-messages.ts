// The messages between the server and its query processes (over the IPC channel of child_process.fork).

import type { AnswerShape } from './answer-budget.js';
import type { Cell } from './values.js';

export type Parameters = unknown[] | Record<string, unknown>;

/**
 * The signal a query process ends itself with when it outgrows its memory limit. Nothing else sends it
 * (Node's default action for it ends the process), so the server can tell this end from any other.
 */
export const MEMORY_LIMIT_SIGNAL = 'SIGUSR2';

/** Server → query process: run one statement. */
export interface QueryJob {
  id: number;
  /** 'read' runs on a read-only connection and returns rows; 'write' on a writable one. */
  mode: 'read' | 'write';
  sql: string;
  params?: Parameters | undefined;
  /** Rows to return at most (reads); one more is looked at to tell whether there were more. */
  maxRows: number;
  /** Bytes the answer may take (the maximum message size), and how its rows appear in it. */
  maxBytes: number;
  shape: AnswerShape;
}

/**
 * Query process → server. 'accepted' first, as soon as the job arrives (before it is prepared, which can
 * take long), then 'started' once it is prepared, rows in batches, and exactly one 'done', 'written' or
 * 'failed'.
 */
export type QueryReply =
  | { type: 'accepted'; id: number }
  | { type: 'started'; id: number; columns: string[] }
  | { type: 'rows'; id: number; rows: Cell[][] }
  | { type: 'done'; id: number; truncated: boolean; overBytes: boolean }
  | {
      type: 'written';
      id: number;
      changes: number;
      lastInsertRowid: Cell;
      rows: Cell[][];
      /** RETURNING gave more rows than maxRows, or than fit in maxBytes: the rest are left out. */
      truncated?: boolean;
      overBytes?: boolean;
    }
  | { type: 'failed'; id: number; message: string; code?: string | undefined };
