// An SSE answer of Streamable HTTP read to the end, and resumed when it breaks before every awaited
// response came: after the server's `retry` delay (or the client's own), with a GET that carries the
// Last-Event-ID of the last event seen. The GET stream (`persistent`) awaits no response and is resumed
// whenever it breaks, until the transport stops. What a resumed request needs (headers, the session) is
// the transport's: it is asked through ResumeHost.

import { classify, type JsonRpcId } from '../../jsonrpc/messages.js';
import { DEFAULT_MAX_MESSAGE_SIZE } from '../framing/decoder.js';
import type { RetryPolicy } from '../retry.js';
import type { HttpAnswer } from './http-request.js';
import { SseParser } from './sse.js';

export interface ResumeHost {
  /** How long to wait before each reconnect in a row that brought nothing, and when to give up. */
  readonly retry: RetryPolicy;
  /** Whether the transport is closing or closed: nothing is resumed then. */
  stopped(): boolean;
  /** Keeps (or forgets) a controller that the transport's close() must abort. */
  track(controller: AbortController, on: boolean): void;
  /** The GET that resumes the stream (from the event id, when there is one). */
  reconnect(resumeFrom: Record<string, string>, signal: AbortSignal): Promise<HttpAnswer>;
  deliver(message: unknown): void;
  /** These requests will get no answer on this stream. */
  failed(ids: JsonRpcId[], why: string): void;
  /** The largest SSE event kept while it arrives, in characters (256 MiB). */
  readonly maxEventSize?: number;
}

/**
 * Reads an SSE response; when it breaks before every awaited response came, resumes it. The GET stream
 * (`persistent`) awaits no response and is resumed whenever it breaks, until the transport closes.
 */
export async function readResumable(
  response: HttpAnswer,
  awaiting: Set<JsonRpcId>,
  persistent: boolean,
  host: ResumeHost,
): Promise<void> {
  let lastEventId: string | undefined;
  /** The delay the server asked for in its last `retry` field. */
  let suggested: number | undefined;
  let attempts = 0;
  let current: HttpAnswer | undefined = response;
  let controller: AbortController | undefined;
  const limit = host.maxEventSize ?? DEFAULT_MAX_MESSAGE_SIZE;
  /** Why the stream was given up: an event that never ended (kept, it would have been kept whole). */
  let oversize: string | undefined;
  while (current) {
    let progressed = false;
    try {
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of current.body) {
        for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
          progressed = true;
          if (event.id !== undefined) lastEventId = event.id;
          if (event.retry !== undefined) suggested = event.retry;
          if (event.data === '') continue;
          const message = JSON.parse(event.data) as unknown;
          const c = classify(message);
          if (c.kind === 'response' && c.message.id !== null) awaiting.delete(c.message.id);
          host.deliver(message);
        }
        if (parser.pending > limit) {
          oversize = `an SSE event from the server exceeds ${limit} bytes before its end`;
          break;
        }
      }
    } catch {
      // A broken connection: resumed below if anything is still awaited.
    }
    if (controller) host.track(controller, false);
    current = undefined;
    if (host.stopped()) break;
    // Not resumed: the server would send it again.
    if (oversize) {
      host.failed([...awaiting], oversize);
      return;
    }
    if (!persistent && (awaiting.size === 0 || lastEventId === undefined)) break;
    // Attempts count in a row those that brought nothing: a server that ends the stream after each event
    // (polling, as 2025-11-25 allows) was followed for a few events only.
    if (progressed) attempts = 0;
    // A reconnect that fails (a broken connection, a 5xx) is tried again: it gave up after the first.
    // The reconnect is aborted by close(): it was not, so close() left a resumed stream open.
    while (!current && !host.stopped()) {
      const wait = host.retry.delay(++attempts, suggested);
      if (wait === undefined) break;
      controller = new AbortController();
      host.track(controller, true);
      await sleep(wait, controller.signal);
      if (host.stopped()) break;
      // The GET stream without an event id yet is opened afresh; with one, resumed from there.
      const resumeFrom: Record<string, string> =
        lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId };
      const answer = await host.reconnect(resumeFrom, controller.signal).catch(() => undefined);
      if (answer?.ok) {
        current = answer;
        break;
      }
      host.track(controller, false);
      answer?.cancel();
      // A refusal (404: the session is gone; 405, 400) will not change by trying again.
      if (answer && answer.status < 500 && answer.status !== 429) break;
    }
  }
  if (controller) host.track(controller, false);
  if (awaiting.size > 0 && !host.stopped()) {
    host.failed([...awaiting], 'the response stream ended before the response arrived');
  }
}

/** Waits `ms`, or less if `signal` is aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
