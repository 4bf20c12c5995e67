// The cost of `mcpwire proxy --http` (issue 19), side by side with the npm bridges people use for this
// (supergateway, mcp-proxy) and a hand-written minimal bridge (bench/peers/bridged-stdio-server.mjs): the
// hand-written HTTP client calls the hand-written stdio server's `echo` tool through each, with 1 and 32
// in flight; and the hand-written stdio client calls the same server directly, for the latency each bridge
// adds. Calls/s, the bridge process's CPU per call, and the added latency.

import { formatRatio } from '../lib/format.js';
import { type CallRun, nodeScript, withClients } from '../lib/mcp.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';
import { httpWorkloads, takeTurns } from '../lib/workloads.js';

const ROUTES = [
  'stdio, direct',
  'hand-written bridge',
  'mcpwire proxy',
  'supergateway',
  'mcp-proxy',
] as const;
const BRIDGES = ['minimal', 'mcpwire', 'supergateway', 'mcp-proxy'];

export const proxy: Suite = {
  name: 'proxy',
  description:
    'tools/call through stdio→HTTP bridges: mcpwire proxy, supergateway, mcp-proxy, a hand-written one; 1 and 32 in flight',
  async run(context) {
    const q = context.quick;
    const runs = q ? 3 : 5;
    const loads = httpWorkloads(q ? 200 : 1000, q ? 600 : 3000);
    const server = nodeScript('raw-mcp-server.mjs');
    context.progress(`proxy: ${ROUTES.join(', ')}`);
    const samples = await withClients(
      [
        { client: 'raw-mcp-client.mjs', server },
        ...BRIDGES.map((route) => ({
          client: 'raw-http-client.mjs',
          server: [...nodeScript('bridged-stdio-server.mjs'), route, '--', ...server],
        })),
      ],
      (peers) => takeTurns<CallRun>(peers, [...ROUTES], loads, runs, context.progress),
    );
    const summary: string[] = [];
    const rows = loads.flatMap((w, wi): Row[] => {
      const usOf = (ri: number) => (median(samples[wi]![ri]!.map((r) => r.ms)) * 1000) / w.calls;
      const rate = (ri: number) => (w.calls / median(samples[wi]![ri]!.map((r) => r.ms))) * 1000;
      const direct = usOf(0);
      const minimalAdded = usOf(1) - direct;
      const bestPeer = Math.max(rate(3), rate(4));
      summary.push(
        `${w.key}: mcpwire proxy ${rate(2).toFixed(0)} calls/s, best of supergateway and mcp-proxy ${bestPeer.toFixed(0)} (${formatRatio(rate(2) / bestPeer)}); added latency ${(usOf(2) - direct).toFixed(0)} µs, hand-written bridge ${minimalAdded.toFixed(0)} µs`,
      );
      return ROUTES.map((subject, ri): Row => {
        const runsOf = samples[wi]![ri]!;
        const us = usOf(ri);
        const cpu = median(runsOf.map((r) => r.serverCpuMs ?? Number.NaN));
        const metrics: Record<string, number> = { latencyUs: us };
        if (ri > 0) {
          metrics.addedUs = us - direct;
          if (Number.isFinite(cpu)) metrics.cpuUs = (cpu * 1000) / w.calls;
        }
        const ratios: Record<string, number> = {};
        if (ri > 0) ratios.addedVsMinimal = (us - direct) / minimalAdded;
        if (ri >= 2) ratios.vsBestPeer = rate(ri) / bestPeer;
        let target: Row['target'];
        if (ri === 2 && w.window > 1)
          target = { text: '≥ 2x best npm bridge calls/s', met: rate(2) >= 2 * bestPeer };
        if (ri === 2 && w.window === 1)
          target = {
            text: 'added ≤ 1.5x hand-written',
            met: minimalAdded > 0 && (us - direct) / minimalAdded <= 1.5,
          };
        return {
          case: w.case,
          subject,
          medianMs: median(runsOf.map((r) => r.ms)),
          samplesMs: runsOf.map((r) => r.ms),
          throughput: rate(ri),
          unit: 'calls/s',
          ratios,
          metrics,
          target,
        };
      });
    });
    const section: Section = {
      title: 'stdio server over Streamable HTTP: tools/call through each bridge',
      ratioColumns: [
        { key: 'vsBestPeer', header: 'calls/s ÷ best npm bridge' },
        { key: 'addedVsMinimal', header: 'added ÷ hand-written added' },
      ],
      metricColumns: [
        { key: 'latencyUs', header: 'wall/call', suffix: ' µs' },
        { key: 'addedUs', header: 'added/call', suffix: ' µs' },
        { key: 'cpuUs', header: 'bridge CPU/call', suffix: ' µs' },
      ],
      rows,
      notes: [
        'The hand-written stdio server (raw-mcp-server.mjs) behind each bridge, started by bridged-stdio-server.mjs: the hand-written minimal bridge (one child, each POST body a line on its stdin, answers matched by id, a JSON body back), `mcpwire proxy --http 0` (a process per session: the client opens one), `supergateway --outputTransport streamableHttp --stateful` and `mcp-proxy --server stream`. The client is the hand-written HTTP client (raw-http-client.mjs: keep-alive node:http POSTs, one session); "stdio, direct" is the hand-written stdio client on the same server. "bridge CPU/call" is the bridge process\'s user+system CPU (its stdio server not included).',
        "Targets (issue 19): with 32 in flight, mcpwire proxy at least 2x the calls/s of the better of supergateway and mcp-proxy; with 1 in flight, the latency it adds at most 1.5x the hand-written bridge's.",
        `In this run: ${summary.join('; ')}.`,
      ],
    };
    return [section];
  },
};
