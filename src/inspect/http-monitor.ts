// Watches the HTTP exchanges of a Streamable HTTP connection (or of the older HTTP+SSE transport) without
// changing them: what `mcpwire trace --http` sees as a reverse proxy. Each POST and GET is a stream of its
// own; each session (Mcp-Session-Id) gets a wire monitor of its own, so the JSON-RPC faults of stdio
// (duplicate ids, unknown responses, late progress, requests never answered) are told per session. On top
// of those it flags the faults of the HTTP binding as they happen: a session id the client leaves out or
// the server changes, an answer of the wrong content type or status, an SSE event that is not one JSON-RPC
// message, and a response on a stream other than the one its request opened.

import type { JsonRpcId } from '../jsonrpc/messages.js';
import { DEFAULT_MAX_MESSAGE_SIZE } from '../transport/framing/decoder.js';
import { SseParser } from '../transport/http/sse.js';
import { excerpt } from './reassembly.js';
import { type Direction, WireMonitor, type WireProblem } from './wire-monitor.js';

export type HttpProblemKind =
  | 'session-id-missing'
  | 'session-id-changed'
  | 'content-type'
  | 'http-status'
  | 'sse-event'
  | 'wrong-stream'
  | 'upstream';

/** Where on the connection something happened: the session (absent before one exists) and the stream. */
export interface HttpWhere {
  session?: string;
  /** The HTTP exchange that carried it: its method and number, e.g. "POST#3". */
  stream: string;
}

export interface HttpTraceMessage extends HttpWhere {
  /** Wall-clock time, in milliseconds since the epoch. */
  at: number;
  from: Direction;
  payload: unknown;
  latencyMs?: number;
  answers?: string;
}

export interface HttpTraceProblem extends HttpWhere {
  at: number;
  kind: WireProblem['kind'] | HttpProblemKind;
  from: Direction;
  message: string;
  bytes?: string;
}

export interface HttpExchangeSummary extends HttpWhere {
  at: number;
  method: string;
  path: string;
  /** Absent when the upstream gave no answer at all. */
  status?: number;
  contentType?: string;
  /** From the request's arrival to the end of its answer. */
  ms: number;
}

export interface HttpTraceEvents {
  message?(message: HttpTraceMessage): void;
  problem?(problem: HttpTraceProblem): void;
  exchange?(exchange: HttpExchangeSummary): void;
}

export interface HttpRequestHead {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The key of the messages that travel outside any session (servers that issue none, 2026-07-28). */
const NO_SESSION = '';
/** The key of one 2026-07-28 exchange's monitor: no session name can start with a NUL. */
const EXCHANGE_KEY = '\u0000';
const STATELESS_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

export class HttpMonitor {
  private readonly sessions = new Map<string, WireMonitor>();
  /** Session ids the server issued: once it issued any, a request of the handshake era must carry one. */
  readonly issued = new Set<string>();
  /** The server answered an initialize without a session id. */
  initializedWithoutSession = false;
  /** A GET stream announced an `endpoint`: the older HTTP+SSE transport, whose responses come on it. */
  legacy = false;
  private streams = 0;
  /** The monotonic time the session monitors read: that of the event being delivered. */
  private deliveryAt = 0;
  private where: HttpWhere = { stream: '' };
  readonly clock: () => number;
  readonly wall: () => number;
  /** The largest body or SSE event kept to be parsed, in bytes: past it, it is flagged and not kept. */
  readonly maxMessageSize: number;

  constructor(
    readonly events: HttpTraceEvents,
    options: { clock?: () => number; wall?: () => number; maxMessageSize?: number } = {},
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.wall = options.wall ?? (() => Date.now());
    this.maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
  }

  /** A request arrived: its exchange, to be told the rest as it passes. */
  exchange(head: HttpRequestHead): HttpExchange {
    return new HttpExchange(this, head, `${head.method}#${++this.streams}`);
  }

