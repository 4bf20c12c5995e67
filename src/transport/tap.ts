// A transport that lets an observer see every message in both directions, unchanged: for the demo, for
// logging, and for tests that inspect traffic.

import type { JsonRpcPayload } from '../jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../jsonrpc/transport.js';

export interface TapObserver {
  sent?(payload: JsonRpcPayload): void;
  received?(payload: unknown): void;
}

export function tapTransport(inner: Transport, observer: TapObserver): Transport {
  return {
    start(handlers: TransportHandlers) {
      inner.start({
        ...handlers,
        message: (payload) => {
          observer.received?.(payload);
          handlers.message(payload);
        },
      });
    },
    send(payload) {
      observer.sent?.(payload);
      inner.send(payload);
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
  };
}
