// The shapes of the tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a Task as the wire carries
// it, and the record a task store keeps. The record is plain JSON, so that a store can keep it anywhere
// (memory, Redis); the task as tasks/get answers it is made from the record, never stored twice.

import type { AuthInfo } from '../../jsonrpc/transport.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** A request the task makes of the client while it runs (elicitation, sampling, roots). */
export interface TaskInputRequest {
  method: string;
  params?: unknown;
}

/** The wire shape: Task, with the status's own fields (DetailedTask) inlined. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  lastUpdatedAt: string;
  /** From creation, in ms; null for unlimited. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** input_required: what the task waits for, keyed as tasks/update must answer it. */
  inputRequests?: Record<string, TaskInputRequest>;
  /** completed: what the request would have returned. */
  result?: Record<string, unknown>;
  /** failed: the JSON-RPC error the request ended with. */
  error?: { code: number; message: string; data?: unknown };
  _meta?: Record<string, unknown>;
}

/** mcpwire's own _meta key on a task: the progress its work last reported, for a progress bar. */
export const TASK_PROGRESS_META = 'dev.mcpwire/progress';

/** What a task store keeps of one task. JSON only. */
export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  inputRequests?: Record<string, TaskInputRequest>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  progress?: { progress: number; total?: number };
  /** Which run of which server process runs the task (TaskManager.instanceId). */
  owner: string;
  /** Who created it, when the request was authenticated: only they may see or steer it. */
  caller?: string;
}

/** Who a request comes from, for binding tasks to their creator. */
export function callerOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  return JSON.stringify([auth.issuer ?? null, auth.subject ?? null, auth.clientId ?? null]);
}

/** A record as tasks/get (and the CreateTaskResult) shows it. */
export function taskOf(record: TaskRecord): Task {
  const task: Task = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task.pollIntervalMs = record.pollIntervalMs;
  if (record.status === 'input_required') task.inputRequests = record.inputRequests ?? {};
  if (record.status === 'completed') task.result = record.result ?? {};
  if (record.status === 'failed' && record.error) task.error = record.error;
  if (record.progress) task._meta = { [TASK_PROGRESS_META]: record.progress };
  return task;
}
