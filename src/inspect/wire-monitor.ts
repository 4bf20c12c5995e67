// Watches the two byte streams of a stdio MCP connection, without changing them, and reports each message
// with its direction and, for responses, the latency of the request they answer; and everything that
// breaks the protocol, with the offending bytes: non-JSON output, raw newlines inside a message, invalid
// JSON-RPC, duplicate ids in flight, responses to unknown ids or to notifications, progress after the
// response, requests (and lines that are not JSON, which are owed a parse error) still unanswered when the
// server exits, and a server that keeps running after its stdin closed.

import { classify, type JsonRpcId } from '../jsonrpc/messages.js';
import { FrameDecoder } from '../transport/framing/decoder.js';
import { excerpt, LineReassembler, type ReassemblyEvents } from './reassembly.js';
import { FINISHED_TOKENS_KEPT, RecentTokens } from './recent-tokens.js';

export type Direction = 'client' | 'server';

export type ProblemKind =
  | 'not-json'
  | 'raw-newline'
  | 'invalid-jsonrpc'
  | 'duplicate-id'
  | 'unknown-response'
  | 'response-to-notification'
  | 'progress-after-response'
  | 'unanswered'
  | 'no-exit'
  | 'oversize'
  | 'framing';

export interface WireProblem {
  kind: ProblemKind;
  /** Who sent the offending bytes. */
  from: Direction;
  message: string;
  /** The offending bytes (or their start), when there are any. */
  bytes?: string;
}

export interface WireMessage {
  from: Direction;
  payload: unknown;
  /** For a response: how long after its request it came, in milliseconds. */
  latencyMs?: number;
  /** For a response: the method of the request it answers. */
  answers?: string;
}

export interface WireEvents {
  message?(message: WireMessage): void;
  problem?(problem: WireProblem): void;
}

interface InFlight {
  method: string;
  at: number;
  progressToken: unknown;
  /** The sender cancelled it: the other side may answer it or not, and neither is a fault. */
  cancelled?: boolean;
}

class Side {
  readonly decoder: FrameDecoder;
  /** Requests this side sent that the other has not answered. */
  readonly inFlight = new Map<JsonRpcId, InFlight>();
  /** Progress tokens of requests this side sent that were already answered (the most recent ones). */
  readonly finishedTokens = new RecentTokens(FINISHED_TOKENS_KEPT);
  /** Frames that were not JSON, gathered while they may be one message split by raw newlines. */
  readonly reassembler: LineReassembler;
  /** Frames this side sent that were not JSON: each is owed a -32700 Parse error response. */
  notJson = 0;
  /** Error responses with id null this side sent: what answers a line that was not JSON. */
  nullIdErrors = 0;

  constructor(
    readonly name: Direction,
    events: ReassemblyEvents,
    onProblem: (problem: WireProblem) => void,
  ) {
    this.reassembler = new LineReassembler(events, isMessageLike);
    this.decoder = new FrameDecoder({
      frame: (text) => this.reassembler.frame(text),
      oversize: (head, size, limit) =>
        onProblem({
          kind: 'oversize',
          from: name,
          message: `a ${size}-byte message exceeds ${limit} bytes`,
          bytes: excerpt(head),
        }),
      framingError: (message, bytes) => onProblem({ kind: 'framing', from: name, message, bytes }),
    });
  }
}

export class WireMonitor {
  private readonly client: Side;
  private readonly server: Side;
  private readonly clock: () => number;
  private clientEndedAt: number | undefined;

  constructor(
    private readonly events: WireEvents,
    options: { clock?: () => number } = {},
  ) {
    this.clock = options.clock ?? (() => performance.now());
    const problem = (p: WireProblem) => this.events.problem?.(p);
    this.client = new Side('client', this.reassemblyEvents('client'), problem);
    this.server = new Side('server', this.reassemblyEvents('server'), problem);
  }

  /** Bytes the client wrote to the server's stdin. */
  clientBytes(chunk: Buffer): void {
    this.client.decoder.push(chunk);
  }

