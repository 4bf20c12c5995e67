// A fleet (issue 18): `mcpwire serve everything` instances behind a real HAProxy (round-robin, no
// stickiness), alone in memory or on a real redis-server, all started here. Calls/s and CPU per call
// through the balancer with 1, 2 and 3 instances; what the Redis hop costs a call (µs, and Redis
// commands per call); and the memory an idle session takes on an instance and in Redis.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Fleet, startFleet } from '../../test/support/fleet-harness.js';
import { withClients } from '../lib/mcp.js';
import { PEERS_DIR } from '../lib/peer.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

async function openSession(url: string): Promise<Record<string, string>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    }),
  });
  await response.text();
  const id = response.headers.get('mcp-session-id');
  if (!id) throw new Error(`initialize failed: HTTP ${response.status}`);
  return { ...JSON_HEADERS, 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25' };
}

/** `calls` echo calls, `inFlight` sessions at once, each one call after the other. */
async function drive(url: string, calls: number, inFlight: number): Promise<number> {
  const sessions = await Promise.all(Array.from({ length: inFlight }, () => openSession(url)));
  const start = performance.now();
  await Promise.all(
    sessions.map(async (headers, s) => {
      for (let i = s; i < calls; i += inFlight) {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: i + 1,
            method: 'tools/call',
            params: { name: 'echo', arguments: { message: 'hi' } },
          }),
        });
        if (response.status !== 200) throw new Error(`call ${i}: HTTP ${response.status}`);
        await response.text();
      }
    }),
  );
  return performance.now() - start;
}

/** CPU time the process used so far, in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * The heap an idle session's copy takes on an instance, and what the session takes in Redis. The
 * instance is the HTTP suite's mcpwire server (McpServer and serveHttp, with `redis` set: the code that
 * keeps an instance's copies) run with --expose-gc, and the HTTP suite's client measures it the same way
 * (its `idle` command): a heap measured after a full collection is what the copies keep; RSS also counts
 * garbage not yet collected and the pages V8 keeps for later.
 */
async function idleSessionMemory(fleet: Fleet, sessions: number): Promise<string> {
  return withClients(
    [
      {
        client: 'raw-http-client.mjs',
        server: [
          process.execPath,
          '--expose-gc',
          `${PEERS_DIR}mcpwire-http-server.mjs`,
          JSON.stringify({ redis: fleet.redis.url }),
        ],
      },
    ],
    async ([peer]) => {
      const redisBefore = redisInfo(fleet, 'used_memory');
      // The sessions are kept open for Redis to be measured; they end with the instance.
      const { bytesPerSession } = await peer!.command<{ bytesPerSession: number }>({
        op: 'idle',
        sessions,
        warmup: 500,
        keep: true,
      });
      const redisBytes = (redisInfo(fleet, 'used_memory') - redisBefore) / sessions;
      return `memory per idle session (${sessions} sessions opened on one Redis-backed instance, each initialize and initialized, after 500 of warm-up): ${(bytesPerSession / 1024).toFixed(2)} KiB of the instance's heap after a full collection (its local copy of the session, right after opening; the instance lets a copy go after 60 s without a request, localCopyIdle), ${(redisBytes / 1024).toFixed(2)} KiB in Redis (the session's record: its initialize, answered within the turn it came, was written as one body and stored no events); target ≤ 2 KiB on the instance: ${bytesPerSession <= 2048 ? 'met' : 'not met'}`;
    },
  );
}

function redisInfo(fleet: Fleet, field: string): number {
  const text = execFileSync('redis-cli', ['-p', String(fleet.redis.port), 'INFO'], { encoding: 'utf8' });
  const line = text.split('\r\n').find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(':')[1] ?? Number.NaN);
}

export const fleet: Suite = {
  name: 'fleet',
  description:
    'a fleet behind HAProxy: calls/s and CPU per call with 1-3 instances, in memory vs Redis; the Redis hop; memory per idle session',
  async run(context) {
    const q = context.quick;
    const calls = q ? 400 : 3000;
    const runs = q ? 2 : 5;
    const rows: Row[] = [];
    const hop: Record<string, number> = {};
    const setups = [
      { subject: '1 instance, in memory', count: 1, redis: false },
      { subject: '1 instance, Redis', count: 1, redis: true },
      { subject: '2 instances, Redis', count: 2, redis: true },
      { subject: '3 instances, Redis', count: 3, redis: true },
    ];
    let memoryNote = '';
    for (const setup of setups) {
      context.progress(`fleet: ${setup.subject}`);
      const f = await startFleet(setup.count, [], { redis: setup.redis });
      try {
        for (const inFlight of [1, 16]) {
          await drive(f.url, 100, inFlight); // warm-up
          const samples: number[] = [];
          const cpu: number[] = [];
          let commands = 0;
          for (let r = 0; r < runs; r++) {
            const cpuBefore = f.instances.reduce((sum, i) => sum + cpuMs(i.child.pid!), 0);
            const commandsBefore = redisInfo(f, 'total_commands_processed');
            samples.push(await drive(f.url, calls, inFlight));
            cpu.push(f.instances.reduce((sum, i) => sum + cpuMs(i.child.pid!), 0) - cpuBefore);
            // initialize of each session and INFO itself count too: small beside `calls`.
            commands = (redisInfo(f, 'total_commands_processed') - commandsBefore) / calls;
          }
          const ms = median(samples);
          const usPerCall = (ms * 1000) / calls;
          if (inFlight === 1 && setup.count === 1) hop[setup.redis ? 'redis' : 'memory'] = usPerCall;
          rows.push({
            case: `${inFlight} in flight, JSON answers`,
            subject: setup.subject,
            medianMs: ms,
            samplesMs: samples,
            throughput: (calls / ms) * 1000,
            unit: 'calls/s',
            ratios: {},
            metrics: {
              latencyUs: usPerCall * inFlight,
              cpuUs: (median(cpu) * 1000) / calls,
              ...(setup.redis ? { redisCommands: commands } : {}),
            },
          });
        }
        if (setup.redis && setup.count === 1) {
          // As many in a quick run: fewer let the server's own growth (code compiled late, buffers)
          // show as per-session cost (±0.3 KiB at 500).
          memoryNote = await idleSessionMemory(f, 2000);
        }
      } finally {
        await f.stop();
      }
    }
    const added = (hop.redis ?? Number.NaN) - (hop.memory ?? Number.NaN);
    const section: Section = {
      title: 'A fleet behind HAProxy (round-robin): echo calls, JSON answers',
      ratioColumns: [],
      metricColumns: [
        { key: 'latencyUs', header: 'latency/call', suffix: ' µs' },
        { key: 'cpuUs', header: 'instances CPU/call', suffix: ' µs' },
        { key: 'redisCommands', header: 'Redis commands/call', digits: 2 },
      ],
      rows,
      notes: [
        `The Redis hop: ${added.toFixed(0)} µs a call (1 instance, 1 in flight, Redis minus memory); each session request reads and renews its record (HGETALL, PEXPIRE, ZADD sent together: one round trip).`,
        memoryNote,
        "Scaling: HAProxy, redis-server, the instances and this client share the machine's cores, so more instances cannot add calls/s beyond what those cores give; on 2 cores the 2- and 3-instance figures measure the cost of spreading, not the gain.",
      ],
    };
    return [section];
  },
};
