// While a stdio server runs, stdout is the protocol channel. Anything else that would write there
// (console.log, a library's stray print, process.stdout.write) is sent to stderr instead, so that no
// stray print can corrupt the stream. The transport writes through the sink this returns.

import type { ByteSink } from './framing/writer.js';

export interface StdoutGuard {
  /** Writes to the real stdout. */
  sink: ByteSink;
  /** Puts process.stdout.write back as it was. */
  restore(): void;
}

export function guardStdout(): StdoutGuard {
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
