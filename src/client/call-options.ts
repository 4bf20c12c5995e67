// The options of one call, as the client's users and both eras see them.

import type { Progress, RequestOptions } from '../jsonrpc/connection.js';
import type { Task } from '../protocol/tasks/task.js';
import type { ClientCapabilities } from '../protocol/types.js';

export interface CallOptions extends Omit<RequestOptions, 'onProgress' | 'transport' | 'cancellation'> {
  onProgress?: (progress: Progress) => void;
  /**
   * Declare the tasks extension on this request (2026-07-28), so that the server may answer a tools/call
   * with a task; the call then follows the task to its end. The client option `tasks` does this for every
   * request.
   */
  task?: boolean;
  /** Told every state of the task the call became: status, message, progress, input requests. */
  onTaskStatus?: (task: Task) => void;
  /**
   * 2026-07-28: the capabilities this request declares, in place of the client's own (a proxy declares its
   * caller's, so that the server asks only for what that caller can answer).
   */
  capabilities?: ClientCapabilities;
  /**
   * 2026-07-28: an input_required or task result is returned as it came, not answered or followed (a proxy
   * hands it to its own caller, who answers it and sends the request again).
   */
  passThrough?: boolean;
}

export type ListName = 'tools' | 'resources' | 'prompts';
