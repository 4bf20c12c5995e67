// The server side of stdio: messages in on stdin, out on stdout. On stdin end the connection finishes the
// requests in flight and closes; the process then exits once every response is flushed.

import type { Readable, Writable } from 'node:stream';
import { guardStdout, type StdoutGuard } from './stdout-guard.js';
import { StreamTransport, type StreamTransportOptions } from './stream.js';

export interface StdioServerTransportOptions extends StreamTransportOptions {
  /** Exit the process once the transport has closed and flushed (true). */
  exitOnClose?: boolean;
  /** Send stray writes to stdout to stderr while the transport runs (true). */
  guardStdout?: boolean;
  /** For tests: streams to use instead of process.stdin / process.stdout (no guard is installed then). */
  stdin?: Readable;
  stdout?: Writable;
}

export class StdioServerTransport extends StreamTransport {
  private readonly guard: StdoutGuard | undefined;

  constructor(private readonly stdioOptions: StdioServerTransportOptions = {}) {
    const custom = stdioOptions.stdout !== undefined;
    const guard = !custom && (stdioOptions.guardStdout ?? true) ? guardStdout() : undefined;
    const output = stdioOptions.stdout ?? process.stdout;
    super(stdioOptions.stdin ?? process.stdin, guard?.sink ?? output, stdioOptions);
    this.guard = guard;
    output.on('error', (error: Error) => this.outputFailed(error));
  }

  protected override finish(reason: Parameters<StreamTransport['finish']>[0]): void {
    super.finish(reason);
    this.afterClose();
  }

  private afterClose(): void {
    this.guard?.restore();
    if (this.stdioOptions.exitOnClose ?? true) {
      // Everything was flushed before closing; exit even if user code left timers or handles behind.
      process.exitCode ??= 0;
      setImmediate(() => process.exit());
    }
  }
}
