// Two transports linked to each other in memory, for fast and exact tests. Every message is copied through
// JSON on the way, as on a real wire, so a value that does not survive serialisation is caught here too.

import type { CloseReason } from '../jsonrpc/errors.js';
import type { JsonRpcPayload } from '../jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../jsonrpc/transport.js';

export class InMemoryTransport implements Transport {
  peer: InMemoryTransport | undefined;
  private handlers: TransportHandlers | undefined;
  private readonly inbox: unknown[] = [];
  private closeReason: CloseReason | undefined;
  /** Every payload this side sent, as it went on the wire (for tests that inspect traffic). */
  readonly sent: unknown[] = [];

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    for (const payload of this.inbox.splice(0)) handlers.message(payload);
  }

  send(payload: JsonRpcPayload): void {
    if (this.closeReason) return;
    const text = JSON.stringify(payload);
    const copy = JSON.parse(text) as unknown;
    this.sent.push(copy);
    const peer = this.peer;
    queueMicrotask(() => peer?.deliver(JSON.parse(text)));
  }

  /** Delivers a raw value as if the peer had sent it, valid or not. */
  deliver(payload: unknown): void {
    if (this.closeReason) return;
    if (this.handlers) this.handlers.message(payload);
    else this.inbox.push(payload);
  }

  flush(): Promise<void> {
    return new Promise((resolve) => queueMicrotask(resolve));
  }

  async close(): Promise<void> {
    await this.flush();
    const reason = { message: 'closed' };
    this.end(reason);
    this.peer?.end({ message: 'the peer closed the connection' });
  }

  private end(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.handlers?.closed(reason);
  }
}

export function createInMemoryPair(): [InMemoryTransport, InMemoryTransport] {
  const a = new InMemoryTransport();
  const b = new InMemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
