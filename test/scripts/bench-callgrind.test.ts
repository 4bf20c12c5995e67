// The http-instructions suite's counting (bench/lib/callgrind.ts): a server started under callgrind by the
// bench's client is the process the client names (stats), its counters zeroed and dumped around the counted
// calls, and a dump read per thread. The count must cover those calls and nothing else: twice the calls, about twice
// the instructions. The servers of a case are counted one at a time, none other running meanwhile. Also the
// hand-written server's serverInfo option, which that suite compares against.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import {
  dumpCounters,
  hasValgrind,
  readDump,
  underCallgrind,
  zeroCounters,
} from '../../bench/lib/callgrind.js';
import { type PeerStats, withSharedClient } from '../../bench/lib/mcp.js';
import { PEERS_DIR } from '../../bench/lib/peer.js';
import { countCase } from '../../bench/suites/http-instructions.js';

const dir = mkdtempSync(path.join(tmpdir(), 'bench-callgrind-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('bench callgrind counts', () => {
  it('counts the calls between zeroing and dumping, per thread', async () => {
    assert.ok(hasValgrind(), 'valgrind is not installed: node scripts/setup-system.mjs installs it');
    const outFile = path.join(dir, 'raw.out');
    const server = underCallgrind(outFile, [
      process.execPath,
      `${PEERS_DIR}raw-http-server.mjs`,
      '{"answer":"json"}',
    ]);
    const [few, many] = await withSharedClient(
      'raw-http-client.mjs',
      [server],
      { stateless: true },
      async ([peer]) => {
        const { serverPid: pid } = await peer!.command<PeerStats>({ op: 'stats' });
        // The pid the client names is the process under callgrind that writes this dump.
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        assert.ok(argv.includes(`--callgrind-out-file=${outFile}`), argv.join(' '));
        await peer!.command({ op: 'pipelined', calls: 200, window: 8 });
        const counted = [];
        for (const calls of [100, 200]) {
          await zeroCounters(pid);
          await peer!.command({ op: 'pipelined', calls, window: 8 });
          await dumpCounters(pid);
          counted.push(readDump(outFile, counted.length + 1));
        }
        return counted;
      },
    );
    assert.ok(few!.main > 0 && few!.all >= few!.main, `${JSON.stringify(few)}`);
    // A call of this server is some 100k to 300k instructions on the event loop; the rest of the process's
    // life (start-up, warm-up) is hundreds of millions, which a count that leaked it would show.
    const perCall = few!.main / 100;
    assert.ok(perCall > 20_000 && perCall < 2_000_000, `${perCall} instructions a call`);
    const growth = many!.main / few!.main;
    assert.ok(growth > 1.4 && growth < 2.8, `200 calls counted ${growth.toFixed(2)}x what 100 did`);
  });

  it('counts the servers of a case one at a time, none other running meanwhile', async () => {
    // A server that idled under callgrind while another was counted ran some 20k more instructions a call
    // afterwards: every server of a case was started at once, and all but the first were counted so.
    const prefix = path.join(dir, 'case');
    const running = () =>
      readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .filter((pid) => {
          try {
            // The server's own arguments (its client's hold them too, inside one JSON argument).
            const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
            return argv.some((arg) => arg.startsWith(`--callgrind-out-file=${prefix}`));
          } catch {
            return false; // gone meanwhile
          }
        });
    const seen: string[][] = [];
    const subjects = [
      { name: 'mcpwire', script: 'mcpwire-http-server.mjs' },
      { name: 'hand-written', script: 'raw-http-server.mjs' },
    ];
    const plan = { warm: 100, calls: 100, repeats: 1 };
    const counts = await countCase(
      { answer: 'json', stateless: false, subjects },
      prefix,
      plan,
      (message) => {
        if (message.includes('instructions a call')) seen.push(running());
      },
    );
    assert.equal(seen.length, 2);
    assert.ok(
      seen.every((pids) => pids.length === 1),
      `servers under callgrind at each count: ${JSON.stringify(seen)}`,
    );
    assert.notEqual(seen[0]![0], seen[1]![0]);
    for (const runs of counts) {
      assert.equal(runs.length, 1);
      const perCall = runs[0]!.main / plan.calls;
      assert.ok(perCall > 20_000 && perCall < 2_000_000, `${perCall} instructions a call`);
    }
  });

  it('reads each dump from its own files and refuses one that is not there', () => {
    assert.throws(() => readDump(path.join(dir, 'none.out'), 1), /callgrind wrote no dump 1 beside/);
  });

  it("puts the hand-written server's name in a 2026-07-28 result's _meta only when asked", async () => {
    const plain = await statelessEcho({ answer: 'json' });
    assert.equal(plain._meta, undefined);
    const named = await statelessEcho({ answer: 'json', serverInfo: true });
    assert.deepEqual(named._meta, {
      'io.modelcontextprotocol/serverInfo': { name: 'bench-raw-http', version: '1.0.0' },
    });
    assert.equal(named.resultType, 'complete');
  });
});

/** The result of one 2026-07-28 tools/call of the hand-written server started with `config`. */
async function statelessEcho(config: Record<string, unknown>): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [`${PEERS_DIR}raw-http-server.mjs`, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const { url } = JSON.parse(line) as { url: string };
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'echo',
          arguments: { text: 'hi' },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
        },
      }),
    });
    const answer = (await response.json()) as { result: Record<string, unknown> };
    return answer.result;
  } finally {
    child.stdin!.end();
  }
}
