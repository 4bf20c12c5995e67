// Reads what it can of a JSON-RPC envelope from the first bytes of a message too large to parse, so that
// an oversized request can still be answered with its own id and an oversized response can fail the
// request that waits for it.

import type { JsonRpcId } from '../../jsonrpc/messages.js';

export interface PeekedEnvelope {
  id: JsonRpcId | null;
  role: 'request' | 'response' | 'unknown';
}

/** Scans the top level of a (truncated) JSON object for its "id", "method", "result" and "error" keys. */
export function peekEnvelope(head: string): PeekedEnvelope {
  let id: JsonRpcId | null = null;
  let role: PeekedEnvelope['role'] = 'unknown';
  let depth = 0;
  let i = 0;
  const n = head.length;
  while (i < n) {
    const c = head[i]!;
    if (c === '"') {
      const end = stringEnd(head, i);
      if (end === -1) break;
      if (depth === 1 && isKey(head, end)) {
        const key = head.slice(i + 1, end);
        if (key === 'method') role = 'request';
        else if ((key === 'result' || key === 'error') && role === 'unknown') role = 'response';
        else if (key === 'id') {
          const value = readScalar(head, afterColon(head, end));
          if (value !== undefined) id = value;
        }
      }
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  }
  return { id, role };
}

/** Index of the quote that closes the string opening at `start`, or -1 when the head ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
  }
  return -1;
}

function afterColon(text: string, quote: number): number {
  let i = quote + 1;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i + 1;
}

function isKey(text: string, quote: number): boolean {
  let i = quote + 1;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return text[i] === ':';
}

function readScalar(text: string, start: number): JsonRpcId | undefined {
  let i = start;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] === '"') {
    const end = stringEnd(text, i);
    if (end === -1) return undefined;
    try {
      return JSON.parse(text.slice(i, end + 1)) as string;
    } catch {
      return undefined;
    }
  }
  const match = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 40));
  if (!match || i + match[0].length >= text.length) return undefined;
  return Number(match[0]);
}
