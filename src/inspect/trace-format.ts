// How `mcpwire trace` writes what it sees: one pretty line per event for people, or one JSON object per
// line (jsonl) for tools.

import type { HttpProblemKind } from './http-monitor.js';
import type { WireMessage, WireProblem } from './wire-monitor.js';

export type TraceFormat = 'pretty' | 'jsonl';

export type TraceRecord =
  | {
      type: 'message';
      time: string;
      from: WireMessage['from'];
      payload: unknown;
      latencyMs?: number;
      answers?: string;
      /** Over HTTP: the session (once there is one) and the exchange ("POST#3") that carried it. */
      session?: string;
      stream?: string;
    }
  | {
      type: 'problem';
      time: string;
      kind: WireProblem['kind'] | HttpProblemKind;
      from: WireProblem['from'];
      message: string;
      bytes?: string;
      session?: string;
      stream?: string;
    }
  | {
      /** Over HTTP: one exchange, when it ended. */
      type: 'http';
      time: string;
      stream: string;
      session?: string;
      method: string;
      path: string;
      status?: number;
      contentType?: string;
      ms: number;
    }
  | { type: 'stderr'; time: string; text: string }
  | { type: 'exit'; time: string; code: number | null; signal: string | null };

const MAX_PRETTY = 400;

export function formatRecord(record: TraceRecord, format: TraceFormat, colour: boolean): string {
  if (format === 'jsonl') return `${JSON.stringify(record)}\n`;
  const paint = (code: number, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const time = paint(2, record.time.slice(11, 23));
  switch (record.type) {
    case 'message': {
      const arrow = record.from === 'client' ? paint(36, '→') : paint(35, '←');
      let body = JSON.stringify(record.payload);
      if (body.length > MAX_PRETTY) body = `${body.slice(0, MAX_PRETTY)}… (${body.length} chars)`;
      const latency =
        record.latencyMs !== undefined
          ? paint(33, ` ${record.answers} ${record.latencyMs.toFixed(1)}ms`)
          : '';
      return `${time} ${arrow}${where(record, paint)}${latency} ${body}\n`;
    }
    case 'problem':
      return `${time} ${paint(31, `✗ ${record.kind}`)}${where(record, paint)} (${record.from}) ${record.message}${record.bytes !== undefined ? `\n${' '.repeat(13)}bytes: ${JSON.stringify(record.bytes)}` : ''}\n`;
    case 'stderr':
      return `${time} ${paint(2, 'stderr')} ${record.text.replace(/\n$/, '')}\n`;
    case 'http': {
      const status = record.status === undefined ? 'no answer' : String(record.status);
      const type = record.contentType ? ` ${record.contentType.split(';')[0]}` : '';
      return `${time} ${paint(2, 'http')}${where(record, paint)} ${record.method} ${record.path} ${status}${type} ${record.ms.toFixed(1)}ms\n`;
    }
    case 'exit':
      return `${time} ${paint(1, 'server exited')} ${record.signal ? `by ${record.signal}` : `with code ${record.code}`}\n`;
  }
}

/** " [session stream]" for a record of an HTTP trace (the session shortened), "" on stdio. */
function where(
  record: { session?: string; stream?: string },
  paint: (code: number, text: string) => string,
): string {
  if (record.stream === undefined) return '';
  const session = record.session === undefined ? '' : `${record.session.slice(0, 8)} `;
  return paint(34, ` [${session}${record.stream}]`);
}