  /** Bytes the server wrote to its stdout. */
  serverBytes(chunk: Buffer): void {
    this.server.decoder.push(chunk);
  }

  /** A whole message (or batch) the client sent, already parsed: what an HTTP body or SSE event carries. */
  clientValue(value: unknown): void {
    this.deliver(this.client, this.server, value);
  }

  /** A whole message (or batch) the server sent, already parsed. */
  serverValue(value: unknown): void {
    this.deliver(this.server, this.client, value);
  }

  /** A request of the client that its transport refused (an HTTP error status): it is owed nothing more. */
  clientRequestRefused(id: JsonRpcId): void {
    this.client.inFlight.delete(id);
  }

  clientEnded(): void {
    this.clientEndedAt = this.clock();
    this.client.decoder.end();
    this.client.reassembler.flush();
  }

  /** Called when the server is still running a while after the client closed its stdin. */
  serverStillRunning(): void {
    const after =
      this.clientEndedAt === undefined ? '' : ` ${Math.round(this.clock() - this.clientEndedAt)} ms`;
    this.events.problem?.({
      kind: 'no-exit',
      from: 'server',
      message: `the server is still running${after} after its stdin closed; a stdio server should exit when its input ends`,
    });
  }

  /** The server exited: whatever it left unanswered is reported. */
  serverExited(description: string): void {
    this.server.decoder.end();
    this.server.reassembler.flush();
    for (const [id, request] of this.client.inFlight) {
      if (request.cancelled) continue;
      this.events.problem?.({
        kind: 'unanswered',
        from: 'server',
        message: `"${request.method}" (id ${JSON.stringify(id)}) was never answered; the server ${description}`,
      });
    }
    this.client.inFlight.clear();
    const owed = this.client.notJson + this.client.reassembler.pendingLines - this.server.nullIdErrors;
    if (owed > 0) {
      this.events.problem?.({
        kind: 'unanswered',
        from: 'server',
        message: `${owed === 1 ? 'a line' : `${owed} lines`} of the client that ${owed === 1 ? 'was' : 'were'} not JSON never got a -32700 Parse error response (id null); the server ${description}`,
      });
    }
    this.client.notJson = 0;
    this.server.nullIdErrors = 0;
  }

  /** Requests of the client still waiting for the server. */
  get pendingRequests(): number {
    let pending = 0;
    for (const request of this.client.inFlight.values()) if (!request.cancelled) pending++;
    return pending;
  }

  /** Progress tokens of answered requests still remembered, on both sides (what late progress is told by). */
  get finishedProgressTokens(): number {
    return this.client.finishedTokens.size + this.server.finishedTokens.size;
  }

  /** What a side's reassembler reports, turned into deliveries and problems of that side. */
  private reassemblyEvents(name: Direction): ReassemblyEvents {
    // The sides are read when a frame arrives (they do not exist yet here), with nothing made per frame.
    const from = () => (name === 'client' ? this.client : this.server);
    const to = () => (name === 'client' ? this.server : this.client);
    return {
      value: (payload) => this.deliver(from(), to(), payload),
      rawNewline: (lines, bytes) =>
        this.events.problem?.({
          kind: 'raw-newline',
          from: name,
          message: `a message was split across ${lines} lines by raw newlines; a message is one line, and newlines inside JSON strings must be escaped as \\n`,
          bytes: excerpt(bytes),
        }),
      notJson: (text, lines) => this.reportNotJson(from(), text, lines),
    };
  }

  /** `lines` lines that are not JSON: `text`, joined by newlines when there are several. */
  private reportNotJson(side: Side, text: string, lines: number): void {
    side.notJson += lines;
    const what = lines === 1 ? 'a line' : `${lines} lines`;
    const are = lines === 1 ? 'is' : 'are';
    this.events.problem?.({
      kind: 'not-json',
      from: side.name,
      message:
        side.name === 'server'
          ? `the server wrote ${what} to stdout that ${are} not JSON; logs and prints belong on stderr`
          : `the client wrote ${what} that ${are} not JSON`,
      bytes: excerpt(text),
    });
  }

