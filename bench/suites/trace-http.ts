// The cost of `mcpwire trace --http` (issue 16): the hand-written HTTP client (bench/peers/raw-http-client.mjs)
// calls the hand-written HTTP server's `echo` tool directly, through a hand-written byte-copying HTTP
// proxy (the lower bound of any proxy process), and through `mcpwire trace --http`, with 1 and 32 in
// flight, answers as JSON and as SSE. What matters is the latency each proxy adds to a call.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatRatio } from '../lib/format.js';
import { type CallRun, nodeScript, withClients } from '../lib/mcp.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';
import { httpWorkloads, takeTurns } from '../lib/workloads.js';

const ROUTES = ['direct', 'hand-written proxy', 'mcpwire trace --http'] as const;
const ROUTE_ARG = ['direct', 'raw', 'trace'];

export const traceHttp: Suite = {
  name: 'trace-http',
  description:
    'added latency of `mcpwire trace --http` per call: direct, hand-written HTTP proxy, trace; 1 and 32 in flight',
  async run(context) {
    const q = context.quick;
    const runs = q ? 3 : 7;
    const loads = httpWorkloads(q ? 300 : 1500, q ? 1000 : 5000);
    const folder = mkdtempSync(join(tmpdir(), 'mcpwire-bench-trace-http-'));
    const sections: Section[] = [];
    const summary: string[] = [];
    try {
      for (const answer of ['json', 'sse'] as const) {
        const server = nodeScript('raw-http-server.mjs', { answer });
        context.progress(`trace-http: ${answer} answers, ${ROUTES.join(', ')}`);
        const samples = await withClients(
          ROUTE_ARG.map((route) => ({
            client: 'raw-http-client.mjs',
            server: [
              ...nodeScript('proxied-http-server.mjs'),
              route,
              join(folder, `${answer}.trace`),
              '--',
              ...server,
            ],
          })),
          (peers) => takeTurns<CallRun>(peers, [...ROUTES], loads, runs, context.progress),
        );
        const rows = loads.flatMap((w, wi): Row[] => {
          const usOf = (ri: number) => (median(samples[wi]![ri]!.map((r) => r.ms)) * 1000) / w.calls;
          const direct = usOf(0);
          const rawAdded = usOf(1) - direct;
          const traceAdded = usOf(2) - direct;
          const vsRaw = traceAdded / rawAdded;
          summary.push(
            `${answer}, ${w.key}: the hand-written proxy adds ${rawAdded.toFixed(1)} µs a call, trace ${traceAdded.toFixed(1)} µs (${formatRatio(vsRaw)})`,
          );
          return ROUTES.map((subject, ri): Row => {
            const runsOf = samples[wi]![ri]!;
            const us = usOf(ri);
            return {
              case: w.case,
              subject,
              medianMs: median(runsOf.map((r) => r.ms)),
              samplesMs: runsOf.map((r) => r.ms),
              throughput: (w.calls / median(runsOf.map((r) => r.ms))) * 1000,
              unit: 'calls/s',
              ratios: { direct: us / direct, ...(ri > 0 ? { addedVsRaw: (us - direct) / rawAdded } : {}) },
              metrics: { latencyUs: us, ...(ri > 0 ? { addedUs: us - direct } : {}) },
              // A run in which the do-nothing proxy seemed to add nothing (or less than nothing) is noise, not a pass.
              target:
                ri === 2
                  ? { text: 'added ≤ 1.3x hand-written proxy', met: rawAdded > 0 && vsRaw <= 1.3 }
                  : undefined,
            };
          });
        });
        sections.push({
          title: `mcpwire trace --http: added latency per call, answers as ${answer === 'json' ? 'JSON' : 'SSE streams'}`,
          ratioColumns: [
            { key: 'direct', header: 'time/call ÷ direct' },
            { key: 'addedVsRaw', header: 'added ÷ hand-written proxy added' },
          ],
          metricColumns: [
            { key: 'latencyUs', header: 'wall/call', suffix: ' µs' },
            { key: 'addedUs', header: 'added/call', suffix: ' µs' },
          ],
          rows,
          notes: [
            'One hand-written client (bench/peers/raw-http-client.mjs: node:http POSTs on a keep-alive agent) calls the `echo` tool of the hand-written HTTP server (raw-http-server.mjs): directly; through a hand-written proxy (proxied-http-server.mjs raw: node:http, keep-alive, request and answer piped through untouched, the lower bound of any HTTP proxy process); and through `node bin/mcpwire.js trace --http 0 --url URL --log FILE`, which forwards the same bytes and records every message, with its session, stream and latency, in the default pretty format. Each route has its own client and server processes; after a warm-up run they take turns run by run.',
            '"added ÷ hand-written proxy added" is the latency trace adds to a call over the latency the do-nothing proxy adds: the target is at most 1.3x.',
          ],
        });
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    sections[sections.length - 1]!.notes.push(`In this run: ${summary.join('; ')}.`);
    return sections;
  },
};
