// The HTTP servers of http-server.ts counted in instructions per call instead of timed (issue 21): each
// server runs under callgrind (lib/callgrind.ts), driven by the same hand-written client at 32 in flight,
// and what it executed for the counted calls is divided by them. On a host whose spells of slowness move
// a round's time by 10 to 25%, three counts of the same server stayed within 3.5% of one another (most
// within 1%): this is how far apart the servers' work is, wherever the bench runs. It is not their speed: the kernel's part of a call
// is not counted, and an instruction of one costs what it costs (a cache miss, a branch).
//
// For 2026-07-28 requests a third server is counted: the hand-written one answering as mcpwire does, its
// name and version in every result's _meta (io.modelcontextprotocol/serverInfo, which the specification
// says a server SHOULD send on every response, and which the hand-written lower bound leaves out): how
// much of mcpwire's extra work is those bytes.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Counted,
  dumpCounters,
  hasValgrind,
  readDump,
  underCallgrind,
  VALGRIND_MISSING,
  zeroCounters,
} from '../lib/callgrind.js';
import { nodeScript, type PeerStats, withSharedClient } from '../lib/mcp.js';
import type { Row, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';
import { HTTP_WINDOW } from '../lib/workloads.js';

interface Subject {
  name: string;
  script: string;
  config?: Record<string, unknown>;
}

/** At most this many calls in one command to the client: a command must end within the peer's timeout. */
const CHUNK = 4000;

export const httpInstructions: Suite = {
  name: 'http-instructions',
  description: 'instructions per call of the HTTP servers under callgrind: a count the host barely moves',
  async run(context) {
    if (!hasValgrind()) {
      return [
        {
          title: 'MCP servers over Streamable HTTP: instructions per call (callgrind)',
          ratioColumns: [],
          rows: [{ case: 'all', subject: 'valgrind', failed: true, note: VALGRIND_MISSING }],
          notes: [VALGRIND_MISSING],
        },
      ];
    }
    const q = context.quick;
    const warm = q ? 500 : 8000;
    const calls = q ? 500 : 8000;
    const repeats = q ? 1 : 3;
    const mcpwire: Subject = { name: 'mcpwire', script: 'mcpwire-http-server.mjs' };
    const raw: Subject = { name: 'hand-written', script: 'raw-http-server.mjs' };
    const rawAsMcpwire: Subject = {
      name: 'hand-written, serverInfo in _meta',
      script: 'raw-http-server.mjs',
      config: { serverInfo: true },
    };
    const cases = [
      {
        key: 'sse',
        title: 'a session, SSE answers',
        answer: 'sse',
        stateless: false,
        subjects: [mcpwire, raw],
      },
      {
        key: 'json',
        title: 'a session, JSON answers',
        answer: 'json',
        stateless: false,
        subjects: [mcpwire, raw],
      },
      {
        key: 'stateless',
        title: '2026-07-28 requests',
        answer: 'sse',
        stateless: true,
        subjects: [mcpwire, raw, rawAsMcpwire],
      },
    ] as const;
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-callgrind-'));
    const rows: Row[] = [];
    let widest = 0;
    try {
      for (const c of cases) {
        context.progress(`http-instructions: ${c.key}, ${c.subjects.length} servers under callgrind`);
        const outFiles = c.subjects.map((_, i) => path.join(dir, `${c.key}-${i}.out`));
        const counts = await withSharedClient(
          'raw-http-client.mjs',
          c.subjects.map((s, i) =>
            underCallgrind(outFiles[i]!, nodeScript(s.script, { answer: c.answer, ...s.config })),
          ),
          { stateless: c.stateless },
          async (peers) => {
            const drive = async (i: number, n: number) => {
              for (let done = 0; done < n; done += CHUNK) {
                await peers[i]!.command({
                  op: 'pipelined',
                  calls: Math.min(CHUNK, n - done),
                  window: HTTP_WINDOW,
                });
              }
            };
            // Each server is warmed up right before it is counted. Warmed up first and then left idle for the
            // minutes the others take under callgrind, mcpwire's 2026-07-28 server counted 182k instructions
            // a call in its first count and 150k in its second (2026-12-07); warmed up right before, its
            // three counts were within 4% of one another.
            const counted = c.subjects.map((): Counted[] => []);
            for (const [i, s] of c.subjects.entries()) {
              const { serverPid } = await peers[i]!.command<PeerStats>({ op: 'stats' });
              context.progress(`  warming up ${s.name} (${warm} calls)`);
              await drive(i, warm);
              for (let r = 0; r < repeats; r++) {
                await zeroCounters(serverPid);
                await drive(i, calls);
                await dumpCounters(serverPid);
                const count = readDump(outFiles[i]!, r + 1);
                counted[i]!.push(count);
                context.progress(
                  `  ${s.name}: ${Math.round(count.main / calls)} instructions a call (event loop)`,
                );
              }
            }
            return counted;
          },
        );
        // Per subject, the median count of a call: on the event loop, and on all threads.
        const perCall = counts.map((runs) => ({
          main: median(runs.map((n) => n.main / calls)),
          all: median(runs.map((n) => n.all / calls)),
        }));
        const reference = perCall[c.subjects.indexOf(raw)]!;
        for (const [i, s] of c.subjects.entries()) {
          const mains = counts[i]!.map((n) => n.main);
          widest = Math.max(widest, Math.max(...mains) / Math.min(...mains) - 1);
          const { main, all } = perCall[i]!;
          rows.push({
            case: `${c.title}, ${HTTP_WINDOW} in flight (${calls} calls)`,
            subject: s.name,
            ratios: { main: main / reference.main, all: all / reference.all },
            metrics: { main: main / 1000, all: all / 1000 },
          });
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return [
      {
        title:
          'MCP servers over Streamable HTTP: instructions per call (callgrind), tools/call of a trivial tool',
        ratioColumns: [
          { key: 'main', header: 'event loop ÷ hand-written' },
          { key: 'all', header: 'all threads ÷ hand-written' },
        ],
        metricColumns: [
          { key: 'main', header: 'event loop', suffix: 'k instructions', digits: 1 },
          { key: 'all', header: 'all threads', suffix: 'k instructions', digits: 1 },
        ],
        rows,
        notes: [
          `The servers of http-server (mcpwire-http-server.mjs, raw-http-server.mjs), each under valgrind --tool=callgrind, driven by one hand-written client (raw-http-client.mjs) at ${HTTP_WINDOW} in flight: ${warm} calls to warm up, then ${repeats === 1 ? `${calls} counted calls` : `${repeats} times ${calls} counted calls, the median of them shown`}. The counters are zeroed before and dumped after the counted calls, so a count holds those calls and nothing else; per thread: the event loop (every call's JavaScript and Node's work for it), and all threads (the garbage collector's helpers and the optimizing compiler too, whose work for code still being optimized varies from run to run). ${repeats > 1 ? `The repeats of one server differed by at most ${(widest * 100).toFixed(1)}% on the event loop.` : ''}`,
          "User-space instructions only: what the kernel does for a call (reading and writing the sockets) is in neither count, and the same count of instructions can take different times (cache misses, branches). The time each server takes is http-server's to say; this says how far apart their work is, on any host, however busy.",
          "hand-written, serverInfo in _meta: the lower bound answering 2026-07-28 requests with its name and version in every result's _meta, as mcpwire does (the specification's io.modelcontextprotocol/serverInfo, which a server SHOULD send on every response; the lower bound of http-server leaves it out).",
        ],
      },
    ];
  },
};
