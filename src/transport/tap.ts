// A transport that lets an observer see every message in both directions, unchanged: for the demo, for
// logging, and for tests that inspect traffic.

import type { JsonRpcPayload } from '../jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../jsonrpc/transport.js';

export interface TapObserver {
  sent?(payload: JsonRpcPayload): void;
  received?(payload: unknown): void;
}

export function tapTransport(inner: Transport, observer: TapObserver): Transport {
  // Everything else passes through as it is: the send options, what the transport declares
  // (streamPerRequest) and what it is told (the protocol version). A tap that dropped them turned an
  // HTTP client's standalone requests into session requests without their headers.
  return {
    streamPerRequest: inner.streamPerRequest,
    setProtocolVersion: inner.setProtocolVersion?.bind(inner),
    start(handlers: TransportHandlers) {
      // Each handler forwarded by name (a class instance's methods would not survive a spread).
      inner.start({
        message: (payload, info) => {
          observer.received?.(payload);
          handlers.message(payload, info);
        },
        frameError: (error) => handlers.frameError(error),
        inputEnded: () => handlers.inputEnded?.(),
        held: (holding) => handlers.held?.(holding),
        closed: (reason) => handlers.closed(reason),
      });
    },
    send(payload, options) {
      observer.sent?.(payload);
      inner.send(payload, options);
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
  };
}
