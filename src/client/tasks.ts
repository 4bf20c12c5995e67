// The client's side of the tasks extension (SEP-2663): a tools/call answered with a task is followed to
// its end. The waiter polls tasks/get at the interval the server asks for, answers the task's input
// requests with the same callbacks that answer a server's other requests (each key once), sends them
// with tasks/update, and turns the end into the call's outcome: the result, the error the task failed
// with, or a cancellation. Aborting the call's signal cancels the task (tasks/cancel).

import { JsonRpcError } from '../jsonrpc/errors.js';
import { McpwireError } from '../jsonrpc/local-errors.js';
import { Method } from '../protocol/methods.js';
import type { Task } from '../protocol/tasks/task.js';
import type { ClientAnswers } from './answers.js';
import type { CallOptions } from './call-options.js';

type Send = <T>(method: string, params: Record<string, unknown>, options: CallOptions) => Promise<T>;

const DEFAULT_POLL_MS = 1000;
/** Polling faster than this helps nobody, whatever the server suggests. */
const MIN_POLL_MS = 10;

export class TaskWaiter {
  constructor(
    private readonly send: Send,
    private readonly answers: ClientAnswers,
  ) {}

  /** Follows a task from the state given to its end; resolves with its result. */
  async wait(first: Task, options: CallOptions): Promise<Record<string, unknown>> {
    const { signal, onTaskStatus } = options;
    const taskId = first.taskId;
    const request: CallOptions = signal ? { signal } : {};
    const answered = new Set<string>();
    let task = first;
    try {
      for (;;) {
        onTaskStatus?.(task);
        if (task.status === 'completed') return task.result ?? {};
        if (task.status === 'failed') {
          const error = task.error ?? { code: -32603, message: 'the task failed without saying why' };
          throw new JsonRpcError(error.code, error.message, error.data);
        }
        if (task.status === 'cancelled') {
          throw new McpwireError(
            'TASK_CANCELLED',
            `task ${taskId} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
          );
        }
        let updated = false;
        if (task.status === 'input_required' && task.inputRequests) {
          const responses: Record<string, unknown> = {};
          for (const [key, asked] of Object.entries(task.inputRequests)) {
            if (answered.has(key)) continue;
            answered.add(key);
            responses[key] = await this.answers.answer(
              asked.method,
              (asked.params ?? {}) as Record<string, unknown>,
              { signal: signal ?? new AbortController().signal, tag: options.tag },
            );
          }
          if (Object.keys(responses).length > 0) {
            await this.send(Method.TasksUpdate, { taskId, inputResponses: responses }, request);
            updated = true;
          }
        }
        // Right after an answer the task has moved on: look at once; otherwise wait as the server asks.
        if (!updated) await delay(Math.max(MIN_POLL_MS, task.pollIntervalMs ?? DEFAULT_POLL_MS), signal);
        task = await this.send<Task>(Method.TasksGet, { taskId }, request);
      }
    } catch (error) {
      if (signal?.aborted) {
        // The caller gave up: tell the server, without waiting on a signal that is aborted already.
        await this.send(Method.TasksCancel, { taskId }, {}).catch(() => undefined);
      }
      throw error;
    }
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new McpwireError('REQUEST_CANCELLED', 'the call was cancelled while its task ran');
}
