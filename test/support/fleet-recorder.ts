// What a test of a fleet sees of its requests: HAProxy names the instance that answered each one
// (X-Fleet-Instance), and a Recorder notes them for a client (the SDKs take its fetch; mcpwire's HTTP
// transport has its requester watched), so a test checks that its requests did cross instances.

import type { HttpClientTransport } from '../../src/transport/http/client-transport.js';

export interface Served {
  method: string;
  /** The JSON-RPC message POSTed, if any. */
  body: Record<string, unknown> | undefined;
  lastEventId: string | undefined;
  /** HAProxy's name of the instance that answered (i1, i2, i3). */
  instance: string;
}

/** Notes which instance answered each request a client made (the SDKs' `fetch`, or mcpwire's requests). */
export class Recorder {
  readonly served: Served[] = [];
  /** The session id the server gave (handshake era). */
  sessionId: string | undefined;
  private readonly noted = when();

  /** Resolves once a request matching `match` was answered (its headers at least). */
  answered(match: (served: Served) => boolean): Promise<void> {
    return this.noted.until(() => this.served.some(match));
  }

  note(
    init: { method?: string; body?: unknown; headers?: unknown } | undefined,
    headers: { get(name: string): string | null },
  ): void {
    const sent = new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]);
    this.served.push({
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      lastEventId: sent.get('last-event-id') ?? undefined,
      instance: headers.get('x-fleet-instance') ?? '',
    });
    this.sessionId ??= headers.get('mcp-session-id') ?? undefined;
    this.noted.poke();
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    this.note(init, response.headers);
    return response;
  };

  /** mcpwire's HTTP transport takes no fetch: its requester is watched instead. */
  watch(transport: HttpClientTransport): HttpClientTransport {
    const requester = (transport as unknown as { requester: { request: Requester } }).requester;
    const request = requester.request.bind(requester);
    requester.request = async (url, options) => {
      const answer = await request(url, options);
      this.note(options, answer.headers);
      return answer;
    };
    return transport;
  }

  /** The instance that answered the last POST of a message matching `match`. */
  instanceOf(match: (message: Record<string, unknown>) => boolean): string | undefined {
    return this.served.findLast((s) => s.body && match(s.body))?.instance;
  }

  /** The instance holding the session's GET stream (the last GET without Last-Event-ID). */
  get streamHolder(): string | undefined {
    return this.served.findLast((s) => s.method === 'GET' && s.lastEventId === undefined)?.instance;
  }
}

type Requester = (
  url: URL,
  options: { method: string; body?: string; headers?: Record<string, string> },
) => Promise<{ headers: { get(name: string): string | null } }>;

/** Resolves once `check` holds, tested each time `poke` is called. */
export function when() {
  const waiting: Array<{ check: () => boolean; resolve: () => void }> = [];
  return {
    until(check: () => boolean): Promise<void> {
      if (check()) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ check, resolve }));
    },
    poke(): void {
      for (const entry of [...waiting]) {
        if (entry.check()) {
          waiting.splice(waiting.indexOf(entry), 1);
          entry.resolve();
        }
      }
    },
  };
}
