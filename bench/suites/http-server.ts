// MCP servers over Streamable HTTP side by side (issue 21): mcpwire's McpServer.serveHttp(), the official
// SDK's McpServer on its StreamableHTTPServerTransport, and a hand-written node:http server (the lower
// bound), all driven by one process of the hand-written HTTP client (bench/peers/raw-http-client.mjs): the
// client is what bounds the rate, and a client process of each server's own would make its luck theirs.
// tools/call of a trivial tool with 1 and 32 in flight, in a session answered with SSE streams (the
// default) and with JSON bodies; 2026-07-28 requests without a session; and the heap an idle session takes.
// The hand-written server runs as two copies, and a ratio's reference is both; a target is met, missed or
// undecided by the ratio's interval (lib/resolution.ts).

import { type CallRun, medianOf, withSharedClient } from '../lib/mcp.js';
import { PEERS_DIR } from '../lib/peer.js';
import { againstPair, type RatioGoal, type SubjectRuns, targetText, verdictOf } from '../lib/resolution.js';
import { packageVersion } from '../lib/results.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median, medianOfRatios } from '../lib/timing.js';
import { turnCycle } from '../lib/turn-order.js';
import { HTTP_WINDOW, httpWorkloads, takeTurns } from '../lib/workloads.js';

interface Subject {
  name: string;
  script: string;
}

/** The server command: node with --expose-gc (the idle row's heap is measured after a full collection). */
const serverCommand = (script: string, config: unknown) => [
  process.execPath,
  '--expose-gc',
  `${PEERS_DIR}${script}`,
  JSON.stringify(config),
];

/** Per-row targets of issue 21, on the rows with 32 in flight: calls/s and CPU/call ÷ hand-written. */
const TARGETS: Record<string, RatioGoal> = {
  sse: { rate: 0.9, cpu: 1.3 },
  json: { rate: 1 },
  stateless: { rate: 0.95, cpu: 1.3 },
};

