// `mcpwire trace -- COMMAND`: a transparent stdio proxy. Put it in front of any server command (in a
// host's mcpServers configuration, say): every byte is forwarded unchanged in both directions while each
// message is recorded with its direction, time and latency, and every protocol fault is flagged with the
// offending bytes. Its own output goes to stderr or the log file, never into the protocol stream.

import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';
import type { TraceFormat, TraceRecord } from '../../inspect/trace-format.js';
import { WireMonitor } from '../../inspect/wire-monitor.js';
import { releasePipesAfterExit } from '../../transport/platform/pipes-after-exit.js';
import { killTree, spawnAsGroupLeader, trackTree } from '../../transport/platform/process-tree.js';
import { splitAtDoubleDash } from '../options.js';
import { parseRemote } from '../target.js';
import { openTraceLog } from '../trace-log.js';
import { UsageError } from '../usage.js';
import { parsePort, runHttpTrace } from './trace-http.js';

/** How long a server that was passed a signal may take to exit before it gets SIGKILL. */
const KILL_GRACE_MS = 2000;
/** How long the server's stdout and stderr may stay open after it exited (see releasePipesAfterExit). */
const PIPE_GRACE_MS = 500;
/** How long the server may keep running after its stdin closed before the trace flags it. */
const EXIT_GRACE_MS = 1000;
/** How long the records of an HTTP trace may wait to be written together (see openTraceLog). */
const HTTP_BATCH_MS = 20;

export const usage = `Usage: mcpwire trace [--log FILE] [--format pretty|jsonl] -- COMMAND [ARGS]
       mcpwire trace --http PORT --url URL [--header 'Name: value']... [--log FILE] [--format pretty|jsonl]

Runs COMMAND as a stdio MCP server and sits between it and its client, forwarding every byte unchanged,
while it records each message (direction, time, request latency), the server's stderr, and every fault:
non-JSON output on stdout, raw newlines inside messages, invalid JSON-RPC, duplicate ids in flight,
responses to unknown ids or to notifications, progress after a response, requests never answered, and a
server still running a second after its stdin closed.

With --http, it is a reverse proxy for the remote server at URL instead: it listens on 127.0.0.1:PORT
(0 picks a free port; the address is printed on stderr) and forwards every request and answer unchanged,
SSE streams included, while it records each message with its session and stream (POST#n, GET#n), each
exchange with its status and time, and the faults of the HTTP binding: a session id left out or changed,
an answer of the wrong content type or status, an SSE event that is not one JSON-RPC message, a response
on the wrong stream. It runs until it gets SIGINT or SIGTERM.

Options:
  --log FILE               write the trace to FILE (appending) instead of stderr
  --format pretty|jsonl    one readable line per event (default), or one JSON object per line
  --http PORT              be a recording proxy on 127.0.0.1:PORT for the server at --url
  --url URL                the remote server (with --http)
  --header 'Name: value'   add a header to every request to the remote server (repeatable)

In a host configuration:
  {"mcpServers": {"files": {"command": "npx",
     "args": ["mcpwire", "trace", "--log", "/tmp/fs.trace", "--", "npx", "mcpwire", "serve", "fs"]}}}`;

export async function run(argv: string[]): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let values: { log?: string; format?: string; http?: string; url?: string; header?: string[] };
  try {
    ({ values } = parseArgs({
      args: before,
      options: {
        log: { type: 'string' },
        format: { type: 'string' },
        http: { type: 'string' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire trace --help".');
  }
  const format = (values.format ?? 'pretty') as TraceFormat;
  if (format !== 'pretty' && format !== 'jsonl') throw new UsageError('--format is "pretty" or "jsonl"');
  if (values.http !== undefined || values.url !== undefined) {
    if (values.http === undefined || values.url === undefined) {
      throw new UsageError(
        '--http PORT and --url URL go together',
        'e.g. mcpwire trace --http 8080 --url http://127.0.0.1:3000/mcp',
      );
    }
    if (command.length > 0)
      throw new UsageError('--http traces a remote server: give --url or -- COMMAND, not both');
    const port = parsePort(values.http);
    const { url, headers } = parseRemote(values.url, values.header ?? []);
    return runHttpTrace({
      port,
      upstream: new URL(url),
      headers,
      log: openTraceLog(values.log, format, HTTP_BATCH_MS),
    });
  }
  if (values.header) throw new UsageError('--header goes with --http and --url');
  if (command.length === 0) throw new UsageError('which server? e.g. mcpwire trace -- npx mcpwire serve fs');

  const log = openTraceLog(values.log, format);
  const record = log.record;
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
    // A signal is passed on to the server's tree; a server that ignores it gets SIGKILL after a grace
    // period, so that trace (and the host waiting on it) is never kept alive by a stubborn server.
    let killTimer: NodeJS.Timeout | undefined;
    const forward = (signal: NodeJS.Signals) => {
      killTree(child.pid!, signal);
      killTimer ??= setTimeout(() => killTree(child.pid!, 'SIGKILL'), KILL_GRACE_MS);
    };
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    process.on('SIGHUP', forward);
    child.on('exit', () => {
      clearTimeout(killTimer);
      // 'close' waits for the server's pipes, which a background child it left behind (in a session of
      // its own, out of reach of the group's signals) may hold open for ever: after a grace they are
      // destroyed, and the trace ends with the server's own exit code.
      releasePipesAfterExit(child, PIPE_GRACE_MS);
    });
    child.on('close', (code, signal) => {
      untrack();
      monitor.serverExited(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      record({ type: 'exit', time: now(), code, signal });
      process.stdin.pause();
      void log.close().then(() => resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 15) : 1)));
    });
  });
}
