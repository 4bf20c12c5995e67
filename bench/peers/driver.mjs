// The client side of the round-trip benchmark, shared by every client (mcpwire, SDK, hand-written) so that
// each runs exactly the same workload. A client module calls `drive(connect, serverPath)`, where
// `connect(serverArgs)` starts `node ...serverArgs` as its server and returns
// { call(method, params): Promise<result>, close(): Promise<void> }.
//
// The benchmark (bench/lib/peer.ts) starts a client with an IPC channel and sends it one command at a
// time, so that several clients can take turns run by run:
//   { op: 'serial', calls }             `calls` echo requests, one in flight        -> { ms, clientCpuMs, serverCpuMs }
//   { op: 'pipelined', calls, window }  `calls` echo requests, `window` in flight   -> { ms, clientCpuMs, serverCpuMs }
//   { op: 'big', bytes }                one echo request carrying `bytes` of text   -> { ms }
//   { op: 'stats' }                     peak RSS of client and server               -> { clientPeakRssKiB, serverPeakRssKiB }
//   { op: 'close' }                     stop the server, then exit                  -> {}
// Garbage is collected before every timed command when node runs with --expose-gc. CPU time (user +
// system) is read from both processes just before and just after the timed region, so it stays
// meaningful on a busy machine where wall-clock time does not.
//
// Run by hand (no IPC channel), a client runs argv[2] (JSON, default below) and prints the results:
//   node --expose-gc bench/peers/mcpwire-client.mjs '{"runs":3,"server":"./raw-server.mjs"}'
// `server` names another server script in this folder (to pair mcpwire's client with the hand-written
// server, say) and `serverNodeFlags` adds node flags to the server's command line (--cpu-prof, say).

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pipelinedCalls, serialCalls } from './call-loops.mjs';

const gc = globalThis.gc ?? (() => {});

/** An echo of {text, n}, checked. */
function echoCall(peer, label) {
  return async (n) => {
    const result = await peer.call('echo', { text: 'hello', n });
    if (result?.n !== n) throw new Error(`${label}: wrong echo for request ${n}: ${JSON.stringify(result)}`);
  };
}

/** ASCII text, like base64 content. */
function bigText(bytes) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  return alphabet.repeat(Math.ceil(bytes / alphabet.length)).slice(0, bytes);
}

async function big(peer, bytes) {
  let text = bigText(bytes);
  gc();
  const start = performance.now();
  const result = await peer.call('echo', { text });
  const ms = performance.now() - start;
  if (result?.text !== text) throw new Error('big: the echo does not match the request');
  text = undefined;
  return ms;
}

function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Runs `work` (which resolves with its wall time) and adds the CPU time both processes spent meanwhile. */
async function withCpu(peer, work) {
  gc();
  const serverBefore = (await peer.call('bench/stats', {})).cpuMs;
  const clientBefore = cpuMs();
  const ms = await work();
  const clientCpuMs = cpuMs() - clientBefore;
  const serverCpuMs = (await peer.call('bench/stats', {})).cpuMs - serverBefore;
  return { ms, clientCpuMs, serverCpuMs };
}

async function execute(peer, command) {
  switch (command.op) {
    case 'serial':
      return withCpu(peer, () => serialCalls(echoCall(peer, 'serial'), command.calls));
    case 'pipelined':
      return withCpu(peer, () => pipelinedCalls(echoCall(peer, 'pipelined'), command.calls, command.window));
    case 'big':
      return { ms: await big(peer, command.bytes) };
    case 'stats': {
      const stats = await peer.call('bench/stats', {});
      return { clientPeakRssKiB: peakRssKiB(), serverPeakRssKiB: stats.peakRssKiB };
    }
    case 'close':
      await peer.close();
      return {};
    default:
      throw new Error(`unknown command ${JSON.stringify(command)}`);
  }
}

export async function drive(connect, defaultServer) {
  const config = JSON.parse(process.argv[2] ?? '{}');
  const server = config.server ? fileURLToPath(new URL(config.server, import.meta.url)) : defaultServer;
  const peer = await connect([...(config.serverNodeFlags ?? []), server]);
  if (process.send) {
    process.on('message', (command) => {
      execute(peer, command).then(
        (reply) => {
          process.send({ ok: true, ...reply });
          if (command.op === 'close') process.disconnect();
        },
        (error) => process.send({ ok: false, error: error?.stack ?? String(error) }),
      );
    });
    process.send({ ok: true, ready: true });
    return;
  }
  const { runs = 5, serialCalls = 2000, pipelinedCalls = 20000, window = 64 } = config;
  await execute(peer, { op: 'serial', calls: serialCalls });
  await execute(peer, { op: 'pipelined', calls: pipelinedCalls, window });
  const out = { serial: [], pipelined: [] };
  const summary = (r, calls) =>
    `${Math.round((calls / r.ms) * 1000)}/s, CPU µs/call client ${((r.clientCpuMs * 1000) / calls).toFixed(1)} server ${((r.serverCpuMs * 1000) / calls).toFixed(1)}`;
  for (let r = 0; r < runs; r++) {
    out.serial.push(summary(await execute(peer, { op: 'serial', calls: serialCalls }), serialCalls));
    const p = await execute(peer, { op: 'pipelined', calls: pipelinedCalls, window });
    out.pipelined.push(summary(p, pipelinedCalls));
  }
  Object.assign(out, await execute(peer, { op: 'stats' }));
  await execute(peer, { op: 'close' });
  console.log(JSON.stringify(out));
}

/**
 * Peak RSS of this process. On Linux, VmHWM: getrusage's maxRSS (process.resourceUsage) survives exec, so
 * a child would report its parent's peak whenever that is higher.
 */
export function peakRssKiB() {
  try {
    const match = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS;
}

/** What a server answers to "bench/stats". */
export function serverStats() {
  return { peakRssKiB: peakRssKiB(), cpuMs: cpuMs() };
}