  /** Sessions with a monitor (for tests: ended sessions are forgotten). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Hands parsed messages to the wire monitor `key` names (a session, the messages outside any session, or
   * one stateless exchange), as of monotonic time `at`; what it reports is placed at `where`.
   */
  deliver(from: Direction, key: string, where: HttpWhere, values: unknown[], at: number): void {
    const monitor = this.monitor(key);
    this.deliveryAt = at;
    this.where = where;
    for (const value of values) {
      if (from === 'client') monitor.clientValue(value);
      else monitor.serverValue(value);
    }
  }

  /** A POST refused with an HTTP error status: the status answered its requests. */
  refused(key: string, ids: Iterable<JsonRpcId>): void {
    const monitor = this.sessions.get(key);
    if (monitor) for (const id of ids) monitor.clientRequestRefused(id);
  }

  /**
   * A 2026-07-28 exchange ended. Its request lived and died with it: closed by the client, that was its
   * cancellation; ended by the server without the response, the request was never answered.
   */
  endExchange(key: string, where: HttpWhere, byServer: boolean): void {
    const monitor = this.sessions.get(key);
    if (!monitor) return;
    this.where = where;
    if (byServer) monitor.serverExited('ended its stream without the response');
    this.sessions.delete(key);
  }

  problem(
    where: HttpWhere,
    kind: HttpTraceProblem['kind'],
    from: Direction,
    message: string,
    bytes?: string,
  ): void {
    const problem: HttpTraceProblem = { at: this.wall(), ...where, kind, from, message };
    if (bytes !== undefined) problem.bytes = excerpt(bytes);
    this.events.problem?.(problem);
  }

  /** The session ended (DELETE): what it left unanswered is reported, and it is forgotten. */
  endSession(session: string, stream: string): void {
    const monitor = this.sessions.get(session);
    if (!monitor) return;
    this.where = { session, stream };
    monitor.serverExited('ended the session (the client sent DELETE)');
    this.sessions.delete(session);
    this.issued.delete(session);
  }

  private monitor(key: string): WireMonitor {
    let monitor = this.sessions.get(key);
    if (!monitor) {
      monitor = new WireMonitor(
        {
          message: (m) => {
            const message: HttpTraceMessage = {
              at: this.wall(),
              ...this.where,
              from: m.from,
              payload: m.payload,
            };
            if (m.latencyMs !== undefined) {
              message.latencyMs = m.latencyMs;
              message.answers = m.answers;
            }
            this.events.message?.(message);
          },
          problem: (p) => this.events.problem?.({ at: this.wall(), ...this.where, ...p }),
        },
        { clock: () => this.deliveryAt },
      );
      this.sessions.set(key, monitor);
    }
    return monitor;
  }
}

type BodyKind = 'json' | 'sse' | 'other' | 'none';

export class HttpExchange {
  private readonly started: number;
  private readonly requestSession: string | undefined;
  private readonly accept: string;
  private requestChunks: Buffer[] = [];
  private requestBytes = 0;
  /** What the POST carried, parsed (undefined until its body ended, or when it was not JSON). */
  private sent: unknown[] | undefined;
  private requestsSent = new Set<JsonRpcId>();
  private initialize = false;
  private stateless = false;
  /** An initialize without a session: held until the answer says which session it opened. */
  private held: { values: unknown[]; at: number } | undefined;
  private session: string | undefined;
  private status: number | undefined;
  private contentType: string | undefined;
  private body: BodyKind = 'none';
  private responseChunks: Buffer[] = [];
  private responseBytes = 0;
  private sse: SseParser | undefined;
  /**
   * The bytes after the last newline of the stream so far: the start of a line, decoded once its newline
   * comes. A newline byte is never part of a multi-byte character, so text cut there decodes on its own
   * (no StringDecoder per stream, and the lines of a chunk are decoded in one piece).
   */
  private sseRest: Buffer[] = [];
  private sseRestBytes = 0;
  /** A GET with Last-Event-ID resumes a stream that may carry responses. */
  private readonly resumed: boolean;
  private finished = false;

  constructor(
    private readonly owner: HttpMonitor,
    private readonly head: HttpRequestHead,
    readonly stream: string,
  ) {
    this.started = owner.clock();
    this.requestSession = header(head.headers, 'mcp-session-id');
    this.session = this.requestSession;
    this.accept = header(head.headers, 'accept') ?? '*/*';
    this.resumed = header(head.headers, 'last-event-id') !== undefined;
  }

