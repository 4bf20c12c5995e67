// Round trips over real pipes: a client process sends echo requests to a child server process over stdio,
// one at a time (latency) and 64 in flight (throughput), for three client/server pairs: mcpwire
// (Connection on ChildProcessTransport ⇄ Connection on StdioServerTransport), the official SDK at transport
// level (StdioClientTransport ⇄ StdioServerTransport), and a minimal hand-written pair (the lower bound).
// Two mixed pairs (mcpwire's client with the hand-written server and the reverse) show which side of
// mcpwire costs what. Then one 100 MiB request, echoed, through mcpwire and the hand-written pair.

import { formatBytes, formatRatio, MiB } from '../lib/format.js';
import { type Peer, withPeers } from '../lib/peer.js';
import { packageVersion } from '../lib/results.js';
import type { MetricColumn, Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';
import { callWorkloads, takeTurns } from '../lib/workloads.js';

interface Pair {
  subject: string;
  /** The client script in bench/peers; it starts its own server. */
  client: string;
  /** Another server than the client's own, for the mixed pairs. */
  server?: string;
}

interface Stats {
  clientPeakRssKiB: number;
  serverPeakRssKiB: number;
}

interface Run {
  ms: number;
  clientCpuMs: number;
  serverCpuMs: number;
}

function peakRss(stats: Stats): Record<string, number> {
  return { client: stats.clientPeakRssKiB / 1024, server: stats.serverPeakRssKiB / 1024 };
}

/** A peer per pair: the client script, told which server to start when it is not its own. */
function startPairs<T>(pairs: readonly Pair[], body: (peers: Peer[]) => Promise<T>): Promise<T> {
  return withPeers(
    pairs.map((pair) => ({ script: pair.client, config: pair.server ? { server: pair.server } : {} })),
    body,
  );
}

export const roundtrip: Suite = {
  name: 'roundtrip',
  description: 'echo requests over stdio pipes between two processes: serial, 64 in flight, and 100 MiB',
  async run(context) {
    const q = context.quick;
    const serialCalls = q ? 500 : 2000;
    const pipelinedCalls = q ? 5000 : 20_000;
    const runs = q ? 3 : 11;
    const sdk = `sdk ${packageVersion('@modelcontextprotocol/sdk')}`;
    const main: Pair[] = [
      { subject: 'mcpwire', client: 'mcpwire-client.mjs' },
      { subject: sdk, client: 'sdk-client.mjs' },
      { subject: 'hand-written', client: 'raw-client.mjs' },
    ];
    const mixed: Pair[] = [
      {
        subject: 'mcpwire client, hand-written server',
        client: 'mcpwire-client.mjs',
        server: './raw-server.mjs',
      },
      {
        subject: 'hand-written client, mcpwire server',
        client: 'raw-client.mjs',
        server: './mcpwire-server.mjs',
      },
    ];
    const pairs = [...main, ...mixed];
    const workloads = callWorkloads(serialCalls, pipelinedCalls);

    context.progress(`roundtrip: starting ${pairs.length} client/server pairs`);
    const { samples, stats } = await startPairs(pairs, async (peers) => {
      // samples[workload][pair] = every run; the pairs take turns within each run.
      const samples = await takeTurns<Run>(
        peers,
        pairs.map((p) => p.subject),
        workloads,
        runs,
        context.progress,
      );
      const stats: Stats[] = [];
      for (const peer of peers) stats.push(await peer.command<Stats>({ op: 'stats' }));
      return { samples, stats };
    });

    const rowsFor = (members: readonly Pair[]): Row[] =>
      workloads.flatMap((w, wi) => {
        const runsOf = (pair: Pair) => samples[wi]![pairs.indexOf(pair)]!;
        const perSecond = (pair: Pair) => (w.calls / median(runsOf(pair).map((r) => r.ms))) * 1000;
        const sdkRate = perSecond(main[1]!);
        const lowerBoundRate = perSecond(main[2]!);
        return members.map((pair): Row => {
          const pairRuns = runsOf(pair);
          const ms = median(pairRuns.map((r) => r.ms));
          const rate = perSecond(pair);
          const vsSdk = rate / sdkRate;
          const perCall = (cpuMs: number) => (cpuMs * 1000) / w.calls;
          return {
            case: w.case,
            subject: pair.subject,
            medianMs: ms,
            samplesMs: pairRuns.map((r) => r.ms),
            throughput: rate,
            unit: 'calls/s',
            ratios: { sdk: vsSdk, lowerBound: rate / lowerBoundRate },
            metrics: {
              latencyUs: perCall(ms),
              clientCpuUs: median(pairRuns.map((r) => perCall(r.clientCpuMs))),
              serverCpuUs: median(pairRuns.map((r) => perCall(r.serverCpuMs))),
            },
            target: pair === main[0] && w.window > 1 ? { text: `>= 3x ${sdk}`, met: vsSdk >= 3 } : undefined,
            peakRssMiB: peakRss(stats[pairs.indexOf(pair)]!),
          };
        });
      });
    const pipelinedIndex = workloads.findIndex((w) => w.window > 1);
    const medianMsOf = (pair: Pair) =>
      median(samples[pipelinedIndex]![pairs.indexOf(pair)]!.map((r) => r.ms));
    const lowerBoundVsSdk = medianMsOf(main[1]!) / medianMsOf(main[2]!);
    const ratioColumns = [
      { key: 'sdk', header: `calls/s ÷ ${sdk}` },
      { key: 'lowerBound', header: 'calls/s ÷ hand-written' },
    ];
    const metricColumns: MetricColumn[] = [
      { key: 'latencyUs', header: 'wall/call', suffix: ' µs' },
      { key: 'clientCpuUs', header: 'client CPU/call', suffix: ' µs' },
      { key: 'serverCpuUs', header: 'server CPU/call', suffix: ' µs' },
    ];
    const sections: Section[] = [
      {
        title: 'Round trips over stdio pipes: client process ⇄ child server process, echo requests',
        ratioColumns,
        metricColumns,
        rows: rowsFor(main),
        notes: [
          'mcpwire: Connection + ChildProcessTransport in the client, Connection + StdioServerTransport with an `echo` handler in the server, default options (a 60 s timeout per request included).',
          `${sdk}: StdioClientTransport ⇄ StdioServerTransport at transport level (the server sends each request back as its response from onmessage; the client matches responses by id). No Protocol/Client/Server classes on top, so this is the fastest the SDK's stdio can be.`,
          'hand-written: ~80 lines of plain Node (bench/peers/raw-*.mjs): chunk-list line reader, one write per batch of responses in the server and per microtask of requests in the client.',
          'Each pair is its own client process and server process. After one serial and one pipelined warm-up run, the pairs take turns run by run, in a balanced order (within the pass of each workload, each first, and right after each other, equally often: bench/lib/turn-order.ts), with garbage collected before each run.',
          'CPU/call is user + system time of each process over the timed run, divided by the calls: unlike calls/s it hardly depends on what else the machine runs. Serial round trips are bound by waking the other process through the pipe, which every pair pays alike.',
          "peak RSS is each process's high-water mark (VmHWM on Linux) over its whole life, warm-up included.",
          `For scale: the hand-written pair (the lower bound) reaches ${formatRatio(lowerBoundVsSdk)} the ${sdk} pair's pipelined calls/s here; no client/server of this shape can beat a target above that on this machine.`,
        ],
      },
      {
        title: 'Where the time goes: mcpwire on one side only (same runs, same baselines as above)',
        ratioColumns,
        metricColumns,
        rows: rowsFor(mixed),
        notes: [
          "Each side of mcpwire against the hand-written other side: compared with the hand-written pair, this is what mcpwire's client and mcpwire's server each cost.",
        ],
      },
    ];

    // One big request, echoed back: through mcpwire, and the hand-written pair for scale. The SDK's stdio
    // transports refuse it (their read buffers stop at 10 MiB by default).
    const bigBytes = q ? 16 * MiB : 100 * MiB;
    const bigRuns = q ? 1 : 3;
    const bigPairs = [main[0]!, main[2]!];
    context.progress(`roundtrip: ${formatBytes(bigBytes)} echo, ${bigRuns} run(s) per pair`);
    const big = await startPairs(bigPairs, async (peers) => {
      for (const peer of peers) await peer.command({ op: 'big', bytes: 8 * MiB });
      const ms = bigPairs.map((): number[] => []);
      for (let run = 0; run < bigRuns; run++) {
        for (const [i, peer] of peers.entries()) {
          ms[i]!.push((await peer.command<{ ms: number }>({ op: 'big', bytes: bigBytes })).ms);
          context.progress(
            `  run ${run + 1}/${bigRuns} ${bigPairs[i]!.subject}: ${Math.round(ms[i]!.at(-1)!)} ms`,
          );
        }
      }
      const stats: Stats[] = [];
      for (const peer of peers) stats.push(await peer.command<Stats>({ op: 'stats' }));
      return { ms, stats };
    });
    const lowerBoundMs = median(big.ms[1]!);
    sections.push({
      title: `A ${formatBytes(bigBytes)} request round trip through the same pairs (echo: ${formatBytes(bigBytes)} each way)`,
      ratioColumns: [{ key: 'lowerBound', header: 'MiB/s ÷ hand-written' }],
      rows: bigPairs.map((pair, i): Row => {
        const ms = median(big.ms[i]!);
        return {
          case: `${formatBytes(bigBytes)} echo`,
          subject: pair.subject,
          medianMs: ms,
          samplesMs: big.ms[i]!,
          throughput: bigBytes / MiB / (ms / 1000),
          unit: 'MiB/s',
          ratios: { lowerBound: lowerBoundMs / ms },
          peakRssMiB: peakRss(big.stats[i]!),
          note: 'echo verified',
        };
      }),
      notes: [
        'From the client sending the request (its text already built) to the parsed echo, compared in full with what was sent: stringify, pipe, decode and parse, on both sides. MiB/s counts the request size once. Fresh processes, warmed up with one 8 MiB echo.',
        `The ${sdk} pair is not run: its stdio read buffers refuse messages over 10 MiB by default (maxBufferSize), and their copying is quadratic in the message size (see the decoding table).`,
      ],
    });
    return sections;
  },
};