  private deliver(from: Side, to: Side, payload: unknown): void {
    const items = Array.isArray(payload) ? payload : [payload];
    for (const item of items) this.one(from, to, item);
  }

  private one(from: Side, to: Side, value: unknown): void {
    const classified = classify(value);
    const now = this.clock();
    if (classified.kind === 'invalid') {
      if (answersNothing(value)) {
        this.events.problem?.({
          kind: 'response-to-notification',
          from: from.name,
          message:
            "a response without an id: notifications must never be answered, and a response must echo its request's id",
          bytes: excerpt(JSON.stringify(value)),
        });
        this.events.message?.({ from: from.name, payload: value });
        return;
      }
      this.events.problem?.({
        kind: 'invalid-jsonrpc',
        from: from.name,
        message: `not a valid JSON-RPC 2.0 message: ${classified.reason}`,
        bytes: excerpt(JSON.stringify(value)),
      });
      this.events.message?.({ from: from.name, payload: value });
      return;
    }
    if (classified.kind === 'request') {
      const { id, method, params } = classified.message;
      if (from.inFlight.has(id)) {
        this.events.problem?.({
          kind: 'duplicate-id',
          from: from.name,
          message: `id ${JSON.stringify(id)} is already used by "${from.inFlight.get(id)!.method}", which is still in flight; ids must be unique among requests in flight`,
          bytes: excerpt(JSON.stringify(value)),
        });
      }
      const meta = (params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
      // A token reused by a request in flight belongs to that request now: its progress is not late.
      if (meta?.progressToken !== undefined) from.finishedTokens.delete(meta.progressToken);
      from.inFlight.set(id, { method, at: now, progressToken: meta?.progressToken });
      this.events.message?.({ from: from.name, payload: value });
      return;
    }
    if (classified.kind === 'notification') {
      const { method, params } = classified.message;
      if (method === 'notifications/cancelled') {
        const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
        const request = from.inFlight.get(requestId as JsonRpcId);
        if (request) request.cancelled = true;
      }
      if (method === 'notifications/progress') {
        const token = (params as { progressToken?: unknown } | undefined)?.progressToken;
        if (to.finishedTokens.has(token)) {
          this.events.problem?.({
            kind: 'progress-after-response',
            from: from.name,
            message: `progress for token ${JSON.stringify(token)} arrived after the response to its request; progress must stop when the request is answered`,
            bytes: excerpt(JSON.stringify(value)),
          });
        }
      }
      this.events.message?.({ from: from.name, payload: value });
      return;
    }
    const { id } = classified.message;
    const request = id === null ? undefined : to.inFlight.get(id);
    if (!request) {
      const isParseError = 'error' in classified.message && id === null;
      if (isParseError) from.nullIdErrors++;
      if (!isParseError) {
        this.events.problem?.({
          kind: id === null ? 'response-to-notification' : 'unknown-response',
          from: from.name,
          message:
            id === null
              ? 'a response without an id that is not an error: notifications must never be answered'
              : `a response to id ${JSON.stringify(id)}, which matches no request in flight`,
          bytes: excerpt(JSON.stringify(value)),
        });
      }
      this.events.message?.({ from: from.name, payload: value });
      return;
    }
    to.inFlight.delete(id!);
    if (request.progressToken !== undefined) to.finishedTokens.add(request.progressToken);
    this.events.message?.({
      from: from.name,
      payload: value,
      latencyMs: now - request.at,
      answers: request.method,
    });
  }
}

/** A JSON-RPC message (or a batch of them) on its own line, not a fragment of a broken one. */
function isMessageLike(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'object' && first !== null && !Array.isArray(first) && 'jsonrpc' in first;
}

/** A result or error with no id at all: what a peer sends when it wrongly answers a notification. */
function answersNothing(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || 'method' in value) return false;
  const record = value as Record<string, unknown>;
  return ('result' in record || 'error' in record) && (record.id === undefined || record.id === null);
}
