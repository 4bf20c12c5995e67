// The options of one call, as the client's users and both eras see them.

import type { Progress, RequestOptions } from '../jsonrpc/connection.js';

export interface CallOptions extends Omit<RequestOptions, 'onProgress' | 'transport' | 'cancellation'> {
  onProgress?: (progress: Progress) => void;
}

export type ListName = 'tools' | 'resources' | 'prompts';
