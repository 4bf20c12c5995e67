// The proxy's side of `mcpwire trace --http`'s monitor thread. The proxy thread only copies bytes; what
// passed is told to a worker thread (trace-http-monitor.ts), which parses, checks and records it. Watching
// in the proxy's own thread, even after the bytes were on their way, cost every call the monitor's CPU
// time (parsing both bodies, the session's wire monitor, formatting the records): the next request of a
// client waited for it, and trace added 1.5x the latency of a byte-copying proxy. In a thread of its own
// the monitor works while the proxy waits for the client or the upstream.
//
// What crosses: each event with the time it happened (so latencies are the proxy's, not the thread's)
// and, for body chunks, a copy of exactly their bytes, moved rather than cloned (a socket's chunk may be a
// view of a much larger buffer, all of which a clone would copy). Events go in batches, one message per
// turn of the event loop, in the order they happened, which the monitor relies on (an initialize's answer
// names the session that the next request belongs to).

import { Worker } from 'node:worker_threads';
import type { HttpRequestHead } from '../../inspect/http-monitor.js';
import type { TraceFormat } from '../../inspect/trace-format.js';

/** One thing that passed the proxy, for exchange `x`, at `at` (ms since the epoch, sub-ms precision). */
export type ExchangeEvent =
  | { x: number; at: number; k: 'open'; head: HttpRequestHead }
  | { x: number; at: number; k: 'requestBody' | 'responseBody'; chunk: Uint8Array }
  | { x: number; at: number; k: 'response'; status: number; headers: HttpRequestHead['headers'] }
  | { x: number; at: number; k: 'failed'; message: string }
  | { x: number; at: number; k: 'requestEnd' | 'responseEnd' | 'closedByClient' | 'done' };

/** What the monitor thread is started with. */
export interface MonitorSettings {
  /** The log file, or undefined for stderr. */
  file: string | undefined;
  format: TraceFormat;
  colour: boolean;
  batchMs: number;
}

/** The thread's messages back: it has written and closed the log. */
export const CLOSED = 'closed';

/** What the proxy tells about one exchange, as it happens. */
export interface ExchangeTeller {
  requestBody(chunk: Buffer): void;
  requestEnd(): void;
  response(status: number, headers: HttpRequestHead['headers']): void;
  responseBody(chunk: Buffer): void;
  responseEnd(): void;
  failed(message: string): void;
  closedByClient(): void;
  /** Both sides of the exchange have closed: the thread may forget it. */
  done(): void;
}

const now = () => performance.timeOrigin + performance.now();

export class MonitorLink {
  private readonly worker: Worker;
  private batch: ExchangeEvent[] = [];
  private moved: ArrayBuffer[] = [];
  private exchanges = 0;
  private broken = false;
  private readonly closed: Promise<void>;

  constructor(settings: MonitorSettings) {
    this.worker = new Worker(workerFile(), { workerData: settings, stdout: false, stderr: false });
    this.closed = new Promise((resolve) => {
      this.worker.on('message', (message) => {
        if (message === CLOSED) resolve();
      });
      this.worker.once('exit', () => resolve());
    });
    // A monitor that fails must not take the proxy with it: the traffic goes on, unrecorded, and the
    // person is told once.
    this.worker.once('error', (error) => {
      this.broken = true;
      this.batch = [];
      this.moved = [];
      process.stderr.write(
        `mcpwire trace: the monitor failed (${error.message}); forwarding goes on, unrecorded\n`,
      );
    });
  }

  /** A request arrived: returns what to tell about it from here on. */
  exchange(head: HttpRequestHead): ExchangeTeller {
    const x = ++this.exchanges;
    this.push({ x, at: now(), k: 'open', head });
    const body = (k: 'requestBody' | 'responseBody') => (chunk: Buffer) => {
      const copy = new Uint8Array(chunk);
      this.moved.push(copy.buffer);
      this.push({ x, at: now(), k, chunk: copy });
    };
    const mark = (k: 'requestEnd' | 'responseEnd' | 'closedByClient' | 'done') => () =>
      this.push({ x, at: now(), k });
    return {
      requestBody: body('requestBody'),
      requestEnd: mark('requestEnd'),
      response: (status, headers) => this.push({ x, at: now(), k: 'response', status, headers }),
      responseBody: body('responseBody'),
      responseEnd: mark('responseEnd'),
      failed: (message) => this.push({ x, at: now(), k: 'failed', message }),
      closedByClient: mark('closedByClient'),
      done: mark('done'),
    };
  }

  /** Sends what is pending, asks the thread to write everything and close the log, and waits for it. */
  async close(): Promise<void> {
    this.flush();
    if (!this.broken) this.worker.postMessage('stop');
    await this.closed;
    await this.worker.terminate();
  }

  private push(event: ExchangeEvent): void {
    if (this.broken) return;
    if (this.batch.length === 0) setImmediate(() => this.flush());
    this.batch.push(event);
  }

  private flush(): void {
    if (this.batch.length === 0 || this.broken) return;
    const batch = this.batch;
    const moved = this.moved;
    this.batch = [];
    this.moved = [];
    this.worker.postMessage(batch, moved);
  }
}

/** The thread's entry: the compiled file beside this one (or the source, when run from it by tsx). */
function workerFile(): URL {
  const here = import.meta.url;
  return new URL(`./trace-http-monitor.${here.endsWith('.ts') ? 'ts' : 'js'}`, here);
}
