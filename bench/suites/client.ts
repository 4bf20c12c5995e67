// MCP clients side by side (issue 4): mcpwire's McpClient (on a ChildProcessTransport), the official SDK's
// Client (on its StdioClientTransport) and a hand-written client (the lower bound: raw newline-delimited
// JSON-RPC and a chunk-list line reader), all calling the same minimal hand-written server
// (bench/peers/raw-mcp-server.mjs): tools/call with 64 in flight, and resources/read of 1, 10 and 100 MiB.

import { formatBytes, formatMs, formatRatio, MiB } from '../lib/format.js';
import {
  type CallRun,
  type ClientSpec,
  medianOf,
  nodeScript,
  type PeerStats,
  peakRss,
  type ReadRun,
  withClients,
} from '../lib/mcp.js';
import { packageVersion } from '../lib/results.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';

import { pipelinedWorkload, takeTurns } from '../lib/workloads.js';

/** The SDK's StdioClientTransport read buffer limit, as raised for the second SDK subject. */
const RAISED_LIMIT = 256 * MiB;

interface ClientSubject {
  subject: string;
  spec: ClientSpec;
  /** Whether it takes part in the tool calls (the raised-limit SDK client only reads). */
  calls: boolean;
}

export const client: Suite = {
  name: 'client',
  description:
    'MCP clients (mcpwire, SDK, hand-written) calling one hand-written server: 64 in flight, 1/10/100 MiB reads',
  async run(context) {
    const q = context.quick;
    const pipelinedCalls = q ? 3000 : 10_000;
    const runs = q ? 3 : 11;
    const sdk = `sdk ${packageVersion('@modelcontextprotocol/sdk')}`;
    const server = nodeScript('raw-mcp-server.mjs');
    const subjects: ClientSubject[] = [
      { subject: 'mcpwire', spec: { client: 'mcpwire-mcp-client.mjs', server }, calls: true },
      { subject: sdk, spec: { client: 'sdk-mcp-client.mjs', server }, calls: true },
      {
        subject: `${sdk}, maxBufferSize ${formatBytes(RAISED_LIMIT)}`,
        spec: { client: 'sdk-mcp-client.mjs', server, config: { maxBufferSize: RAISED_LIMIT } },
        calls: false,
      },
      { subject: 'hand-written', spec: { client: 'raw-mcp-client.mjs', server }, calls: true },
    ];
    const [mcpwireSubject, sdkSubject, raisedSubject, rawSubject] = subjects as [
      ClientSubject,
      ClientSubject,
      ClientSubject,
      ClientSubject,
    ];
    const sizes = [
      { bytes: MiB, warmup: q ? 1 : 2, runs: q ? 3 : 9 },
      { bytes: 10 * MiB, warmup: 1, runs: q ? 2 : 5 },
      { bytes: q ? 16 * MiB : 100 * MiB, warmup: 1, runs: q ? 1 : 3 },
    ];
    const callers = subjects.filter((s) => s.calls);
    const pipelined = pipelinedWorkload(pipelinedCalls);

    context.progress(`client: starting ${subjects.length} clients, each with its own hand-written server`);
    const measured = await withClients(
      subjects.map((s) => s.spec),
      async (peers) => {
        const peerOf = (s: ClientSubject) => peers[subjects.indexOf(s)]!;
        // ---- pipelined tool calls ----
        const callPeers = callers.map(peerOf);
        const calls = (
          await takeTurns<CallRun>(
            callPeers,
            callers.map((s) => s.subject),
            [pipelined],
            runs,
            context.progress,
          )
        )[0]!;
        const afterCalls: PeerStats[] = [];
        for (const s of callers) afterCalls.push(await peerOf(s).command<PeerStats>({ op: 'stats' }));

        // ---- reads, smallest first; a client that fails a size is not run again at that size ----
        const reads = sizes.map(() => subjects.map((): number[] => []));
        const outcome = sizes.map(() => subjects.map((): string | undefined => undefined));
        const afterReads = sizes.map((): PeerStats[] => []);
        let raisedMsAt10MiB: number | undefined;
        for (const [zi, size] of sizes.entries()) {
          const label = formatBytes(size.bytes);
          context.progress(
            `client: ${label} reads, ${size.runs} run(s) per client after ${size.warmup} untimed`,
          );
          for (let round = 0; round < size.warmup + size.runs; round++) {
            // Each round starts with the next client, so that each comes first (after the previous
            // round's biggest allocations, say) equally often.
            for (let k = 0; k < subjects.length; k++) {
              const si = (round + k) % subjects.length;
              const s = subjects[si]!;
              if (outcome[zi]![si]) continue;
              if (s === raisedSubject && size.bytes > 10 * MiB) {
                const estimate =
                  raisedMsAt10MiB === undefined
                    ? ''
                    : `; ~${formatMs(raisedMsAt10MiB * (size.bytes / (10 * MiB)) ** 2)} extrapolated from 10 MiB`;
                outcome[zi]![si] = `quadratic: not run${estimate}`;
                continue;
              }
              const result = await peers[si]!.command<ReadRun>({ op: 'read', bytes: size.bytes });
              if (result.failed) {
                outcome[zi]![si] = `fails: ${result.failed} (after ${formatMs(result.ms)})`;
                context.progress(`  ${s.subject}: ${outcome[zi]![si]}`);
                continue;
              }
              if (round >= size.warmup) reads[zi]![si]!.push(result.ms);
              context.progress(
                `  ${round < size.warmup ? 'untimed' : `run ${round - size.warmup + 1}/${size.runs}`} ${s.subject}: ${formatMs(result.ms)}`,
              );
            }
          }
          if (size.bytes === 10 * MiB && reads[zi]![2]!.length > 0) raisedMsAt10MiB = median(reads[zi]![2]!);
          for (const peer of peers) afterReads[zi]!.push(await peer.command<PeerStats>({ op: 'stats' }));
        }
        return { calls, afterCalls, reads, outcome, afterReads };
      },
    );

    // ---- tables ----
    const { calls, reads, outcome } = measured;
    const rate = (ci: number) => (pipelinedCalls / median(calls[ci]!.map((r) => r.ms))) * 1000;
    const sdkRate = rate(callers.indexOf(sdkSubject));
    const rawRate = rate(callers.indexOf(rawSubject));
    const perCall = (ms: number) => (ms * 1000) / pipelinedCalls;
    const callRows = callers.map((s, ci): Row => {
      const runsOf = calls[ci]!;
      const ms = median(runsOf.map((r) => r.ms));
      const vsSdk = rate(ci) / sdkRate;
      const serverCpu = medianOf(
        runsOf.map((r) => (r.serverCpuMs === undefined ? undefined : perCall(r.serverCpuMs))),
      );
      return {
        case: pipelined.case,
        subject: s.subject,
        medianMs: ms,
        samplesMs: runsOf.map((r) => r.ms),
        throughput: rate(ci),
        unit: 'calls/s',
        ratios: { sdk: vsSdk, lowerBound: rate(ci) / rawRate },
        metrics: {
          latencyUs: perCall(ms),
          clientCpuUs: median(runsOf.map((r) => perCall(r.clientCpuMs))),
          ...(serverCpu === undefined ? {} : { serverCpuUs: serverCpu }),
        },
        target: s === mcpwireSubject ? { text: `>= 3x ${sdk}`, met: vsSdk >= 3 } : undefined,
        peakRssMiB: peakRss({ client: measured.afterCalls[ci]!.clientPeakRssKiB }),
      };
    });
    const sections: Section[] = [
      {
        title: 'MCP clients over stdio: tools/call of a trivial tool, 64 in flight, one hand-written server',
        ratioColumns: [
          { key: 'sdk', header: `calls/s ÷ ${sdk}` },
          { key: 'lowerBound', header: 'calls/s ÷ hand-written' },
        ],
        metricColumns: [
          { key: 'latencyUs', header: 'wall/call', suffix: ' µs' },
          { key: 'clientCpuUs', header: 'client CPU/call', suffix: ' µs' },
          { key: 'serverCpuUs', header: 'server CPU/call', suffix: ' µs', digits: 0 },
        ],
        rows: callRows,
        notes: [
          `mcpwire: McpClient.callTool() on a ChildProcessTransport (bench/peers/mcpwire-mcp-client.mjs); ${sdk}: Client.callTool() on StdioClientTransport (sdk-mcp-client.mjs); both with default options. hand-written: raw-mcp-client.mjs, requests queued in one turn written with one write, responses matched by id, nothing validated: the lower bound.`,
          'Every client calls the same hand-written server (raw-mcp-server.mjs: an `echo` tool, no validation), its own copy in its own process, after connecting and initializing. One warm-up run each, then they take turns run by run, in a balanced order (each first, and right after each other, equally often: bench/lib/turn-order.ts), with garbage collected before each run; every result is checked.',
          "client CPU/call is user + system time of the client process over the timed run divided by the calls, and hardly depends on what else the machine runs; server CPU/call is read from /proc (the schedstat of its threads, in ns). peak RSS is the client process's high-water mark so far.",
          `For scale: the hand-written client reaches ${formatRatio(rawRate / sdkRate)} the ${sdk} client's calls/s here; no client can beat a "vs SDK" target above that on this machine.`,
        ],
      },
    ];

    const readRows = sizes.flatMap((size, zi): Row[] => {
      const caseName = `${formatBytes(size.bytes)} resources/read`;
      const msOf = (s: ClientSubject) => {
        const list = reads[zi]![subjects.indexOf(s)]!;
        return list.length > 0 ? median(list) : undefined;
      };
      // Where the SDK client fails with its defaults, the one with the raised limit is the SDK baseline.
      const sdkMs = msOf(sdkSubject) ?? msOf(raisedSubject);
      const rawMs = msOf(rawSubject)!;
      return subjects.map((s, si): Row => {
        const ms = msOf(s);
        if (ms === undefined) {
          const note = outcome[zi]![si] ?? 'not run';
          return { case: caseName, subject: s.subject, failed: note.startsWith('fails') || undefined, note };
        }
        const vsRaw = ms / rawMs;
        return {
          case: caseName,
          subject: s.subject,
          medianMs: ms,
          samplesMs: reads[zi]![si]!,
          throughput: size.bytes / MiB / (ms / 1000),
          unit: 'MiB/s',
          ratios: {
            ...(sdkMs === undefined ? {} : { sdk: ms / sdkMs }),
            lowerBound: vsRaw,
          },
          target:
            s === mcpwireSubject && zi === sizes.length - 1
              ? { text: '< 1.5x hand-written', met: vsRaw < 1.5 }
              : undefined,
          peakRssMiB: peakRss({ client: measured.afterReads[zi]![si]!.clientPeakRssKiB }),
        };
      });
    });
    sections.push({
      title: `MCP clients: resources/read of ${sizes.map((s) => formatBytes(s.bytes)).join(', ')} of text from the same server`,
      ratioColumns: [
        { key: 'sdk', header: `time ÷ ${sdk}` },
        { key: 'lowerBound', header: 'time ÷ hand-written' },
      ],
      rows: readRows,
      notes: [
        "From the call (readResource) to the parsed result in the client: the request, the server's serialising and writing (the same server for all), the pipe, and the client's framing, decoding, parsing and any validation. The text is ASCII in one text content; the length and both ends are checked. The sizes run smallest first, clients taking turns run by run after untimed runs (the first also makes the server's text).",
        `time ÷ ${sdk}: against the SDK client with default options, or where that fails, against the one with the raised limit (so at 10 MiB).`,
        `${sdk} with default options fails where the response is over 10 MiB: its StdioClientTransport's ReadBuffer stops at 10 MiB (maxBufferSize) and reports an error on the transport, and the request itself would only end with its 60 s timeout; here it is failed at once on that error. A client that fails a size is not asked again at that size (its driver starts a fresh server after a failure).`,
        `"${raisedSubject.subject}" is the SDK client with its read buffer limit raised (StdioClientTransport's maxBufferSize option). It then works, but its ReadBuffer Buffer.concat()s everything buffered with each 64 KiB chunk, so a message of n chunks copies about n²/2 chunks: its time grows with the square of the size, and it is not run above 10 MiB (the estimate is its 10 MiB time times the square of the size ratio).`,
        "peak RSS is the client process's high-water mark after that size's reads (peaks only grow, and the sizes run in order).",
      ],
    });
    return sections;
  },
};
