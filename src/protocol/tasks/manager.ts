// The server's side of the tasks extension (SEP-2663): it turns a request into a task, runs the work in
// the background with a context of its own, and answers tasks/get, tasks/update and tasks/cancel from the
// task store. The store holds what survives a request (the record); the manager holds what cannot be
// stored (the running work, its abort controller, the asks waiting for an answer).

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import type { JsonRpcId } from '../../jsonrpc/messages.js';
import { materializeStreamed, streamedPending } from '../../jsonrpc/streamed.js';
import type { AuthInfo } from '../../jsonrpc/transport.js';
import { nodeCrypto } from '../../transport/platform/builtins.js';
import type { RequestContext } from '../context.js';
import { invalidParams, missingCapabilityError } from '../errors.js';
import type { Extensions } from '../extensions.js';
import { buildContext } from '../request-context.js';
import type { ClientCapabilities, Implementation } from '../types.js';
import { MemoryTaskStore, type TaskStore } from './store.js';
import { callerOf, type Task, type TaskRecord, TERMINAL_STATUSES, taskOf } from './task.js';

export interface TaskManagerOptions {
  /** Where tasks are kept (in this process's memory by default: lost when it ends). */
  store?: TaskStore;
  /** How long a task is kept after it is created, in ms (one hour); null keeps it as long as the store does. */
  ttlMs?: number | null;
  /** How often clients should poll, in ms (1000). */
  pollIntervalMs?: number;
}

/** What a task keeps of the request that started it. */
export interface TaskOrigin {
  requestId: JsonRpcId;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  auth: AuthInfo | undefined;
  extensions: Extensions;
}

type Work = (context: RequestContext) => Promise<Record<string, unknown>>;

/** A task running in this process. */
interface LiveTask {
  record: TaskRecord;
  readonly controller: AbortController;
  /** Asks waiting for tasks/update, by input request key. */
  readonly waiting: Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>;
  /** Store writes, one after the other, so that the last state is the one stored. */
  writes: Promise<void>;
  asked: number;
}

const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_POLL_MS = 1000;
const TOMBSTONES = 1000;

export class TaskManager {
  /** This run of this manager: task ids start with it, so a task of an earlier run is told apart. */
  private ownId: string | undefined;
  /** Made with the first task (node:crypto is loaded then, not when a server that offers tasks starts). */
  get instanceId(): string {
    this.ownId ??= nodeCrypto().randomBytes(6).toString('hex');
    return this.ownId;
  }
  readonly store: TaskStore;
  private readonly ttlMs: number | null;
  private readonly pollIntervalMs: number;
  private readonly live = new Map<string, LiveTask>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Tasks that expired here, with their ttl, to say so when they are asked for (oldest dropped first). */
  private readonly expired = new Map<string, number>();

  constructor(options: TaskManagerOptions = {}) {
    this.store = options.store ?? new MemoryTaskStore();
    this.ttlMs = options.ttlMs === undefined ? DEFAULT_TTL_MS : options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
  }

