// A server under examination, as the checks see it: every message it sent is kept as a frame, parsed or
// not, so that a check can look for what it expects and say what came instead. How bytes reach the
// server is the subclass's: a fresh process over stdio (stdio-peer.ts) or a session over Streamable
// HTTP (http-peer.ts).

import { classify, type JsonRpcId } from '../jsonrpc/messages.js';

/** One message the server sent (a line on stdout, a JSON body, an SSE event), or what came instead. */
export interface OutputFrame {
  text: string;
  /** The parsed value, or undefined when the line was not JSON. */
  value: unknown;
  json: boolean;
}

/** Who the doctor says it is, in every initialize and every stateless envelope. */
export const DOCTOR_CLIENT = { name: 'mcpwire-doctor', version: '1.0.0' };

/** The initialize request a check sends by hand (the handshake itself is Peer.initialize). */
export function initializeMessage(id: string | number, protocolVersion = '2025-11-25'): object {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: DOCTOR_CLIENT },
  };
}

export class PeerTimeout extends Error {
  override readonly name = 'PeerTimeout';
}

/** The transport answered a request without its response (an HTTP error to its POST, say): no use waiting. */
export class PeerRefused extends Error {
  override readonly name = 'PeerRefused';
}

export abstract class Peer {
  readonly frames: OutputFrame[] = [];
  /** Requests the transport answered without a response, with what came instead (HTTP only). */
  protected readonly refused = new Map<JsonRpcId | null, string>();
  private readonly waiters: Array<() => void> = [];
  private nextId = 1000;

  constructor(readonly timeoutMs: number) {}

  /** What the server wrote on stderr, where it has one (the tail). */
  get stderr(): string {
    return '';
  }

  /** How the server process ended, once it has; a remote server never does. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return undefined;
  }

  /** Sends bytes as they are: over stdio one write, over HTTP each line its own POST. */
  abstract write(bytes: string | Buffer): void;

  /** Ends the session (and the process, where there is one). */
  abstract dispose(): Promise<void>;

  /** A fresh id no check uses on purpose. */
  id(): number {
    return this.nextId++;
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** Every parsed message the server sent that answers `id` (by exact JSON value). */
  responsesTo(id: JsonRpcId | null): unknown[] {
    const found: unknown[] = [];
    for (const frame of this.frames) {
      const items = Array.isArray(frame.value) ? frame.value : [frame.value];
      for (const item of items) {
        const c = classify(item);
        if (c.kind === 'response' && c.message.id === id) found.push(item);
      }
    }
    return found;
  }

  /** Waits for a frame matching `predicate`; throws PeerTimeout (or when the server exits first). */
  async waitFor<T>(predicate: () => T | undefined, what: string, timeoutMs = this.timeoutMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const seen = this.frames.length;
    for (;;) {
      const found = predicate();
      if (found !== undefined) return found;
      const exit = this.exit;
      if (exit) throw new PeerTimeout(`the server exited before ${what} (${describeExit(exit)})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new PeerTimeout(`waited ${timeoutMs} ms for ${what}; ${this.cameSince(seen)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the response to `id`. */
  response(
    id: JsonRpcId | null,
    what = `a response to id ${JSON.stringify(id)}`,
  ): Promise<Record<string, unknown>> {
    return this.waitFor(() => {
      const found = this.responsesTo(id)[0] as Record<string, unknown> | undefined;
      if (found !== undefined) return found;
      const instead = this.refused.get(id);
      if (instead !== undefined) throw new PeerRefused(`instead of ${what} came ${instead}`);
      return undefined;
    }, what);
  }

  /** Sends a request and waits for its response. */
  async request(
    method: string,
    params?: unknown,
    id: JsonRpcId = this.id(),
  ): Promise<Record<string, unknown>> {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.response(id, `a response to "${method}"`);
  }

  /** The handshake; returns the initialize result (or throws with what went wrong). */
  async initialize(
    protocolVersion = '2025-11-25',
    capabilities: object = {},
  ): Promise<Record<string, unknown>> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities,
      clientInfo: DOCTOR_CLIENT,
    });
    if (!('result' in response)) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    this.negotiated(response.result as Record<string, unknown>);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response.result as Record<string, unknown>;
  }

  /** Told the initialize result before notifications/initialized goes out (HTTP sends the version). */
  protected negotiated(_result: Record<string, unknown>): void {}

  /** Keeps what the server sent and wakes whoever waits for it. */
  protected received(frame: OutputFrame): void {
    this.frames.push(frame);
    this.wake();
  }

  /** Wakes the waiters to look again (a frame came, or the server ended). */
  protected wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** What the server wrote from frame `index` on, for a timeout message: "nothing came" only if nothing did. */
  private cameSince(index: number): string {
    const frames = this.frames.slice(index);
    if (frames.length === 0) return 'nothing came';
    const shown = frames
      .slice(0, 3)
      .map(
        (f) => `${f.json ? '' : '(not JSON) '}${f.text.length > 120 ? `${f.text.slice(0, 120)}…` : f.text}`,
      );
    return `what came instead (${frames.length} line(s)): ${shown.join(' | ')}${frames.length > 3 ? ' | …' : ''}`;
  }
}

export function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}
