// A session's answer written whole at the end of its POST: a JSON body, or an SSE stream that still held
// its head (held-head.ts). It goes with its Content-Length in one write; or, when a message carries
// streamed values (a big resource, jsonrpc/streamed.ts), chunked, its JSON written around the values as
// they are read (spliced-body.ts), never built as one string (issue 21).

import type { ServerResponse } from 'node:http';
import { type StreamedString, serializeSpliced, streamedPending } from '../../jsonrpc/streamed.js';
import { httpExactIds } from '../framing/exact-ids.js';
import { writeSplicedBody } from './spliced-body.js';

/** One message of the body, with the text that goes before and after it (an SSE event's framing). */
export interface BodyPart {
  head: string;
  message: unknown;
  tail: string;
}

export function writeWholeBody(
  response: ServerResponse,
  headers: Record<string, string>,
  parts: readonly BodyPart[],
): void {
  if (streamedPending()) {
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
    if (values.length > 0) {
      texts.push(current);
      response.writeHead(200, headers);
      void writeSplicedBody(response, '', { texts, values }, '');
      return;
    }
    endWith(response, headers, current);
    return;
  }
  let body = '';
  for (const { head, message, tail } of parts) {
    body += head + httpExactIds.write(JSON.stringify(message)) + tail;
  }
  endWith(response, headers, body);
}

/** With its length given, the body goes with the head in one write instead of chunked. */
function endWith(response: ServerResponse, headers: Record<string, string>, body: string): void {
  response.writeHead(200, { ...headers, 'Content-Length': Buffer.byteLength(body) }).end(body);
}
