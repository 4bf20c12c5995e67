// A remote server under examination over Streamable HTTP: each check gets a session of its own (its own
// initialize), each line a check writes is POSTed by itself, and what comes back (a JSON body, every
// event of an SSE answer, an HTTP error) is kept as frames, so that the JSON-RPC and MCP checks written
// for stdio run unchanged. The HTTP binding's own checks (checks/http.ts) use exchange() and openStream()
// to send exactly the request they mean, headers and all.

import { classify, type JsonRpcId } from '../jsonrpc/messages.js';
import { requestMetadataHeaders, statelessVersionOf } from '../protocol/http/metadata-headers.js';
import { type HttpAnswer, HttpRequester } from '../transport/http/http-request.js';
import { type SseEvent, SseParser } from '../transport/http/sse.js';
import { type OutputFrame, Peer } from './peer.js';

export interface HttpTarget {
  url: string;
  /** Headers on every request (Authorization, say). */
  headers: Record<string, string>;
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** An HTTP answer read to its end (or to the peer's timeout). */
export interface HttpExchange {
  status: number;
  header(name: string): string | undefined;
  contentType: string;
  text: string;
  /** The events, when the answer is an SSE stream. */
  events: SseEvent[];
  /** Whether the body ended before the timeout (an SSE answer that stays open did not). */
  ended: boolean;
}

export interface ExchangeOptions {
  headers?: Record<string, string>;
  body?: string;
  /** Send this session's id and negotiated version (true), none, or the id given. */
  session?: boolean | string;
  /** How long to read the body, in ms (the peer's timeout). */
  readMs?: number;
}

/** An SSE stream being read (the GET stream): its events so far, and a way to wait for more. */
export interface OpenStream {
  status: number;
  header(name: string): string | undefined;
  contentType: string;
  events: SseEvent[];
  /** Waits until `count` events came or `ms` passed; true if they came. */
  waitForEvents(count: number, ms: number): Promise<boolean>;
  close(): void;
}

/** Bodies are read up to this size: a server that sends more is not waited for. */
const BODY_LIMIT = 16 * 1024 * 1024;

export class HttpPeer extends Peer {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** The data of every SSE event that was not exactly one JSON-RPC message (or a batch of them). */
  readonly badEvents: string[] = [];
  private readonly requester = new HttpRequester();
  private readonly controllers = new Set<AbortController>();
  private readonly endpoint: URL;

  constructor(
    readonly target: HttpTarget,
    timeoutMs: number,
  ) {
    super(timeoutMs);
    this.endpoint = new URL(target.url);
  }

  /** Whether the server is on this machine (the DNS-rebinding rules are about such servers). */
  get local(): boolean {
    const host = this.endpoint.hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\./.test(host);
  }

  write(bytes: string | Buffer): void {
    const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
    for (const line of text.split('\n')) if (line.trim() !== '') void this.postLine(line);
  }

  protected override negotiated(result: Record<string, unknown>): void {
    if (typeof result.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
  }

  /** Sends one request as given and reads the whole answer. */
  async exchange(
    method: 'GET' | 'POST' | 'DELETE' | 'PUT',
    options: ExchangeOptions = {},
  ): Promise<HttpExchange> {
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), options.readMs ?? this.timeoutMs);
    try {
      const answer = await this.requester.request(this.endpoint, {
        method,
        headers: this.headersFor(options),
        body: options.body,
        signal: controller.signal,
      });
      const contentType = answer.headers.get('content-type') ?? '';
      const sse = contentType.includes('text/event-stream');
      const parser = new SseParser();
      const decoder = new TextDecoder();
      const events: SseEvent[] = [];
      let text = '';
      let ended = true;
      try {
        for await (const chunk of answer.body) {
          const piece = decoder.decode(chunk, { stream: true });
          text += piece;
          if (sse) events.push(...parser.push(piece));
          if (text.length > BODY_LIMIT) {
            answer.cancel();
            ended = false;
            break;
          }
        }
      } catch {
        ended = false;
      }
      return { status: answer.status, header: headerOf(answer), contentType, text, events, ended };
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  /** Opens an SSE stream (a GET) and keeps reading it until close() or dispose(). */
  async openStream(options: ExchangeOptions = {}): Promise<OpenStream> {
    const controller = new AbortController();
    this.controllers.add(controller);
    const answer = await this.requester.request(this.endpoint, {
      method: 'GET',
      headers: this.headersFor({ ...options, headers: { Accept: 'text/event-stream', ...options.headers } }),
      signal: controller.signal,
    });
    const events: SseEvent[] = [];
    const waiters: Array<() => void> = [];
    const contentType = answer.headers.get('content-type') ?? '';
    const close = () => {
      controller.abort();
      answer.cancel();
      this.controllers.delete(controller);
      for (const wake of waiters.splice(0)) wake();
    };
    if (answer.ok && contentType.includes('text/event-stream')) {
      void (async () => {
        const parser = new SseParser();
        const decoder = new TextDecoder();
        try {
          for await (const chunk of answer.body) {
            events.push(...parser.push(decoder.decode(chunk, { stream: true })));
            for (const wake of waiters.splice(0)) wake();
          }
        } catch {
          // Closed by the check, or by the server: the events so far are what it sent.
        }
      })();
    } else {
      answer.skip();
    }
    return {
      status: answer.status,
      header: headerOf(answer),
      contentType,
      events,
      close,
      async waitForEvents(count, ms) {
        const deadline = Date.now() + ms;
        while (events.length < count && !controller.signal.aborted) {
          const left = deadline - Date.now();
          if (left <= 0) return false;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        return events.length >= count;
      },
    };
  }

  async dispose(): Promise<void> {
    for (const controller of this.controllers) controller.abort();
    if (this.sessionId !== undefined) {
      await this.exchange('DELETE', { readMs: 2000 }).catch(() => {});
    }
    this.requester.destroy();
  }

  /** The headers of a request: the target's, the session's where asked, then the check's own. */
  private headersFor(options: ExchangeOptions): Record<string, string> {
    const headers: Record<string, string> = { ...this.target.headers };
    const session = options.session ?? true;
    if (typeof session === 'string') headers['Mcp-Session-Id'] = session;
    else if (session && this.sessionId !== undefined) headers['Mcp-Session-Id'] = this.sessionId;
    if (session && this.protocolVersion !== undefined) headers['MCP-Protocol-Version'] = this.protocolVersion;
    return { ...headers, ...options.headers };
  }

  /** POSTs one line a check wrote, as a client of this session would, and keeps what comes back. */
  private async postLine(line: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    // A request of the stateless revision stands alone: no session, and the metadata headers.
    const single = message !== undefined && !Array.isArray(message) ? classify(message) : undefined;
    const stateless =
      single?.kind === 'request' && statelessVersionOf(message) !== undefined
        ? requestMetadataHeaders(single.message)
        : undefined;
    const opening = single?.kind === 'request' && single.message.method === 'initialize';
    let answer: HttpExchange;
    try {
      answer = await this.exchange('POST', {
        headers: { 'Content-Type': 'application/json', Accept: ACCEPT_BOTH, ...stateless },
        body: line,
        session: stateless === undefined && !opening,
      });
    } catch (error) {
      this.refused.set(single?.kind === 'request' ? single.message.id : null, 'a failed POST');
      this.received({
        text: `<the POST failed: ${(error as Error).message}>`,
        value: undefined,
        json: false,
      });
      return;
    }
    if (opening) this.sessionId = answer.header('mcp-session-id');
    // What waits for this answer: the request's id, or (for bytes that are no message) the id null of
    // the error due; a notification or a response waits for nothing.
    const awaited =
      single === undefined
        ? null
        : single.kind === 'request'
          ? single.message.id
          : single.kind === 'invalid'
            ? single.id
            : undefined;
    if (awaited !== undefined && !answersRequest(answer, awaited))
      this.refused.set(awaited, shownAnswer(answer, 160));
    this.keep(answer);
  }

  /** Turns an answer into frames: its JSON body, each SSE event's data, or a line saying what came. */
  private keep(answer: HttpExchange): void {
    if (answer.status === 202 && answer.text === '') return;
    if (answer.contentType.includes('text/event-stream')) {
      for (const event of answer.events) {
        if (event.data === '') continue;
        const frame = parseFrame(event.data);
        const items = Array.isArray(frame.value) ? frame.value : [frame.value];
        if (!frame.json || items.some((item) => classify(item).kind === 'invalid')) {
          this.badEvents.push(event.data);
        }
        this.received(frame);
      }
      return;
    }
    const frame = parseFrame(answer.text);
    if (frame.json) this.received(frame);
    else {
      const excerpt = answer.text.length > 120 ? `${answer.text.slice(0, 120)}…` : answer.text;
      this.received({
        text: `HTTP ${answer.status} ${answer.contentType || '(no content type)'}: ${excerpt}`,
        value: undefined,
        json: false,
      });
    }
  }
}

/**
 * Whether an answer to a request's POST may still bring its response: a 2xx SSE stream may end early and
 * be resumed on the GET stream; an error status, or a JSON body without it, never will.
 */
function answersRequest(answer: HttpExchange, id: JsonRpcId | null): boolean {
  if (answer.status < 200 || answer.status > 299) return false;
  if (answer.contentType.includes('text/event-stream')) return true;
  const frame = parseFrame(answer.text);
  const items = Array.isArray(frame.value) ? frame.value : [frame.value];
  return items.some((item) => {
    const c = classify(item);
    return c.kind === 'response' && c.message.id === id;
  });
}

/** An answer on one line for a report: status, type, and the body folded to single spaces and cut short. */
export function shownAnswer(answer: HttpExchange, limit = 100): string {
  const flat = answer.text.replace(/\s+/g, ' ').trim();
  const body = flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
  return `HTTP ${answer.status}${answer.contentType ? ` ${answer.contentType}` : ''}${body ? `: ${body}` : ''}`;
}

function parseFrame(text: string): OutputFrame {
  try {
    return { text, value: JSON.parse(text), json: true };
  } catch {
    return { text, value: undefined, json: false };
  }
}

function headerOf(answer: HttpAnswer): (name: string) => string | undefined {
  return (name) => answer.headers.get(name) ?? undefined;
}
