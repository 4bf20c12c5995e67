// What McpServer.serveStdio() does with the process it runs in, which a transport must not do: while the
// server runs, stdout is the protocol channel, so anything else that would write there (console.log, a
// library's stray print, process.stdout.write) is sent to stderr instead and cannot corrupt the stream;
// and once stdin has ended and every answer is flushed, the process exits. The transport itself only
// carries bytes (transport/stdio.ts), so a library user who builds on it keeps the process as it was.

import type { ByteSink } from '../transport/framing/writer.js';
import { StdioServerTransport } from '../transport/stdio.js';
import type { StreamTransportOptions } from '../transport/stream.js';

export interface ServeStdioOptions extends StreamTransportOptions {
  /** Exit the process once the transport has closed and flushed (true). */
  exitOnClose?: boolean;
  /** Send stray writes to stdout to stderr while the server runs (true). */
  guardStdout?: boolean;
}

interface StdoutGuard {
  /** Writes to the real stdout. */
  sink: ByteSink;
  /** Puts process.stdout.write back as it was. */
  restore(): void;
}

function guardStdout(): StdoutGuard {
  const stdout = process.stdout;
  const original = stdout.write;
  const redirect = (...args: unknown[]): boolean =>
    (process.stderr.write as (...a: unknown[]) => boolean).apply(process.stderr, args);
  stdout.write = redirect as typeof stdout.write;
  return {
    sink: {
      write: (data, callback) => original.call(stdout, data, 'utf8', callback),
      once: (event, listener) => stdout.once(event, listener),
    },
    restore: () => {
      if (stdout.write === redirect) stdout.write = original;
    },
  };
}

/** The transport over this process's stdin and stdout, with the process handled as serveStdio promises. */
export function processStdioTransport(options: ServeStdioOptions = {}): StdioServerTransport {
  const { exitOnClose = true, guardStdout: guarded = true, ...streamOptions } = options;
  const guard = guarded ? guardStdout() : undefined;
  const transport = new StdioServerTransport({ ...streamOptions, sink: guard?.sink });
  void transport.whenClosed().then(() => {
    guard?.restore();
    if (exitOnClose) {
      // Everything was flushed before closing; exit even if user code left timers or handles behind.
      process.exitCode ??= 0;
      setImmediate(() => process.exit());
    }
  });
  return transport;
}
