// MCP servers side by side (issue 3): the same server (an `echo` tool with a zod input schema, and a text
// resource) built with mcpwire's McpServer, with the official SDK's McpServer, and by hand in plain Node
// (the lower bound), each driven by the same hand-written client (bench/peers/raw-mcp-client.mjs: raw
// newline-delimited JSON-RPC over the child's pipes, initialize first). Workloads: the tool called serially
// and 64 in flight, cold start (spawn until the initialize response), a 100 MiB resource read, and each
// server's peak RSS.

import { fileURLToPath } from 'node:url';
import { formatBytes, formatMs, formatRatio, MiB } from '../lib/format.js';
import {
  type CallRun,
  type ColdRun,
  medianOf,
  nodeScript,
  type PeerStats,
  peakRss,
  type ReadRun,
  withClients,
} from '../lib/mcp.js';
import { packageVersion } from '../lib/results.js';
import type { MetricColumn, Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';
import { callWorkloads, takeTurns } from '../lib/workloads.js';

interface ServerSpec {
  subject: string;
  script: string;
  config?: Record<string, unknown>;
  /** A command line of its own instead of `node bench/peers/SCRIPT` (the CLI's cold start). */
  command?: string[];
  /** Environment added to the server's (cold starts only). */
  env?: Record<string, string>;
}

/** The cold-start targets of issue 21: time ÷ the hand-written server (importing zod for the zod row). */
interface ColdTarget {
  spec: ServerSpec;
  limit: number;
  vs: ServerSpec;
}

export const server: Suite = {
  name: 'server',
  description:
    'MCP servers (mcpwire, SDK, hand-written) under one hand-written client: tool calls, cold start, 100 MiB read, memory',
  async run(context) {
    const q = context.quick;
    const serialCalls = q ? 300 : 1000;
    const pipelinedCalls = q ? 3000 : 10_000;
    const runs = q ? 3 : 11;
    const coldRuns = q ? 3 : 11;
    const bigBytes = q ? 16 * MiB : 100 * MiB;
    const bigRuns = q ? 1 : 3;
    const sdk = `sdk ${packageVersion('@modelcontextprotocol/sdk')}`;
    const servers: ServerSpec[] = [
      { subject: 'mcpwire', script: 'mcpwire-mcp-server.mjs' },
      { subject: sdk, script: 'sdk-mcp-server.mjs' },
      { subject: 'hand-written', script: 'raw-mcp-server.mjs' },
    ];
    const [mcpwireSpec, sdkSpec, rawSpec] = servers as [ServerSpec, ServerSpec, ServerSpec];
    /** Cold start and idle memory only: mcpwire with a plain JSON Schema, so without zod. */
    const jsonVariant: ServerSpec = {
      subject: 'mcpwire, JSON Schema input (no zod)',
      script: 'mcpwire-mcp-server.mjs',
      config: { schema: 'json' },
    };
    /** The bin as a host spawns it: what `mcpwire serve` costs before its first answer, CLI included. */
    const cliVariant: ServerSpec = {
      subject: 'mcpwire serve everything (the CLI)',
      script: 'mcpwire-mcp-server.mjs',
      command: [
        process.execPath,
        fileURLToPath(new URL('../../bin/mcpwire.js', import.meta.url)),
        'serve',
        'everything',
      ],
    };
    /** The same, on its first run: nothing compiled before (bin/mcpwire.js keeps a code cache). */
    const cliFirstRun: ServerSpec = {
      ...cliVariant,
      subject: 'mcpwire serve everything, first run (no code cache)',
      env: { MCPWIRE_CODE_CACHE: 'off' },
    };
    /** The lower bound of a server whose author chose zod: the hand-written one, importing zod once. */
    const rawZodVariant: ServerSpec = {
      subject: 'hand-written, importing zod',
      script: 'raw-mcp-server.mjs',
      config: { zod: true },
    };
    const commandOf = (spec: ServerSpec) =>
      spec.command ?? nodeScript(spec.script, { ...spec.config, sizes: [bigBytes] });
    const workloads = callWorkloads(serialCalls, pipelinedCalls);

    context.progress(`server: starting ${servers.length} servers, each with its own hand-written client`);
    const measured = await withClients(
      servers.map((spec) => ({ client: 'raw-mcp-client.mjs', server: commandOf(spec) })),
      async (peers) => {
        // ---- tool calls ----
        const calls = await takeTurns<CallRun>(
          peers,
          servers.map((spec) => spec.subject),
          workloads,
          runs,
          context.progress,
        );
        const afterCalls: PeerStats[] = [];
        for (const peer of peers) afterCalls.push(await peer.command<PeerStats>({ op: 'stats' }));

        // ---- cold starts: fresh processes, spawned one at a time by the clients above ----
        const coldSpecs = [
          mcpwireSpec,
          jsonVariant,
          cliVariant,
          cliFirstRun,
          sdkSpec,
          rawSpec,
          rawZodVariant,
        ];
        const coldPeer = (spec: ServerSpec) =>
          peers[
            servers.indexOf(spec === rawZodVariant ? rawSpec : servers.includes(spec) ? spec : mcpwireSpec)
          ]!;
        const cold = coldSpecs.map((): ColdRun[] => []);
        context.progress(`server: cold starts, ${coldRuns} per server after one untimed`);
        for (let round = 0; round <= coldRuns; round++) {
          const line: string[] = [];
          for (let k = 0; k < coldSpecs.length; k++) {
            // Each round starts with the next server, so that each comes first equally often.
            const ci = (round + k) % coldSpecs.length;
            const spec = coldSpecs[ci]!;
            const result = await coldPeer(spec).command<ColdRun>({
              op: 'cold',
              server: commandOf(spec),
              ...(spec.env && { env: spec.env }),
            });
            if (round > 0) cold[ci]!.push(result);
            line.push(`${spec.subject} ${formatMs(result.ms)}`);
          }
          context.progress(`  ${round === 0 ? 'untimed' : `run ${round}/${coldRuns}`}: ${line.join(', ')}`);
        }

        // ---- the big read; the first one (untimed) also makes the server's text ----
        context.progress(
          `server: ${formatBytes(bigBytes)} resource read, ${bigRuns} run(s) per server after one untimed`,
        );
        const reads = servers.map((): ReadRun[] => []);
        const failures = servers.map((): string | undefined => undefined);
        for (let round = 0; round <= bigRuns; round++) {
          for (const [si, peer] of peers.entries()) {
            if (failures[si]) continue;
            const result = await peer.command<ReadRun>({ op: 'read', bytes: bigBytes });
            if (result.failed) failures[si] = `${result.failed} (after ${formatMs(result.ms)})`;
            else if (round > 0) reads[si]!.push(result);
            context.progress(
              `  ${round === 0 ? 'untimed' : `run ${round}/${bigRuns}`} ${servers[si]!.subject}: ${result.failed ? `fails: ${result.failed}` : formatMs(result.ms)}`,
            );
          }
        }
        const afterRead: PeerStats[] = [];
        for (const peer of peers) afterRead.push(await peer.command<PeerStats>({ op: 'stats' }));
        return { calls, afterCalls, coldSpecs, cold, reads, failures, afterRead };
      },
    );

    // ---- mcpwire serve everything's echo, beside the minimal server and the hand-written one ----
    context.progress(
      "server: serve everything's echo tool, with the minimal mcpwire server and the hand-written one",
    );
    const echoSubjects = [
      'mcpwire serve everything (the CLI)',
      'mcpwire (minimal McpServer)',
      'hand-written',
    ];
    const everythingCalls = await withClients(
      [
        {
          client: 'raw-mcp-client.mjs',
          server: cliVariant.command!,
          config: { echoTool: { argument: 'message', prefix: 'Echo: ' } },
        },
        { client: 'raw-mcp-client.mjs', server: commandOf(mcpwireSpec) },
        { client: 'raw-mcp-client.mjs', server: commandOf(rawSpec) },
      ],
      (peers) => takeTurns<CallRun>(peers, echoSubjects, workloads, runs, context.progress),
    );

    // ---- tables ----
    const { calls, cold, coldSpecs, reads, failures } = measured;
    const sections: Section[] = [];
    const perCall = (ms: number, n: number) => (ms * 1000) / n;
    const callRows = workloads.flatMap((w, wi): Row[] => {
      const rate = (si: number) => (w.calls / median(calls[wi]![si]!.map((r) => r.ms))) * 1000;
      return servers.map((spec, si): Row => {
        const runsOf = calls[wi]![si]!;
        const vsSdk = rate(si) / rate(1);
        const vsRaw = rate(si) / rate(2);
        const ms = median(runsOf.map((r) => r.ms));
        const serverCpu = medianOf(
          runsOf.map((r) => (r.serverCpuMs === undefined ? undefined : perCall(r.serverCpuMs, w.calls))),
        );
        return {
          case: w.case,
          subject: spec.subject,
          medianMs: ms,
          samplesMs: runsOf.map((r) => r.ms),
          throughput: rate(si),
          unit: 'calls/s',
          ratios: { sdk: vsSdk, lowerBound: vsRaw },
          metrics: {
            latencyUs: perCall(ms, w.calls),
            ...(serverCpu === undefined ? {} : { serverCpuUs: serverCpu }),
          },
          target:
            spec === mcpwireSpec && w.window > 1
              ? { text: `>= 3x ${sdk} and >= 0.9x hand-written`, met: vsSdk >= 3 && vsRaw >= 0.9 }
              : undefined,
          peakRssMiB: peakRss({ server: measured.afterCalls[si]!.serverPeakRssKiB }),
        };
      });
    });
    const pipelinedRow = callRows.find((r) => r.target)!;
    const verdict = (ratio: number, goal: number) =>
      `${formatRatio(ratio)} (target ${goal}x: ${ratio >= goal ? 'met' : 'missed'})`;
    const rawVsSdk = callRows.find(
      (r) => r.target === undefined && r.subject === 'hand-written' && r.case === pipelinedRow.case,
    )!.ratios!.sdk!;
    const metricColumns: MetricColumn[] = [
      { key: 'latencyUs', header: 'wall/call', suffix: ' µs' },
      { key: 'serverCpuUs', header: 'server CPU/call', suffix: ' µs', digits: 0 },
    ];
    sections.push({
      title: 'MCP servers over stdio: tools/call of a trivial tool, one hand-written client',
      ratioColumns: [
        { key: 'sdk', header: `calls/s ÷ ${sdk}` },
        { key: 'lowerBound', header: 'calls/s ÷ hand-written' },
      ],
      metricColumns,
      rows: callRows,
      notes: [
        `The same server three ways: an \`echo\` tool (input {text: string}, answered as one text content) and a ${formatBytes(bigBytes)} text resource. mcpwire: McpServer + serveStdio(), imported from \`mcpwire/server\` as a server's author would (bench/peers/mcpwire-mcp-server.mjs); ${sdk}: McpServer + StdioServerTransport (sdk-mcp-server.mjs); both with a zod input schema and default options. hand-written: ~70 lines of plain Node answering initialize, tools/call and resources/read with no validation (raw-mcp-server.mjs), the lower bound.`,
        "One client for all: bench/peers/raw-mcp-client.mjs, hand-written, speaking newline-delimited JSON-RPC over the child's pipes (requests queued in one turn go out in one write). It initializes, then calls; every result is checked. Each server has its own client process; after one serial and one pipelined warm-up run they take turns run by run, in a balanced order (within the pass of each workload, each first, and right after each other, equally often: bench/lib/turn-order.ts), with garbage collected before each run.",
        "server CPU/call is the server process's CPU time over the timed run (the schedstat of its threads, in ns, from /proc) divided by the calls; peak RSS is the server's high-water mark after all the calls, warm-up included.",
        `The pipelined target, part by part: mcpwire reaches ${verdict(pipelinedRow.ratios!.sdk!, 3)} the ${sdk} server's calls/s and ${verdict(pipelinedRow.ratios!.lowerBound!, 0.9)} the hand-written server's (0.9x: issue 21). For scale: the hand-written server itself reaches ${formatRatio(rawVsSdk)} the ${sdk} server's pipelined calls/s under this client; no server can beat a "vs SDK" target above that here.`,
      ],
    });

    // serve everything's echo.
    sections.push({
      title:
        "mcpwire serve everything's echo tool over stdio, beside a minimal McpServer and the hand-written server",
      ratioColumns: [
        { key: 'minimal', header: 'calls/s ÷ minimal McpServer' },
        { key: 'lowerBound', header: 'calls/s ÷ hand-written' },
      ],
      metricColumns,
      rows: workloads.flatMap((w, wi): Row[] => {
        const rate = (pi: number) => (w.calls / median(everythingCalls[wi]![pi]!.map((r) => r.ms))) * 1000;
        return echoSubjects.map((subject, pi): Row => {
          const runsOf = everythingCalls[wi]![pi]!;
          const ms = median(runsOf.map((r) => r.ms));
          const vsRaw = rate(pi) / rate(2);
          const serverCpu = medianOf(
            runsOf.map((r) => (r.serverCpuMs === undefined ? undefined : perCall(r.serverCpuMs, w.calls))),
          );
          return {
            case: w.case,
            subject,
            medianMs: ms,
            samplesMs: runsOf.map((r) => r.ms),
            throughput: rate(pi),
            unit: 'calls/s',
            ratios: { minimal: rate(pi) / rate(1), lowerBound: vsRaw },
            metrics: {
              latencyUs: perCall(ms, w.calls),
              ...(serverCpu === undefined ? {} : { serverCpuUs: serverCpu }),
            },
            target:
              pi === 0 && w.window > 1 ? { text: '>= 0.85x hand-written', met: vsRaw >= 0.85 } : undefined,
          };
        });
      }),
      notes: [
        "`node bin/mcpwire.js serve everything` (every conformance fixture and demo tool; its `echo` takes `message`, a JSON Schema, and answers `Echo: ` and the text), the minimal mcpwire server of the table above (a zod schema) and the hand-written server, each under its own copy of the hand-written client, which cuts the prefix and checks the rest. Own runs, taking turns as above: what serve everything's echo costs beyond a minimal McpServer's (issue 21: >= 0.85x the hand-written server with 64 in flight).",
      ],
    });

    // Cold start.
    const coldMs = (ci: number) => median(cold[ci]!.map((r) => r.ms));
    const sdkCold = coldMs(coldSpecs.indexOf(sdkSpec));
    const rawCold = coldMs(coldSpecs.indexOf(rawSpec));
    const rawZodCold = coldMs(coldSpecs.indexOf(rawZodVariant));
    const coldRssKiB = coldSpecs.map((_, ci) => medianOf(cold[ci]!.map((r) => r.peakRssKiB)));
    const coldTargets: ColdTarget[] = [
      { spec: mcpwireSpec, limit: 1.5, vs: rawZodVariant },
      { spec: jsonVariant, limit: 1.15, vs: rawSpec },
      { spec: cliVariant, limit: 1.2, vs: rawSpec },
    ];
    sections.push({
      title: 'MCP servers: cold start, from spawn until the initialize response',
      ratioColumns: [
        { key: 'sdk', header: `time ÷ ${sdk}` },
        { key: 'lowerBound', header: 'time ÷ hand-written' },
        { key: 'lowerBoundZod', header: 'time ÷ hand-written importing zod' },
      ],
      rows: coldSpecs.map((spec, ci): Row => {
        const ms = coldMs(ci);
        const goal = coldTargets.find((t) => t.spec === spec);
        const vsGoal = goal && ms / coldMs(coldSpecs.indexOf(goal.vs));
        return {
          case: `cold start (median of ${coldRuns} fresh processes)`,
          subject: spec.subject,
          medianMs: ms,
          samplesMs: cold[ci]!.map((r) => r.ms),
          ratios: { sdk: ms / sdkCold, lowerBound: ms / rawCold, lowerBoundZod: ms / rawZodCold },
          target:
            goal && vsGoal !== undefined
              ? { text: `<= ${goal.limit}x ${goal.vs.subject}`, met: vsGoal <= goal.limit }
              : undefined,
          peakRssMiB: peakRss({ server: coldRssKiB[ci] }),
        };
      }),
      notes: [
        'From spawn() of `node SERVER` in the client to the parsed initialize response; the client writes initialize at once, so the server reads it as soon as it listens. Servers take turns, each first in its round equally often, after one untimed round (to have the files in the page cache). Every process is new: this is module loading and set-up, not JIT-warm code.',
        `The hand-written server is node's own start-up plus a few lines: its time is the floor of any Node server here. "mcpwire, JSON Schema input (no zod)" is the same mcpwire server with its tool's input schema written as plain JSON Schema, which mcpwire takes as is: it shows what loading zod costs (the ${sdk} server loads zod whatever the user writes). zod is its author's choice, so the zod server's target is against "hand-written, importing zod" (the same hand-written server, which first imports zod and builds the schema): zod's import is counted once.`,
        '"mcpwire serve everything (the CLI)" is `node bin/mcpwire.js serve everything`, as a host spawns it: the command line, its argument parsing and the everything server (dozens of tools, resources and prompts) before the first answer. The CLI is one script that bin/mcpwire.js compiles with the V8 code cache its earlier runs wrote (the untimed round writes it); "first run (no code cache)" is the same with MCPWIRE_CODE_CACHE=off, as the first run after an install or an upgrade of Node. Targets (issue 21): zod server <= 1.5x, JSON Schema server <= 1.15x and the CLI <= 1.2x their lower bound.',
        "peak RSS here is the fresh server's high-water mark right after it answered initialize (median over the runs).",
      ],
    });

    // The big read.
    const readMs = (si: number) => (reads[si]!.length > 0 ? median(reads[si]!.map((r) => r.ms)) : undefined);
    const sdkRead = readMs(1);
    const rawRead = readMs(2)!;
    sections.push({
      title: `MCP servers: one ${formatBytes(bigBytes)} text resource read (resources/read), same client`,
      ratioColumns: [
        { key: 'sdk', header: `MiB/s ÷ ${sdk}` },
        { key: 'lowerBound', header: 'MiB/s ÷ hand-written' },
      ],
      rows: servers.map((spec, si): Row => {
        const ms = readMs(si);
        const caseName = `${formatBytes(bigBytes)} resources/read`;
        if (ms === undefined) {
          return { case: caseName, subject: spec.subject, failed: true, note: `fails: ${failures[si]}` };
        }
        return {
          case: caseName,
          subject: spec.subject,
          medianMs: ms,
          samplesMs: reads[si]!.map((r) => r.ms),
          throughput: bigBytes / MiB / (ms / 1000),
          unit: 'MiB/s',
          ratios: {
            ...(sdkRead === undefined ? {} : { sdk: sdkRead / ms }),
            lowerBound: rawRead / ms,
          },
          peakRssMiB: peakRss({ server: measured.afterRead[si]!.serverPeakRssKiB }),
          note: 'text checked',
        };
      }),
      notes: [
        `From the client writing resources/read to the parsed response (${formatBytes(bigBytes)} of ASCII text in one text content, length and both ends checked): the server's reading, serialising and writing, the pipe, and the client's decoding, which is the same for every server. The text is made once on the first (untimed) read and kept by every server alike, so the timed reads measure the framework, not the making of the data.`,
        failures[1]
          ? `The ${sdk} server failed the read: ${failures[1]}.`
          : `The ${sdk} server serves it too: its stdio limit (10 MiB by default) applies to what it reads, and a resources/read request is small.`,
        "peak RSS is the server's high-water mark after the reads: one copy of the text is held by the server, the rest is what serialising and writing it costs.",
      ],
    });

    // Memory.
    const memoryCases = [
      {
        case: 'fresh, after initialize',
        specs: coldSpecs,
        kib: (spec: ServerSpec) => coldRssKiB[coldSpecs.indexOf(spec)] ?? Number.NaN,
      },
      {
        case: `after the tool calls (${calls[0]![0]!.length + 1} x (${serialCalls} serial + ${pipelinedCalls} pipelined))`,
        specs: servers,
        kib: (spec: ServerSpec) => measured.afterCalls[servers.indexOf(spec)]!.serverPeakRssKiB ?? Number.NaN,
      },
      {
        case: `after the ${formatBytes(bigBytes)} reads`,
        specs: servers,
        kib: (spec: ServerSpec) =>
          failures[servers.indexOf(spec)]
            ? Number.NaN
            : (measured.afterRead[servers.indexOf(spec)]!.serverPeakRssKiB ?? Number.NaN),
      },
    ];
    const memoryRows = memoryCases.flatMap((m) =>
      m.specs.map((spec): Row => {
        const kib = m.kib(spec);
        if (Number.isNaN(kib)) {
          return {
            case: m.case,
            subject: spec.subject,
            note: failures[servers.indexOf(spec)] ? 'the read failed' : 'not measured (no /proc)',
          };
        }
        const sdkKib = m.kib(sdkSpec);
        const rawKib = m.kib(rawSpec);
        const vsSdk = kib / sdkKib;
        return {
          case: m.case,
          subject: spec.subject,
          metrics: { rssMiB: kib / 1024 },
          ratios: {
            ...(Number.isNaN(vsSdk) ? {} : { sdk: vsSdk }),
            lowerBound: kib / rawKib,
          },
          target:
            spec === mcpwireSpec && !Number.isNaN(vsSdk) ? { text: `<= ${sdk}`, met: vsSdk <= 1 } : undefined,
        };
      }),
    );
    sections.push({
      title: 'MCP servers: peak memory (peak RSS of the server process)',
      ratioColumns: [
        { key: 'sdk', header: `RSS ÷ ${sdk}` },
        { key: 'lowerBound', header: 'RSS ÷ hand-written' },
      ],
      metricColumns: [{ key: 'rssMiB', header: 'peak RSS', suffix: ' MiB', digits: 1 }],
      rows: memoryRows,
      notes: [
        'Peak RSS is VmHWM from /proc/PID/status: the most memory the process ever had resident, read by the client while the server runs. A fresh server right after initialize (median over the cold starts); then the long-lived servers of the tables above, after their tool calls and after their big reads (peaks only grow).',
        "The hand-written server's figure is mostly node itself: the floor for any Node server.",
      ],
    });
    return sections;
  },
};