  /** Stores a new task, starts `work` and resolves with the CreateTaskResult. */
  async start(work: Work, origin: TaskOrigin): Promise<Record<string, unknown>> {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: `${this.instanceId}.${nodeCrypto().randomUUID()}`,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      owner: this.instanceId,
    };
    const caller = callerOf(origin.auth);
    if (caller !== undefined) record.caller = caller;
    // Durably created before the answer goes out: a tasks/get right after must find it.
    await this.store.create(record);
    const live: LiveTask = {
      record,
      controller: new AbortController(),
      waiting: new Map(),
      writes: Promise.resolve(),
      asked: 0,
    };
    this.live.set(record.taskId, live);
    if (this.ttlMs !== null) {
      const timer = setTimeout(() => void this.expire(record.taskId, record.ttlMs ?? 0), this.ttlMs);
      timer.unref?.();
      this.timers.set(record.taskId, timer);
    }
    const created = { resultType: 'task', ...taskOf(record) };
    void this.run(live, work, origin);
    return created;
  }

  /** tasks/get: the task as it is now. */
  async get(taskId: unknown, auth: AuthInfo | undefined): Promise<Task> {
    const record = await this.find(taskId, auth);
    return taskOf(record);
  }

  /** tasks/update: answers to the task's input requests; unknown or answered keys are ignored. */
  async update(taskId: unknown, inputResponses: unknown, auth: AuthInfo | undefined): Promise<void> {
    if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) {
      throw invalidParams(
        'Invalid params: "inputResponses" must be an object keyed like the task\'s inputRequests',
      );
    }
    const record = await this.find(taskId, auth);
    const live = this.live.get(record.taskId);
    if (!live || TERMINAL_STATUSES.has(live.record.status)) return;
    let answered = false;
    for (const [key, response] of Object.entries(inputResponses)) {
      const waiting = live.waiting.get(key);
      if (!waiting) continue;
      live.waiting.delete(key);
      if (live.record.inputRequests) delete live.record.inputRequests[key];
      waiting.resolve(response);
      answered = true;
    }
    if (!answered) return;
    this.change(live, (r) => {
      if (r.inputRequests && Object.keys(r.inputRequests).length === 0) delete r.inputRequests;
      if (!r.inputRequests) r.status = 'working';
    });
  }

  /** tasks/cancel: the task ends as cancelled and its work is aborted (a task already ended stays as it is). */
  async cancel(taskId: unknown, auth: AuthInfo | undefined): Promise<void> {
    const record = await this.find(taskId, auth);
    if (TERMINAL_STATUSES.has(record.status)) return;
    const live = this.live.get(record.taskId);
    if (!live) {
      // Run by another process: record the cancellation where that process will read it.
      await this.store.put({ ...record, status: 'cancelled', lastUpdatedAt: new Date().toISOString() });
      return;
    }
    this.finish(live, { status: 'cancelled', statusMessage: "Cancelled at the client's request" });
    live.controller.abort(new McpwireError('TASK_CANCELLED', 'the task was cancelled'));
    await live.writes;
  }

  /** Ends every running task (the server is shutting down). */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const live of this.live.values()) live.controller.abort(new Error('the server closed'));
    this.live.clear();
  }

  private async run(live: LiveTask, work: Work, origin: TaskOrigin): Promise<void> {
    const context = buildContext({
      requestId: origin.requestId,
      protocolVersion: origin.protocolVersion,
      clientCapabilities: origin.clientCapabilities,
      clientInfo: origin.clientInfo,
      sessionState: new Map(),
      signal: live.controller.signal,
      auth: origin.auth,
      extensions: origin.extensions,
      sendProgress: ({ progress, total, message }) =>
        this.change(live, (r) => {
          r.progress = total === undefined ? { progress } : { progress, total };
          if (message !== undefined) r.statusMessage = message;
        }),
      // Log messages have no place in a task (the extension leaves them out).
      log: () => {},
      ask: <T>(method: string, params: unknown) => this.ask<T>(live, method, params),
      missingCapability: (capability, method) =>
        missingCapabilityError(capability, method, 'the request that started this task'),
    });
    try {
      const result = await work(context);
      // A task's result is stored and fetched later: a streamed value (a file) is read into it first.
      if (streamedPending()) await materializeStreamed(result);
      this.finish(live, { status: 'completed', result });
    } catch (error) {
      this.finish(live, { status: 'failed', error: errorObject(error) });
    }
  }

  private ask<T>(live: LiveTask, method: string, params: unknown): Promise<T> {
    const { signal } = live.controller;
    if (signal.aborted) return Promise.reject(signal.reason);
    // Keys are never reused over a task's life: answers always match the request the client saw.
    const key = `${method}#${++live.asked}`;
    this.change(live, (r) => {
      r.inputRequests = { ...r.inputRequests, [key]: { method, params } };
      r.status = 'input_required';
    });
    return new Promise<T>((resolve, reject) => {
      live.waiting.set(key, { resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Changes a running task's record and stores it; nothing changes a task that has ended. */
  private change(live: LiveTask, mutate: (record: TaskRecord) => void): void {
    if (TERMINAL_STATUSES.has(live.record.status)) return;
    // A copy is changed and cloned for the store before it becomes the record: a result the store cannot
    // keep (a function, a handle) throws here with the record as it was, so the task fails with that
    // reason, instead of ending in memory while the store shows it working for good.
    const next = { ...live.record };
    mutate(next);
    next.lastUpdatedAt = new Date().toISOString();
    const snapshot = structuredClone(next);
    live.record = next;
    live.writes = live.writes.then(() => this.store.put(snapshot)).catch(() => {});
  }

  private finish(live: LiveTask, end: Partial<TaskRecord>): void {
    this.change(live, (r) => {
      Object.assign(r, end);
      delete r.inputRequests;
    });
    const ended = new McpwireError('TASK_ENDED', `the task ended (${live.record.status})`);
    for (const waiting of live.waiting.values()) waiting.reject(ended);
    live.waiting.clear();
    this.live.delete(live.record.taskId);
  }

  private async expire(taskId: string, ttlMs: number): Promise<void> {
    this.timers.delete(taskId);
    const live = this.live.get(taskId);
    if (live) {
      this.live.delete(taskId);
      live.controller.abort(new McpwireError('TASK_EXPIRED', 'the task expired'));
      await live.writes;
    }
    this.expired.set(taskId, ttlMs);
    if (this.expired.size > TOMBSTONES) this.expired.delete(this.expired.keys().next().value!);
    await this.store.delete(taskId);
  }

  /** The task's record, with the writes in flight done; an unknown task is -32602, saying why. */
  private async find(taskId: unknown, auth: AuthInfo | undefined): Promise<TaskRecord> {
    if (typeof taskId !== 'string' || taskId === '') {
      throw invalidParams('Invalid params: "taskId" must be the taskId of a task this server created');
    }
    const live = this.live.get(taskId);
    if (live) await live.writes;
    const record = await this.store.get(taskId);
    // A task another caller created is as unknown as one that never was: its existence is not told.
    if (!record || (record.caller !== undefined && record.caller !== callerOf(auth))) {
      throw this.unknown(taskId);
    }
    return record;
  }

  private unknown(taskId: string): JsonRpcError {
    const ttl = this.expired.get(taskId);
    if (ttl !== undefined) {
      return invalidParams(
        `Task not found: task "${taskId}" expired (this server keeps a task for ${ttl} ms after it is created)`,
        { taskId, reason: 'expired' },
      );
    }
    const prefix = /^([0-9a-f]{12})\./.exec(taskId)?.[1];
    if (prefix !== undefined && prefix !== this.instanceId) {
      const why =
        this.store instanceof MemoryTaskStore
          ? 'it was started by an earlier run of this server, and tasks are kept in memory, so it was lost when that run ended. Call the tool again (a persistent task store keeps tasks across restarts)'
          : 'it was started by another server process and is not in the task store';
      return invalidParams(`Task not found: task "${taskId}" is lost: ${why}`, { taskId, reason: 'lost' });
    }
    return invalidParams(`Task not found: no task "${taskId}" on this server`, {
      taskId,
      reason: 'unknown',
    });
  }
}

/** A failure as the JSON-RPC error a failed task carries. */
function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof JsonRpcError) {
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  }
  return {
    code: ErrorCode.InternalError,
    message: error instanceof Error ? error.message : String(error),
  };
}
