// A URL whose transport is not known in advance, as in a host's configuration: Streamable HTTP first and,
// when the server refuses the first session message with a 4xx (the backwards-compatibility rule of the
// 2025-03-26 revision onwards), the HTTP+SSE transport of 2024-11-05 at the same URL. The refused message
// is sent again the older way, so the caller never sees the switch, only `kind` tells which one won.

import type { JsonRpcPayload } from '../../jsonrpc/messages.js';
import type { SendOptions, Transport, TransportHandlers } from '../../jsonrpc/transport.js';
import { HttpClientTransport, type HttpClientTransportOptions } from './client-transport.js';
import { LegacySseClientTransport } from './legacy-sse-transport.js';

export class FallbackHttpTransport implements Transport {
  readonly streamPerRequest = true;
  private readonly streamable: HttpClientTransport;
  private legacy: LegacySseClientTransport | undefined;
  private handlers: TransportHandlers | undefined;

  constructor(
    readonly url: string | URL,
    options: Omit<HttpClientTransportOptions, 'fallback'> = {},
  ) {
    this.streamable = new HttpClientTransport(url, {
      ...options,
      fallback: (payload) => {
        this.legacy = new LegacySseClientTransport(url, { headers: options.headers });
        if (this.handlers) this.legacy.start(this.handlers);
        this.legacy.send(payload);
        return true;
      },
    });
  }

  /** Which transport the server speaks: known once the first session message was answered. */
  get kind(): 'streamable-http' | 'sse' {
    return this.legacy ? 'sse' : 'streamable-http';
  }

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.streamable.start(handlers);
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    if (this.legacy) this.legacy.send(payload);
    else this.streamable.send(payload, options);
  }

  setProtocolVersion(version: string): void {
    this.streamable.setProtocolVersion(version);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.legacy) await this.legacy.close();
    else await this.streamable.close();
  }
}
