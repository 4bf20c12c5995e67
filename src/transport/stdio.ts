// The server side of stdio: messages in on stdin, out on stdout. On stdin end the connection finishes the
// requests in flight and closes the transport. Only bytes: guarding stdout against stray prints and exiting
// the process belong to whoever owns the process (McpServer.serveStdio, in server/stdio-process.ts).

import type { Readable, Writable } from 'node:stream';
import type { ByteSink } from './framing/writer.js';
import { StreamTransport, type StreamTransportOptions } from './stream.js';

export interface StdioServerTransportOptions extends StreamTransportOptions {
  /** Streams to use instead of process.stdin / process.stdout. */
  stdin?: Readable;
  stdout?: Writable;
  /**
   * Writes frames through this instead of stdout's own write (stdout's errors are still watched): for a
   * caller that has redirected stdout.write, as serveStdio does to keep stray prints off the protocol.
   */
  sink?: ByteSink;
}

export class StdioServerTransport extends StreamTransport {
  constructor(options: StdioServerTransportOptions = {}) {
    const output = options.stdout ?? process.stdout;
    super(options.stdin ?? process.stdin, options.sink ?? output, options);
    output.on('error', (error: Error) => this.outputFailed(error));
  }
}