  /** Which wire monitor this exchange's messages belong to. */
  private get key(): string {
    if (this.stateless) return `${EXCHANGE_KEY}${this.stream}`;
    return this.session ?? NO_SESSION;
  }

  /** Made once per session the exchange is in (every message and problem of the exchange names it). */
  private whereOf: { session: string | undefined; where: HttpWhere } | undefined;

  private get where(): HttpWhere {
    if (this.whereOf?.session !== this.session) this.whereOf = undefined;
    this.whereOf ??= {
      session: this.session,
      where: this.session ? { session: this.session, stream: this.stream } : { stream: this.stream },
    };
    return this.whereOf.where;
  }

  requestBody(chunk: Buffer): void {
    this.requestBytes += chunk.length;
    if (this.requestBytes <= this.owner.maxMessageSize) this.requestChunks.push(chunk);
  }

  requestEnd(): void {
    const at = this.owner.clock();
    if (this.head.method !== 'POST') return;
    const text = decode(this.requestChunks);
    this.requestChunks = [];
    if (this.requestBytes > this.owner.maxMessageSize) {
      this.owner.problem(
        this.where,
        'oversize',
        'client',
        `a ${this.requestBytes}-byte POST body exceeds ${this.owner.maxMessageSize} bytes`,
      );
      return;
    }
    const values = parseJson(text);
    if (values === undefined) {
      this.owner.problem(this.where, 'not-json', 'client', 'the POST body is not JSON', text);
      return;
    }
    this.sent = values;
    for (const value of values) {
      const item = value as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } };
      if (typeof item !== 'object' || item === null || typeof item.method !== 'string') continue;
      if (item.method === 'initialize') this.initialize = true;
      if (item.params?._meta?.[STATELESS_VERSION_KEY] !== undefined) this.stateless = true;
      if (typeof item.id === 'string' || typeof item.id === 'number') this.requestsSent.add(item.id);
    }
    if (!this.requestSession && !this.initialize && !this.stateless && this.owner.issued.size > 0) {
      this.owner.problem(
        this.where,
        'session-id-missing',
        'client',
        'a POST without Mcp-Session-Id, though the server issued one at initialize: every later request of the session must carry it',
      );
    }
    if (this.initialize && !this.requestSession) this.held = { values, at };
    else this.owner.deliver('client', this.key, this.where, values, at);
  }

  response(status: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = status;
    this.contentType = header(headers, 'content-type');
    const answered = header(headers, 'mcp-session-id');
    const where = () => this.where;
    if (this.requestSession && answered && answered !== this.requestSession) {
      this.owner.problem(
        where(),
        'session-id-changed',
        'server',
        `the answer carries Mcp-Session-Id ${answered}, but the request was sent in session ${this.requestSession}; a session keeps the id it was given`,
      );
    }
    if (this.held) {
      if (status >= 200 && status < 300) {
        if (answered) {
          this.session = answered;
          this.owner.issued.add(answered);
        } else this.owner.initializedWithoutSession = true;
      }
      this.owner.deliver('client', this.key, this.where, this.held.values, this.held.at);
      this.held = undefined;
    }
    const type = mediaType(this.contentType);
    this.body =
      type === 'application/json'
        ? 'json'
        : type === 'text/event-stream'
          ? 'sse'
          : type === ''
            ? 'none'
            : 'other';
    if (
      (status === 400 || status === 404) &&
      !this.requestSession &&
      !this.initialize &&
      !this.stateless &&
      this.owner.initializedWithoutSession &&
      this.owner.issued.size === 0
    ) {
      this.owner.problem(
        where(),
        'session-id-missing',
        'server',
        `the server issued no Mcp-Session-Id when it answered initialize, yet refused this ${this.head.method} without one (HTTP ${status}); a server that needs a session id must send it with its initialize answer`,
      );
    }
    this.checkStatus(status, type);
    if (this.body === 'sse') this.sse = new SseParser();
  }

  responseBody(chunk: Buffer): void {
    if (this.sse) {
      const newline = chunk.lastIndexOf(10);
      if (newline === -1) {
        this.sseRest.push(chunk);
        this.sseRestBytes += chunk.length;
      } else {
        let text: string;
        if (this.sseRestBytes === 0) text = chunk.toString('utf8', 0, newline + 1);
        else {
          this.sseRest.push(chunk.subarray(0, newline + 1));
          text = Buffer.concat(this.sseRest).toString('utf8');
          this.sseRest = [];
          this.sseRestBytes = 0;
        }
        if (newline + 1 < chunk.length) {
          this.sseRest.push(chunk.subarray(newline + 1));
          this.sseRestBytes = chunk.length - newline - 1;
        }
        for (const event of this.sse.push(text)) this.event(event);
      }
      // A server that never ends its event (one endless line, data lines without the blank line) would
      // have the monitor keep all of it: the stream is flagged once, and the rest of it only forwarded.
      if (this.sseRestBytes + this.sse.pending > this.owner.maxMessageSize) {
        this.sse = undefined;
        this.sseRest = [];
        this.sseRestBytes = 0;
        this.owner.problem(
          this.where,
          'oversize',
          'server',
          `an SSE event on ${this.stream} exceeds ${this.owner.maxMessageSize} bytes before its end; the rest of this stream is not recorded`,
        );
      }
      return;
    }
    if (this.body === 'sse') return;
    this.responseBytes += chunk.length;
    if (this.body !== 'none' && this.responseBytes <= this.owner.maxMessageSize)
      this.responseChunks.push(chunk);
  }

  responseEnd(): void {
    if (this.sse) {
      const rest = this.sseRestBytes === 0 ? '' : Buffer.concat(this.sseRest).toString('utf8');
      for (const event of this.sse.push(`${rest}\n\n`)) this.event(event);
    } else if (this.body !== 'none' && this.body !== 'sse') {
      const text = decode(this.responseChunks);
      this.responseChunks = [];
      const values = this.responseBytes > this.owner.maxMessageSize ? undefined : parseJson(text);
      // A message under the wrong content type (flagged as such already) is still recorded; a body of
      // another type that is not JSON (an error page) is none of JSON-RPC's business.
      if (values !== undefined) this.serverValues(values);
      else if (this.body === 'json') {
        this.owner.problem(
          this.where,
          'not-json',
          'server',
          'the answer says application/json but its body is not JSON',
          text,
        );
      }
    }
    if (
      this.head.method === 'DELETE' &&
      this.requestSession &&
      this.status !== undefined &&
      this.status < 300
    ) {
      this.owner.endSession(this.requestSession, this.stream);
    }
    this.finish(true);
  }

  /** The exchange broke: the upstream refused, dropped or never answered. */
  failed(message: string): void {
    if (this.finished) return;
    if (this.held) {
      this.owner.deliver('client', this.key, this.where, this.held.values, this.held.at);
      this.held = undefined;
    }
    this.owner.problem(this.where, 'upstream', 'server', message);
    this.finish(false);
  }

  /** The client closed the exchange before its end (it gave up on a stream): not a fault of anyone. */
  closedByClient(): void {
    this.finish(false);
  }

  /** `byServer`: the answer ended as the server meant it to (not dropped, not closed by the client). */
  private finish(byServer: boolean): void {
    if (this.finished) return;
    this.finished = true;
    // A stateless request refused with an HTTP error status was answered by that status.
    const refused = this.status !== undefined && this.status >= 300;
    if (refused) this.owner.refused(this.key, this.requestsSent);
    if (this.stateless) this.owner.endExchange(this.key, this.where, byServer && !refused);
    const summary: HttpExchangeSummary = {
      at: this.owner.wall(),
      ...this.where,
      method: this.head.method,
      path: this.head.path,
      ms: this.owner.clock() - this.started,
    };
    if (this.status !== undefined) summary.status = this.status;
    if (this.contentType !== undefined) summary.contentType = this.contentType;
    this.owner.events.exchange?.(summary);
  }

  private checkStatus(status: number, type: string): void {
    const where = this.where;
    if (this.head.method === 'GET' && status === 200 && type !== 'text/event-stream') {
      this.owner.problem(
        where,
        'content-type',
        'server',
        `a GET stream answered as ${type || 'no content type'}; it must be text/event-stream`,
      );
      return;
    }
    if (this.head.method !== 'POST' || this.sent === undefined) return;
    if (this.requestsSent.size === 0) {
      if (status >= 200 && status < 300 && status !== 202) {
        this.owner.problem(
          where,
          'http-status',
          'server',
          `a POST of only notifications or responses got HTTP ${status}; it must get 202 Accepted with no body`,
        );
      }
      return;
    }
    if (status === 202 && !this.owner.legacy) {
      this.owner.problem(
        where,
        'http-status',
        'server',
        'a POST carrying a request got 202 Accepted; its response must come on this POST, as JSON or an SSE stream',
      );
      return;
    }
    if (status !== 200) return;
    if (type !== 'application/json' && type !== 'text/event-stream') {
      this.owner.problem(
        where,
        'content-type',
        'server',
        `a POST carrying a request was answered as ${type || 'no content type'}; it must be application/json or text/event-stream`,
      );
      return;
    }
    if (!accepts(this.accept, type)) {
      this.owner.problem(
        where,
        'content-type',
        'server',
        `the answer is ${type}, which the client's Accept (${this.accept}) does not allow`,
      );
    }
  }

  private event(event: { event?: string; data: string }): void {
    if (event.event === 'endpoint') {
      this.owner.legacy = true;
      return;
    }
    if (event.event !== undefined && event.event !== 'message') return;
    // An event with no data (a priming event, carrying only the id to resume from) carries no message.
    if (event.data === '') return;
    const values = parseJson(event.data);
    if (values === undefined || !values.every(isMessageLike)) {
      this.owner.problem(
        this.where,
        'sse-event',
        'server',
        'an SSE event whose data is not one JSON-RPC message: each event carries one whole message',
        event.data,
      );
      return;
    }
    this.serverValues(values);
  }

  private serverValues(values: unknown[]): void {
    const at = this.owner.clock();
    for (const value of values) {
      const id = responseId(value);
      if (id !== undefined && !this.owner.legacy) {
        if (this.head.method === 'POST' && !this.requestsSent.has(id)) {
          this.owner.problem(
            this.where,
            'wrong-stream',
            'server',
            `a response to id ${JSON.stringify(id)} on the stream of a POST that did not carry that request; a response goes on the stream its request opened`,
            JSON.stringify(value),
          );
        } else if (this.head.method === 'GET' && !this.resumed) {
          this.owner.problem(
            this.where,
            'wrong-stream',
            'server',
            `a response to id ${JSON.stringify(id)} on the GET stream; responses go on the stream of the POST that carried the request (or one resuming it)`,
            JSON.stringify(value),
          );
        }
      }
      this.owner.deliver('server', this.key, this.where, [value], at);
    }
  }
}

