// What every filesystem tool needs: the roots of the request and the server's limits.

import { escapedBytes } from '../../jsonrpc/json-size.js';
import type { RequestContext } from '../../protocol/context.js';
import type { AfterCheck } from './directory.js';
import { type Roots, rootsFor } from './roots.js';

export interface FsOptions {
  /** Real paths of the directories given on the command line. */
  roots: Roots;
  /** Write tools are registered only when true. */
  write: boolean;
  /** The largest message the transport accepts and sends, in bytes. */
  maxMessageSize: number;
  /** For tests only: runs between the check of each directory and its use, where a test makes a race. */
  afterCheck?: AfterCheck;
}

export interface FsToolContext {
  roots: Roots;
  options: FsOptions;
  request: RequestContext;
}

export async function fsContext(options: FsOptions, request: RequestContext): Promise<FsToolContext> {
  return { roots: await rootsFor(request, options.roots), options, request };
}

/**
 * Refuses text whose answer would not fit in one message: `copies` times its bytes inside JSON strings
 * (escaping included: 80 MB of '"' take 160 MB), with what to do instead.
 */
export function checkTextFits(shown: string, text: string, copies: number, maxMessageSize: number): void {
  checkEscapedFits(shown, escapedBytes(text, 1) * copies, copies, maxMessageSize);
}

/** checkTextFits for a text measured already: `bytes` inside JSON strings, all `copies` counted. */
export function checkEscapedFits(shown: string, bytes: number, copies: number, maxMessageSize: number): void {
  if (bytes + 4096 > maxMessageSize) {
    throw new Error(
      `${shown}: its text takes ${bytes} bytes in the answer (${copies === 1 ? 'JSON escaping included' : `${copies} copies, as text and as structured content, JSON escaping included`}), over the maximum message size of ${maxMessageSize} bytes; read a part of it (head, tail), or start the server with --max-message-size ${Math.ceil((bytes + 4096) / 1048576)}MiB or more`,
    );
  }
}

/** Refuses a file whose encoded content could not fit in one message, and says how to raise the limit. */
export function checkFits(filePath: string, size: number, encodedSize: number, maxMessageSize: number): void {
  // Leave room for the JSON-RPC envelope around the content.
  if (encodedSize + 4096 > maxMessageSize) {
    throw new Error(
      `${filePath} is ${size} bytes, too large for the maximum message size of ${maxMessageSize} bytes; start the server with --max-message-size ${Math.ceil((encodedSize + 4096) / 1048576)}MiB or more`,
    );
  }
}
