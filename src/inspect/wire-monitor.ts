// Watches the two byte streams of a stdio MCP connection, without changing them, and reports each message
// with its direction and, for responses, the latency of the request they answer; and everything that
// breaks the protocol, with the offending bytes: non-JSON output, raw newlines inside a message, invalid
// JSON-RPC, duplicate ids in flight, responses to unknown ids or to notifications, progress after the
// response, and requests still unanswered when the server exits.

import { classify, type JsonRpcId } from '../jsonrpc/messages.js';
import { FrameDecoder } from '../transport/framing/decoder.js';

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
}

const EXCERPT = 240;

function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

class Side {
  readonly decoder: FrameDecoder;
  /** Requests this side sent that the other has not answered. */
  readonly inFlight = new Map<JsonRpcId, InFlight>();
  /** Progress tokens of requests this side sent that were already answered. */
  readonly finishedTokens = new Set<unknown>();
  /** A frame that was not JSON, kept to see whether the next one completes it (a raw newline). */
  pendingBroken: string | undefined;

  constructor(
    readonly name: Direction,
    onFrame: (text: string) => void,
    onProblem: (problem: WireProblem) => void,
  ) {
    this.decoder = new FrameDecoder({
      frame: onFrame,
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

  constructor(
    private readonly events: WireEvents,
    options: { clock?: () => number } = {},
  ) {
    this.clock = options.clock ?? (() => performance.now());
    const problem = (p: WireProblem) => this.events.problem?.(p);
    this.client = new Side('client', (text) => this.frame(this.client, this.server, text), problem);
    this.server = new Side('server', (text) => this.frame(this.server, this.client, text), problem);
  }

  /** Bytes the client wrote to the server's stdin. */
  clientBytes(chunk: Buffer): void {
    this.client.decoder.push(chunk);
  }

  /** Bytes the server wrote to its stdout. */
  serverBytes(chunk: Buffer): void {
    this.server.decoder.push(chunk);
  }

  clientEnded(): void {
    this.client.decoder.end();
    this.flushBroken(this.client);
  }

  /** The server exited: whatever it left unanswered is reported. */
  serverExited(description: string): void {
    this.server.decoder.end();
    this.flushBroken(this.server);
    for (const [id, request] of this.client.inFlight) {
      this.events.problem?.({
        kind: 'unanswered',
        from: 'server',
        message: `"${request.method}" (id ${JSON.stringify(id)}) was never answered; the server ${description}`,
      });
    }
    this.client.inFlight.clear();
  }

  /** Requests of the client still waiting for the server. */
  get pendingRequests(): number {
    return this.client.inFlight.size;
  }

  private frame(from: Side, to: Side, text: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      const previous = from.pendingBroken;
      if (previous !== undefined) {
        // Two broken frames that make one message: a raw newline inside it split it.
        const joined = `${previous}\n${text}`;
        try {
          payload = JSON.parse(joined);
          from.pendingBroken = undefined;
          this.events.problem?.({
            kind: 'raw-newline',
            from: from.name,
            message:
              'a message was split across lines by a raw newline; newlines inside JSON strings must be escaped as \\n',
            bytes: excerpt(joined),
          });
          this.deliver(from, to, payload);
          return;
        } catch {
          this.reportNotJson(from, previous);
        }
      }
      from.pendingBroken = text;
      return;
    }
    this.flushBroken(from);
    this.deliver(from, to, payload);
  }

  private flushBroken(side: Side): void {
    if (side.pendingBroken === undefined) return;
    this.reportNotJson(side, side.pendingBroken);
    side.pendingBroken = undefined;
  }

  private reportNotJson(side: Side, text: string): void {
    this.events.problem?.({
      kind: 'not-json',
      from: side.name,
      message:
        side.name === 'server'
          ? 'the server wrote a line to stdout that is not JSON; logs and prints belong on stderr'
          : 'the client wrote a line that is not JSON',
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
      from.inFlight.set(id, { method, at: now, progressToken: meta?.progressToken });
      this.events.message?.({ from: from.name, payload: value });
      return;
    }
    if (classified.kind === 'notification') {
      const { method, params } = classified.message;
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

/** A result or error with no id at all: what a peer sends when it wrongly answers a notification. */
function answersNothing(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || 'method' in value) return false;
  const record = value as Record<string, unknown>;
  return ('result' in record || 'error' in record) && (record.id === undefined || record.id === null);
}