/** The text of a body: most come in one chunk, decoded as it is (Buffer.concat would copy it first). */
function decode(chunks: Buffer[]): string {
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The JSON value of a body or event, as a list of its messages; undefined when it is not JSON. */
function parseJson(text: string): unknown[] | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value : [value];
  } catch {
    return undefined;
  }
}

function isMessageLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'jsonrpc' in value;
}

/** The id of a response (a result or an error, not a request); undefined for anything else. */
function responseId(value: unknown): JsonRpcId | undefined {
  if (typeof value !== 'object' || value === null || 'method' in value) return undefined;
  const { id } = value as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The media type of a Content-Type, lowercase, without its parameters ('' for none). */
function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** The last answer of `accepts`: a client sends the same Accept on every request, and is answered alike. */
let lastAccept = { accept: '', type: '', allowed: false };

/** Whether an Accept header allows a media type (with its wildcards). */
function accepts(accept: string, type: string): boolean {
  if (accept === lastAccept.accept && type === lastAccept.type) return lastAccept.allowed;
  const allowed = acceptsUncached(accept, type);
  lastAccept = { accept, type, allowed };
  return allowed;
}

function acceptsUncached(accept: string, type: string): boolean {
  const [major] = type.split('/');
  return accept
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .some((range) => range === type || range === '*/*' || range === `${major}/*`);
}
