// Where `mcpwire trace` writes its records (stderr, or a log file opened before anything starts), batched
// so that a busy connection costs the proxy one write per turn of the event loop, not one per message.

import { closeSync, createWriteStream, openSync } from 'node:fs';
import { formatRecord, type TraceFormat, type TraceRecord } from '../inspect/trace-format.js';
import { UsageError } from './usage.js';

export interface TraceLog {
  record(record: TraceRecord): void;
  /** Writes what is pending now. */
  flush(): void;
  /** Flushes and, for a file, closes it; resolves once everything is written. */
  close(): Promise<void>;
}

/**
 * `batchMs`: how long records may wait to be written together. 0 (stdio) writes them at the end of the
 * turn of the event loop that made them; a proxy of HTTP exchanges, whose calls each take several turns,
 * writes them every few milliseconds instead, and formats them then too, off the path of the exchange.
 */
export function openTraceLog(file: string | undefined, format: TraceFormat, batchMs = 0): TraceLog {
  // The log is opened before the server is spawned or the proxy listens: a path that cannot be written
  // is one clear line and exit 2, not a stack trace from a stream error later (which, in a host's
  // configuration, looked like the server itself dying).
  if (file) checkWritable(file);
  const out = file ? createWriteStream(file, { flags: 'a' }) : process.stderr;
  const colour = !file && process.stderr.isTTY === true && !process.env.NO_COLOR;
  let pending: TraceRecord[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    let text = '';
    for (const record of pending) text += formatRecord(record, format, colour);
    pending = [];
    out.write(text);
  };
  return {
    record(record) {
      if (pending.length === 0) {
        if (batchMs === 0) setImmediate(flush);
        else setTimeout(flush, batchMs);
      }
      pending.push(record);
    },
    flush,
    close() {
      flush();
      if (out === process.stderr) return Promise.resolve();
      return new Promise((resolve) => (out as NodeJS.WritableStream).end(resolve));
    },
  };
}

/** Checks that the trace log can be opened for appending; a UsageError that names the path otherwise. */
function checkWritable(file: string): void {
  try {
    closeSync(openSync(file, 'a'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'its folder does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (error as Error).message;
    throw new UsageError(
      `cannot write the trace log ${file}: ${why}`,
      'Give --log a file in a folder that exists and is writable.',
    );
  }
}
