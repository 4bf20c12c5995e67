// The monitor thread of `mcpwire trace --http` (started by trace-http-link.ts): it replays what the proxy
// tells it into an HttpMonitor, at the times the proxy saw each thing, and writes the records to the log.

import { parentPort, workerData } from 'node:worker_threads';
import { type HttpExchange, HttpMonitor } from '../../inspect/http-monitor.js';
import type { TraceRecord } from '../../inspect/trace-format.js';
import { openTraceLog } from '../trace-log.js';
import { CLOSED, type ExchangeEvent, type MonitorSettings } from './trace-http-link.js';

const settings = workerData as MonitorSettings;
const port = parentPort!;
const log = openTraceLog(settings.file, settings.format, settings.batchMs, settings.colour);

// Records come in bursts within one millisecond: its text is made once.
let lastAt = Number.NaN;
let lastIso = '';
const iso = (at: number) => {
  if (at !== lastAt) {
    lastAt = at;
    lastIso = new Date(at).toISOString();
  }
  return lastIso;
};

/** The time of the event being replayed: the monitor's clock, and its wall clock too (epoch ms). */
let eventAt = Date.now();
const monitor = new HttpMonitor(
  {
    message: (m) => {
      const r: TraceRecord = {
        type: 'message',
        time: iso(m.at),
        from: m.from,
        payload: m.payload,
        stream: m.stream,
      };
      if (m.session !== undefined) r.session = m.session;
      if (m.latencyMs !== undefined) {
        r.latencyMs = Math.round(m.latencyMs * 1000) / 1000;
        r.answers = m.answers;
      }
      log.record(r);
    },
    problem: ({ at, ...p }) => log.record({ type: 'problem', time: iso(at), ...p }),
    exchange: ({ at, ms, ...e }) =>
      log.record({ type: 'http', time: iso(at), ms: Math.round(ms * 1000) / 1000, ...e }),
  },
  { clock: () => eventAt, wall: () => eventAt },
);

const exchanges = new Map<number, HttpExchange>();

function replay(event: ExchangeEvent): void {
  eventAt = event.at;
  if (event.k === 'open') {
    exchanges.set(event.x, monitor.exchange(event.head));
    return;
  }
  const exchange = exchanges.get(event.x);
  if (!exchange) return;
  switch (event.k) {
    case 'requestBody':
      exchange.requestBody(Buffer.from(event.chunk.buffer, event.chunk.byteOffset, event.chunk.length));
      break;
    case 'responseBody':
      exchange.responseBody(Buffer.from(event.chunk.buffer, event.chunk.byteOffset, event.chunk.length));
      break;
    case 'response':
      exchange.response(event.status, event.headers);
      break;
    case 'failed':
      exchange.failed(event.message);
      break;
    case 'requestEnd':
    case 'responseEnd':
    case 'closedByClient':
      exchange[event.k]();
      break;
    case 'done':
      exchanges.delete(event.x);
      break;
  }
}

port.on('message', (message: ExchangeEvent[] | 'stop') => {
  if (message === 'stop') {
    void log.close().then(() => port.postMessage(CLOSED));
    return;
  }
  for (const event of message) replay(event);
});
