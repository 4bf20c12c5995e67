// An answer written whole at the end of its POST: a session's JSON body or an SSE stream that still held
// its head (held-head.ts), or a 2026-07-28 request's JSON body or last SSE event (stateless-exchange.ts).
// A body with no streamed value goes with its Content-Length in one write. One with streamed values (a big
// resource, jsonrpc/streamed.ts) is chunked, its JSON written around the values as they are read
// (spliced-body.ts), never built as one string (issue 21).

import type { ServerResponse } from 'node:http';
import {
  type SplicedJson,
  type StreamedString,
  serializeSpliced,
  streamedPending,
} from '../../jsonrpc/streamed.js';
import { httpExactIds } from '../framing/exact-ids.js';
import { writable } from '../framing/writer.js';
import { writeSplicedBody } from './spliced-body.js';
import { headOf } from './sse.js';

/** One message of the body, with the text that goes before and after it. */
export interface BodyPart {
  head: string;
  message: unknown;
  tail: string;
}

/** A message as a JSON body of its own. */
export const asJson = (message: unknown): BodyPart => ({ head: '', message, tail: '' });

/** A message as one SSE `message` event (compact JSON has no newline, so one data line). */
export const asSseEvent = (message: unknown): BodyPart => ({
  head: 'event: message\ndata: ',
  message,
  tail: '\n\n',
});

/**
 * Writes the status, the headers (the caller's, then those of the body's `type`: sse.ts) and the body,
 * and ends the answer.
 */
export function writeWholeBody(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  type: Readonly<Record<string, string>>,
  parts: readonly BodyPart[],
): void {
  const body = wholeBody(parts);
  const head = headOf(headers, type);
  if (typeof body === 'string') {
    // With its length given, the body goes with the head in one write instead of chunked.
    const data = writable(body);
    head['Content-Length'] = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    response.writeHead(status, head).end(data);
    return;
  }
  response.writeHead(status, head);
  void writeSplicedBody(response, '', body, '');
}

/** Writes the last parts of an answer whose head is out (a stream), and ends it. */
export function endWithBody(response: ServerResponse, parts: readonly BodyPart[]): void {
  const body = wholeBody(parts);
  if (typeof body === 'string') response.end(writable(body));
  else void writeSplicedBody(response, '', body, '');
}

/** The body's text, or its JSON split around the streamed values in it. */
function wholeBody(parts: readonly BodyPart[]): string | SplicedJson {
  if (!streamedPending()) {
    let body = '';
    for (const { head, message, tail } of parts) {
      body += head + httpExactIds.write(JSON.stringify(message)) + tail;
    }
    return body;
  }
  const texts: string[] = [];
  const values: StreamedString[] = [];
  let current = '';
  for (const { head, message, tail } of parts) {
    const spliced = serializeSpliced(message);
    current += head + httpExactIds.write(spliced.texts[0]!);
    for (let i = 0; i < spliced.values.length; i++) {
      texts.push(current);
      values.push(spliced.values[i]!);
      current = httpExactIds.write(spliced.texts[i + 1]!);
    }
    current += tail;
  }
  if (values.length === 0) return current;
  texts.push(current);
  return { texts, values };
}
