// The HTTP servers of http-server.ts counted in instructions per call instead of timed (issue 21): each
// server runs under callgrind (lib/callgrind.ts), driven by the hand-written client at 32 in flight, and
// what it executed for the counted calls is divided by them. Each server is counted in processes of its
// own, started right before it (countServer says why). On a host whose spells of slowness move a round's
// time by 10 to 25%, three counts of the same server stayed within 2% of one another: this is how far apart
// the servers' work is, wherever the bench runs. It is not their speed: the kernel's part of a call is not
// counted, and an instruction of one costs what it costs (a cache miss, a branch).
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
import { nodeScript, type PeerStats, withClients } from '../lib/mcp.js';
import type { Row, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';
import { HTTP_WINDOW } from '../lib/workloads.js';

export interface Subject {
  name: string;
  script: string;
  config?: Record<string, unknown>;
}

/** At most this many calls in one command to the client: a command must end within the peer's timeout. */
const CHUNK = 4000;

/** How much a count warms a server up and counts. */
export interface CountPlan {
  warm: number;
  calls: number;
  repeats: number;
}

/**
 * Counts one server: a client and the server under callgrind, started for it alone, the server warmed up
 * with `plan.warm` calls and then counted `plan.repeats` times over `plan.calls` calls (zeroed before,
 * dumped after), both stopped at the end (the server has exited when it returns).
 *
 * No server is started before the one counted ahead of it is done: a server left idle under callgrind
 * while another was counted (a minute or more) ran some 20k more instructions a call from then on,
 * warm-up or not (2026-12-07: the hand-written server 127k a call in a session instead of 104k, mcpwire
 * 132k instead of 108k; not so with V8's --no-memory-reducer, whose collection of an idle heap is what
 * changes it). The servers of a case were once started together, and all but the first counted so.
 */
async function countServer(
  subject: Subject,
  answer: string,
  stateless: boolean,
  outFile: string,
  plan: CountPlan,
  progress: (message: string) => void,
): Promise<Counted[]> {
  const server = underCallgrind(outFile, nodeScript(subject.script, { answer, ...subject.config }));
  const client = { client: 'raw-http-client.mjs', server, config: { stateless } };
  return withClients([client], async ([peer]) => {
    const drive = async (n: number) => {
      for (let done = 0; done < n; done += CHUNK) {
        await peer!.command({ op: 'pipelined', calls: Math.min(CHUNK, n - done), window: HTTP_WINDOW });
      }
    };
    const { serverPid } = await peer!.command<PeerStats>({ op: 'stats' });
    progress(`  warming up ${subject.name} (${plan.warm} calls)`);
    await drive(plan.warm);
    const counted: Counted[] = [];
    for (let r = 0; r < plan.repeats; r++) {
      await zeroCounters(serverPid);
      await drive(plan.calls);
      await dumpCounters(serverPid);
      const count = readDump(outFile, r + 1);
      counted.push(count);
      progress(`  ${subject.name}: ${Math.round(count.main / plan.calls)} instructions a call (event loop)`);
    }
    return counted;
  });
}

/** A case: its servers, and how the client asks them. */
export interface Case {
  answer: string;
  stateless: boolean;
  subjects: readonly Subject[];
}

/**
 * Counts a case's servers one after the other, each by countServer (`${outPrefix}-${i}.out` its dumps):
 * per server, its counts.
 */
export async function countCase(
  c: Case,
  outPrefix: string,
  plan: CountPlan,
  progress: (message: string) => void,
): Promise<Counted[][]> {
  const counts: Counted[][] = [];
  for (const [i, s] of c.subjects.entries()) {
    counts.push(await countServer(s, c.answer, c.stateless, `${outPrefix}-${i}.out`, plan, progress));
  }
  return counts;
}

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
        const plan = { warm, calls, repeats };
        const counts = await countCase(c, path.join(dir, c.key), plan, context.progress);
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
          `The servers of http-server (mcpwire-http-server.mjs, raw-http-server.mjs), each under valgrind --tool=callgrind, each driven by a hand-written client (raw-http-client.mjs) at ${HTTP_WINDOW} in flight, both started for that server alone and stopped after it: ${warm} calls to warm up, then ${repeats === 1 ? `${calls} counted calls` : `${repeats} times ${calls} counted calls, the median of them shown`}. The counters are zeroed before and dumped after the counted calls, so a count holds those calls and nothing else; per thread: the event loop (every call's JavaScript and Node's work for it), and all threads (the garbage collector's helpers and the optimizing compiler too, whose work for code still being optimized varies from run to run). ${repeats > 1 ? `The repeats of one server differed by at most ${(widest * 100).toFixed(1)}% on the event loop.` : ''}`,
          'A server is counted right after its start: one that first idled for a minute or more (long enough for V8 to collect its idle heap to shrink it) runs some 20k more instructions a call from then on, however long it is warmed up again, the hand-written server and mcpwire alike.',
          "User-space instructions only: what the kernel does for a call (reading and writing the sockets) is in neither count, and the same count of instructions can take different times (cache misses, branches). The time each server takes is http-server's to say; this says how far apart their work is, on any host, however busy.",
          "hand-written, serverInfo in _meta: the lower bound answering 2026-07-28 requests with its name and version in every result's _meta, as mcpwire does (the specification's io.modelcontextprotocol/serverInfo, which a server SHOULD send on every response; the lower bound of http-server leaves it out).",
        ],
      },
    ];
  },
};
