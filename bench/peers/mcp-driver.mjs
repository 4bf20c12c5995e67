// The client side of the server, client and trace benchmarks, shared by every MCP client (hand-written,
// mcpwire, SDK) so that each runs exactly the same workload: calls of the `echo` tool and reads of the
// text resources bench://text/BYTES (see mcp-text.mjs), against the server command in argv[2]:
//   {"server": ["/path/to/node", "raw-mcp-server.mjs", ...]}
// A client module calls `driveMcp(connect)`, where `connect(command, args)` starts the server, performs
// the initialize handshake and returns
//   { pid, echo(text): Promise<CallToolResult>, read(uri): Promise<ReadResourceResult>, close(): Promise<void> }
// and may add `extra` commands of its own (the hand-written client's cold starts), called as
// extra[op](command, args, message, connection).
// {"servers": [command, ...]} instead of "server" connects one client process to several servers, and a
// command's `target` (an index, 0 by default; not `server`, which the hand-written client's cold start
// takes as a whole command) says which one it runs against: servers compared through one client share what
// that process keeps for its life (its JIT's choices, where the host placed it), which for a client that
// bounds the rate sets the rate as much as the server does.
//
// The benchmark (bench/lib/peer.ts) starts a client with an IPC channel and sends it one command at a time:
//   { op: 'serial', calls }             `calls` tool calls, one in flight        -> { ms, clientCpuMs, serverCpuMs }
//   { op: 'pipelined', calls, window }  `calls` tool calls, `window` in flight   -> { ms, clientCpuMs, serverCpuMs }
//   { op: 'read', bytes }               one resources/read of BYTES characters   -> { ms, failed?: reason }
//   { op: 'stats' }                     peak RSS of client and server, and the   -> { clientPeakRssKiB, serverPeakRssKiB,
//                                       server's pid                                  serverPid }
//   { op: 'close' }                     stop the servers, then exit              -> {}
// The server's CPU time and peak RSS are read from /proc/PID (Linux; absent elsewhere), so that no server
// needs anything beyond MCP itself. Through `mcpwire trace`, PID is the proxy's.

import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pipelinedCalls, serialCalls } from './call-loops.mjs';
import { checkResourceText, resourceUri } from './mcp-text.mjs';

const gc = globalThis.gc ?? (() => {});
/** Clock ticks per second of /proc/PID/stat; 100 on every Linux that node runs on in practice. */
const CLOCK_TICKS = 100;

function checkEcho(result, text) {
  const got = result?.content?.[0]?.text;
  if (got !== text) throw new Error(`wrong tool result for "${text}": ${JSON.stringify(result)}`);
}

/** A call of the echo tool with the n-th text, checked. */
function echoCall(client) {
  return async (n) => {
    const text = `hello ${n}`;
    checkEcho(await client.echo(text), text);
  };
}

async function read(client, bytes) {
  gc();
  const start = performance.now();
  let result;
  try {
    result = await client.read(resourceUri(bytes));
  } catch (error) {
    return { failed: error?.message ?? String(error), ms: performance.now() - start };
  }
  const ms = performance.now() - start;
  const wrong = checkResourceText(result?.contents?.[0]?.text, bytes);
  if (wrong) throw new Error(`read of ${bytes} bytes: ${wrong}`);
  return { ms };
}

function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Per process: whether its CPU time is read from schedstat (ns) or from stat (ticks); never both. */
const cpuSource = new Map();

/**
 * CPU time of another process in ms, from /proc; undefined where there is none. The nanoseconds each of
 * its threads spent on a CPU (/proc/PID/task/TID/schedstat) where the kernel keeps them: /proc/PID/stat
 * counts 10 ms ticks, which over a run of 5000 calls of some 50 µs each is ±2 µs a call, a third of what
 * tells two fast servers apart. Else user + system time in ticks. One source per process, chosen at its
 * first reading, so that a difference of two readings never mixes them. A thread that ends between two
 * readings takes its time with it: node's threads live as long as the process does.
 */
export function processCpuMs(pid) {
  let source = cpuSource.get(pid);
  if (source === undefined) {
    // A kernel without schedstat has no file; one with it switched off (sched_info) writes zeros.
    source = (schedstatNs(pid) ?? 0) > 0 ? 'schedstat' : 'stat';
    cpuSource.set(pid, source);
  }
  if (source === 'schedstat') {
    const ns = schedstatNs(pid);
    return ns === undefined ? undefined : ns / 1e6;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** The nanoseconds a process's threads were on a CPU; undefined when it or the files are gone. */
function schedstatNs(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let ns = 0;
  for (const task of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ', 1)[0]);
    } catch {
      // That thread ended after the listing.
    }
  }
  return Number.isFinite(ns) ? ns : undefined;
}

/** Peak RSS (VmHWM) of a process in KiB, from /proc; undefined where there is none. */
export function processPeakRssKiB(pid = 'self') {
  try {
    const match = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // Not Linux, or the process is gone.
  }
  return pid === 'self' ? process.resourceUsage().maxRSS : undefined;
}

async function withCpu(client, work) {
  gc();
  const serverBefore = processCpuMs(client.pid);
  const clientBefore = cpuMs();
  const ms = await work();
  const clientCpuMs = cpuMs() - clientBefore;
  const serverAfter = processCpuMs(client.pid);
  // A negative difference (a thread ended, with its time, between the readings) is no measurement.
  const serverCpuMs =
    serverBefore === undefined || serverAfter === undefined || serverAfter < serverBefore
      ? undefined
      : serverAfter - serverBefore;
  return { ms, clientCpuMs, serverCpuMs };
}

export async function driveMcp(connect, extra = {}) {
  const config = JSON.parse(process.argv[2] ?? '{}');
  const commands = config.servers ?? [config.server];
  // One connection per server, made one after the other (a server's start is not measured).
  const clients = [];
  for (const [command, ...args] of commands) clients.push(await connect(command, args));
  const execute = async (message) => {
    const index = message.target ?? 0;
    if (message.op !== 'close' && !(Number.isInteger(index) && clients[index] !== undefined)) {
      throw new Error(`no server ${JSON.stringify(index)} to target: this client has ${clients.length}`);
    }
    const client = clients[index];
    const [command, ...args] = commands[index] ?? [];
    switch (message.op) {
      case 'serial':
        return withCpu(client, () => serialCalls(echoCall(client), message.calls));
      case 'pipelined':
        return withCpu(client, () => pipelinedCalls(echoCall(client), message.calls, message.window));
      case 'read': {
        const outcome = await read(client, message.bytes);
        if (outcome.failed) {
          // A client that failed a read may be left mid-message: start over with a fresh server.
          await client.close().catch(() => {});
          clients[index] = await connect(command, args);
        }
        return outcome;
      }
      case 'stats':
        return {
          clientPeakRssKiB: processPeakRssKiB(),
          serverPeakRssKiB: processPeakRssKiB(client.pid),
          serverPid: client.pid,
        };
      case 'close': {
        // Every server is stopped, whichever fails to stop; the first failure is then reported.
        const outcomes = await Promise.allSettled(clients.map((each) => each.close()));
        const failed = outcomes.find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
        return {};
      }
      default:
        if (extra[message.op]) return extra[message.op](command, args, message, client);
        throw new Error(`unknown command ${JSON.stringify(message)}`);
    }
  };
  process.on('message', (message) => {
    execute(message).then(
      (reply) => {
        process.send({ ok: true, ...reply });
        if (message.op === 'close') process.disconnect();
      },
      (error) => process.send({ ok: false, error: error?.stack ?? String(error) }),
    );
  });
  process.send({ ok: true, ready: true });
}
