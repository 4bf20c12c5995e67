// `mcpwire trace -- COMMAND`: a transparent stdio proxy. Put it in front of any server command (in a
// host's mcpServers configuration, say): every byte is forwarded unchanged in both directions while each
// message is recorded with its direction, time and latency, and every protocol fault is flagged with the
// offending bytes. Its own output goes to stderr or the log file, never into the protocol stream.

import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync } from 'node:fs';
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';
import { formatRecord, type TraceFormat, type TraceRecord } from '../../inspect/trace-format.js';
import { WireMonitor } from '../../inspect/wire-monitor.js';
import { killTree, spawnAsGroupLeader, trackTree } from '../../transport/platform/process-tree.js';
import { splitAtDoubleDash } from '../options.js';
import { UsageError } from '../usage.js';

/** How long the server may keep running after its stdin closed before the trace flags it. */
const EXIT_GRACE_MS = 1000;

export const usage = `Usage: mcpwire trace [--log FILE] [--format pretty|jsonl] -- COMMAND [ARGS]

Runs COMMAND as a stdio MCP server and sits between it and its client, forwarding every byte unchanged,
while it records each message (direction, time, request latency), the server's stderr, and every fault:
non-JSON output on stdout, raw newlines inside messages, invalid JSON-RPC, duplicate ids in flight,
responses to unknown ids or to notifications, progress after a response, requests never answered, and a
server still running a second after its stdin closed.

Options:
  --log FILE               write the trace to FILE (appending) instead of stderr
  --format pretty|jsonl    one readable line per event (default), or one JSON object per line

In a host configuration:
  {"mcpServers": {"files": {"command": "npx",
     "args": ["mcpwire", "trace", "--log", "/tmp/fs.trace", "--", "npx", "mcpwire", "serve", "fs"]}}}`;

export async function run(argv: string[]): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let values: { log?: string; format?: string };
  try {
    ({ values } = parseArgs({
      args: before,
      options: { log: { type: 'string' }, format: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire trace --help".');
  }
  if (command.length === 0) throw new UsageError('which server? e.g. mcpwire trace -- npx mcpwire serve fs');
  const format = (values.format ?? 'pretty') as TraceFormat;
  if (format !== 'pretty' && format !== 'jsonl') throw new UsageError('--format is "pretty" or "jsonl"');

  // The log is opened before the server is spawned: a path that cannot be written is one clear line and
  // exit 2, not a stack trace from a stream error after the server started (which, in a host's
  // configuration, looked like the server itself dying).
  if (values.log) openLog(values.log);
  const out = values.log ? createWriteStream(values.log, { flags: 'a' }) : process.stderr;
  const colour = !values.log && process.stderr.isTTY === true && !process.env.NO_COLOR;
  // Records made in one turn of the event loop go out in one write: a write per message would cost the
  // proxy a system call (or a thread-pool round trip, for a file) on the path of every round trip.
  let pending: string[] = [];
  const flushRecords = () => {
    const text = pending.join('');
    pending = [];
    if (text !== '') out.write(text);
  };
  const record = (r: TraceRecord) => {
    if (pending.length === 0) setImmediate(flushRecords);
    pending.push(formatRecord(r, format, colour));
  };
  const now = () => new Date().toISOString();

  const monitor = new WireMonitor({
    message: (m) => {
      const r: TraceRecord = { type: 'message', time: now(), from: m.from, payload: m.payload };
      if (m.latencyMs !== undefined) {
        r.latencyMs = Math.round(m.latencyMs * 1000) / 1000;
        r.answers = m.answers;
      }
      record(r);
    },
    problem: (p) => record({ type: 'problem', time: now(), ...p }),
  });

  const [program, ...args] = command;
  const child = spawn(program!, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: spawnAsGroupLeader });
  return new Promise<number>((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`mcpwire trace: could not start "${program}": ${error.message}\n`);
      resolve(3);
    });
    if (child.pid === undefined) return;
    const untrack = trackTree(child.pid);

    // Forward first, observe second: the bytes reach the other side exactly as they came.
    process.stdin.on('data', (chunk: Buffer) => {
      if (!child.stdin.write(chunk)) {
        process.stdin.pause();
        child.stdin.once('drain', () => process.stdin.resume());
      }
      monitor.clientBytes(chunk);
    });
    let exitTimer: NodeJS.Timeout | undefined;
    process.stdin.on('end', () => {
      monitor.clientEnded();
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) {
        // A server finishing the requests in flight after its input ended is doing it right: the grace
        // period runs from when it has nothing left to answer.
        const checkExit = () => {
          if (monitor.pendingRequests > 0) exitTimer = setTimeout(checkExit, EXIT_GRACE_MS);
          else monitor.serverStillRunning();
        };
        exitTimer = setTimeout(checkExit, EXIT_GRACE_MS);
      }
    });
    child.on('exit', () => clearTimeout(exitTimer));
    child.stdin.on('error', () => {
      // The server went away; its exit is reported below.
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (!process.stdout.write(chunk)) {
        child.stdout.pause();
        process.stdout.once('drain', () => child.stdout.resume());
      }
      monitor.serverBytes(chunk);
    });
    // A UTF-8 character split across two reads is decoded whole.
    const stderrText = new StringDecoder('utf8');
    child.stderr.on('data', (chunk: Buffer) => {
      const text = stderrText.write(chunk);
      if (text !== '') record({ type: 'stderr', time: now(), text });
      // With a log file, the server's stderr still reaches the host as it would without the proxy.
      if (values.log) process.stderr.write(chunk);
    });
    const forward = (signal: NodeJS.Signals) => killTree(child.pid!, signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    child.on('close', (code, signal) => {
      untrack();
      monitor.serverExited(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      record({ type: 'exit', time: now(), code, signal });
      flushRecords();
      process.stdin.pause();
      const finish = () => resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 15) : 1));
      if (out !== process.stderr) (out as NodeJS.WritableStream).end(finish);
      else finish();
    });
  });
}

/** Checks that the trace log can be opened for appending; a UsageError that names the path otherwise. */
function openLog(file: string): void {
  try {
    closeSync(openSync(file, 'a'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'its folder does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (error as Error).message;
    throw new UsageError(
      `cannot write the trace log ${file}: ${why}`,
      'Give --log a file in a folder that exists and is writable.',
    );
  }
}