export const httpServer: Suite = {
  name: 'http-server',
  description:
    'MCP servers (mcpwire, SDK, hand-written) over Streamable HTTP: SSE and JSON sessions, 2026-07-28, idle sessions',
  async run(context) {
    const q = context.quick;
    // Each case runs in forks: fresh processes for every subject, warmed up, then one balanced cycle of
    // rounds (lib/turn-order.ts). What a server's process and the client's keep for their whole life
    // (where the host placed them, their JIT's choices) then varies from fork to fork, and the interval
    // counts the forks as the samples of it they are.
    // --quick runs two, so that its verdicts are as wide as two forks make them, not confident; --forks N
    // runs N (where a machine's noise leaves a target undecided, more forks narrow the interval).
    const forks = context.forks ?? (q ? 2 : 4);
    // --calls N lengthens the rounds of the rows with targets (32 in flight): on a host that stalls a
    // process for short spells, a round of 5000 calls (a third of a second) strayed from the next by 10%
    // and more, one of 20000 by 2 to 3% (2026-12-07).
    const loads = httpWorkloads(q ? 300 : 1500, context.calls ?? (q ? 1000 : 5000));
    const idleSessions = q ? 200 : 1000;
    const sdk = `sdk ${packageVersion('@modelcontextprotocol/sdk')}`;
    const mcpwire: Subject = { name: 'mcpwire', script: 'mcpwire-http-server.mjs' };
    const official: Subject = { name: sdk, script: 'sdk-http-server.mjs' };
    // The lower bound runs as two copies; a ratio's reference is both (lib/resolution.ts).
    const raw: Subject = { name: 'hand-written', script: 'raw-http-server.mjs' };
    const copy: Subject = { name: 'hand-written, a second copy', script: 'raw-http-server.mjs' };
    const sections: Section[] = [];
    const idle: Array<{ subject: string; bytes: number }> = [];
    const cases = [
      { key: 'sse', answer: 'sse', subjects: [mcpwire, official, raw, copy], stateless: false },
      { key: 'json', answer: 'json', subjects: [mcpwire, official, raw, copy], stateless: false },
      // The SDK (v1) does not speak 2026-07-28.
      { key: 'stateless', answer: 'sse', subjects: [mcpwire, raw, copy], stateless: true },
    ] as const;
    for (const c of cases) {
      const subjects = c.subjects.map((s) => s.name);
      const rounds = turnCycle(subjects.length);
      // samples[workload][subject]: every fork's rounds, one after the other.
      const samples = loads.map(() => subjects.map((): CallRun[] => []));
      for (let fork = 0; fork < forks; fork++) {
        context.progress(
          `http-server: ${c.key}, ${subjects.length} servers, one client (fork ${fork + 1}/${forks})`,
        );
        const forkSamples = await withSharedClient(
          'raw-http-client.mjs',
          c.subjects.map((s) => serverCommand(s.script, { answer: c.answer })),
          { stateless: c.stateless },
          async (peers) => {
            const result = await takeTurns<CallRun>(peers, subjects, loads, rounds, context.progress);
            if (c.key === 'sse' && fork === 0) {
              context.progress(`http-server: ${idleSessions} idle sessions per server`);
              for (const [i, peer] of peers.entries()) {
                if (subjects[i] === copy.name) continue;
                const { bytesPerSession } = await peer.command<{ bytesPerSession: number }>({
                  op: 'idle',
                  sessions: idleSessions,
                  settleMs: 3000,
                });
                idle.push({ subject: subjects[i]!, bytes: bytesPerSession });
              }
            }
            return result;
          },
        );
        for (const [wi, bySubject] of forkSamples.entries()) {
          for (const [pi, runs] of bySubject.entries()) samples[wi]![pi]!.push(...runs);
        }
      }
      const rawIndex = subjects.indexOf(raw.name);
      const copyIndex = subjects.indexOf(copy.name);
      const sdkIndex = subjects.indexOf(official.name);
      const rows = loads.flatMap((w, wi): Row[] => {
        const runsOf = (pi: number) => samples[wi]![pi]!;
        const times = (pi: number) => runsOf(pi).map((r) => r.ms);
        const cpus = (pi: number) => runsOf(pi).map((r) => r.serverCpuMs);
        const rate = (pi: number) => (w.calls / median(times(pi))) * 1000;
        const cpu = (pi: number) =>
          medianOf(cpus(pi).map((ms) => (ms === undefined ? undefined : (ms * 1000) / w.calls)));
        // Ratios are taken round by round: a run's rate moves by 10 to 20% here with what else the machine
        // runs, and a round's runs follow one another. A rate's ratio is the inverse ratio of the times.
        const runsAt = (pi: number): SubjectRuns => ({ times: times(pi), cpus: cpus(pi) });
        return subjects.map((subject, pi): Row => {
          const serverCpu = cpu(pi);
          // The client's CPU per call, and the share of one core it kept busy: near 100%, the client bounds
          // the rate (with 2 cores, the server has what is left of the second one), and a server's extra
          // CPU shows in its own column rather than in calls/s.
          const clientCpu = median(runsOf(pi).map((r) => (r.clientCpuMs * 1000) / w.calls));
          const clientBusy = median(runsOf(pi).map((r) => (100 * r.clientCpuMs) / r.ms));
          const { rate: vsRaw, cpu: vsRawCpu } = againstPair(
            runsAt(pi),
            runsAt(rawIndex),
            runsAt(copyIndex),
            rounds,
          );
          const goal = TARGETS[c.key]!;
          const verdict = verdictOf(goal, vsRaw, vsRawCpu);
          return {
            case: w.case,
            subject,
            medianMs: median(times(pi)),
            samplesMs: times(pi),
            throughput: rate(pi),
            unit: 'calls/s',
            ratios: {
              ...(sdkIndex === -1 ? {} : { sdk: medianOfRatios(times(sdkIndex), times(pi))! }),
              lowerBound: vsRaw.median,
              ...(vsRawCpu === undefined ? {} : { cpu: vsRawCpu.median }),
            },
            metrics: {
              ...(serverCpu === undefined ? {} : { serverCpuUs: serverCpu }),
              clientCpuUs: clientCpu,
              clientBusy,
            },
            target:
              subject === mcpwire.name && w.window === HTTP_WINDOW
                ? {
                    text: targetText(goal, vsRaw, vsRawCpu),
                    met: verdict === 'met',
                    undecided: verdict === 'undecided',
                  }
                : undefined,
          };
        });
      });
      const title = {
        sse: 'a session, answers as SSE streams (the default)',
        json: 'a session, answers as JSON bodies',
        stateless: '2026-07-28 requests, no session',
      }[c.key];
      sections.push({
        title: `MCP servers over Streamable HTTP, ${title}: tools/call of a trivial tool`,
        ratioColumns: [
          ...(sdkIndex === -1 ? [] : [{ key: 'sdk', header: `calls/s ÷ ${sdk}` }]),
          { key: 'lowerBound', header: 'calls/s ÷ hand-written (both copies)' },
          { key: 'cpu', header: 'server CPU/call ÷ hand-written (both copies)' },
        ],
        metricColumns: [
          { key: 'serverCpuUs', header: 'server CPU/call', suffix: ' µs', digits: 0 },
          { key: 'clientCpuUs', header: 'client CPU/call', suffix: ' µs', digits: 0 },
          { key: 'clientBusy', header: 'client busy', suffix: '%', digits: 0 },
        ],
        rows,
        notes: [
          `mcpwire: McpServer.serveHttp() with an \`echo\` tool (JSON Schema input), default options${c.key === 'json' ? ' but jsonResponse' : ''} (bench/peers/mcpwire-http-server.mjs). ${c.stateless ? '' : `${sdk}: McpServer on StreamableHTTPServerTransport, a server and transport per session as its examples do${c.key === 'json' ? ', enableJsonResponse' : ''} (sdk-http-server.mjs). `}hand-written: raw-http-server.mjs, node:http answering initialize and tools/call with no validation, ${c.answer === 'json' ? 'a JSON body' : 'one SSE event'} per POST: the lower bound, run as two copies (hand-written and a second copy).`,
          `One hand-written client process for all the servers, taking them in turn (raw-http-client.mjs: node:http POSTs on a keep-alive agent per server${c.stateless ? ', each a 2026-07-28 request with its _meta envelope and its MCP-Protocol-Version, Mcp-Method and Mcp-Name headers' : ', the session opened once'}): the client bounds calls/s, so a client process of each server's own would lend each its own luck. ${forks} forks (fresh processes for every server and the client, one warm-up run each), each ${rounds} rounds in a balanced order (within a workload's pass, each server first, and right after each other, equally often). server CPU/call is the server process's CPU time over the run (the schedstat of its threads, in ns, from /proc) divided by the calls; client CPU/call the client's own (process.cpuUsage), and client busy its CPU time over the run's time (all its threads, so beyond 100% when its collector's threads run beside its main one): at 100% or more, the client is what bounds calls/s, and a server's extra CPU shows in its CPU column more than in its rate.`,
          "The ratio columns are medians of each round's ratio, the hand-written ones (in log terms) against the geometric mean of the two hand-written copies in that round (the copies' own rows show how far apart the two were); calls/s and CPU/call are medians of the runs, so a ratio need not equal their quotient. A target is met when the ratio's whole interval meets it, missed when the whole interval misses it, and otherwise undecided: the run cannot tell. The interval (shown with the target) is the median times and divided by e^δ, δ the larger of twice the standard error of the median of all the rounds' log ratios (1.2533 σ / √n, σ from their median absolute deviation) and, with the forks' medians as samples, Student's t at 97.5% times their standard deviation over √forks; and never less than how far each hand-written copy stayed from the two copies' mean (what set two copies of one server apart for a whole run may set any server apart).",
        ],
      });
    }
    const rawIdle = idle.find((i) => i.subject === raw.name)?.bytes;
    sections.push({
      title: `MCP servers over Streamable HTTP: heap per idle session (${idleSessions} sessions)`,
      ratioColumns: [{ key: 'lowerBound', header: 'heap ÷ hand-written' }],
      metricColumns: [{ key: 'kib', header: 'heap per session', suffix: ' KiB', digits: 2 }],
      rows: idle.map(
        (i): Row => ({
          case: `${idleSessions} idle sessions`,
          subject: i.subject,
          metrics: { kib: i.bytes / 1024 },
          // The hand-written session is a few dozen bytes, within the noise of a heap measurement: a ratio to
          // it would say nothing.
          ratios: rawIdle !== undefined && rawIdle > 256 ? { lowerBound: i.bytes / rawIdle } : {},
          target: i.subject === mcpwire.name ? { text: '<= 2 KiB', met: i.bytes <= 2048 } : undefined,
        }),
      ),
      notes: [
        `After the first fork's SSE calls, the client opens ${idleSessions} sessions (initialize, then notifications/initialized, 8 at a time) and leaves them idle for 3 s (past the 2 s for which mcpwire keeps the events of a finished stream); the server's heap in use after a full collection (process.memoryUsage().heapUsed, with --expose-gc), before and after, divided by the sessions. Then it ends them with DELETE.`,
        'The hand-written server keeps a session as its id in a set: the least a session can cost.',
      ],
    });
    return sections;
  },
};
