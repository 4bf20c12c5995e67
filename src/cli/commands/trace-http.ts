// `mcpwire trace --http PORT --url UPSTREAM`: a recording reverse proxy for a remote MCP server. It
// listens on 127.0.0.1:PORT and forwards every request to the upstream with the same method, path, headers
// and body bytes (only Host is the upstream's), and every answer back the same way, SSE streams as they
// flow. What passes is watched by an HttpMonitor, which records each message per session and stream and
// flags the faults of the HTTP binding besides the JSON-RPC ones.

import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpMonitor } from '../../inspect/http-monitor.js';
import type { TraceRecord } from '../../inspect/trace-format.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { checkOrigin, localPolicy } from '../../transport/http/security.js';
import type { TraceLog } from '../trace-log.js';
import { UsageError } from '../usage.js';

/** Headers of one hop only (RFC 9110 §7.6.1): each side of the proxy has its own connection. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

export interface HttpTraceOptions {
  port: number;
  upstream: URL;
  /** Added to every request to the upstream (what --header gives). */
  headers: Record<string, string>;
  log: TraceLog;
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(
      `--http ${JSON.stringify(text)} is not a port`,
      'e.g. --http 8080 (0 picks a free one)',
    );
  }
  return port;
}

export async function runHttpTrace(options: HttpTraceOptions): Promise<number> {
  const { upstream, log } = options;
  // Records come in bursts within one millisecond: its text is made once.
  let lastAt = Number.NaN;
  let lastIso = '';
  const iso = (at: number) => {
    if (at !== lastAt) {
      lastAt = at;
      lastIso = new Date(at).toISOString();
    }
    return lastIso;
  };
  const monitor = new HttpMonitor({
    message: (m) => {
      const r: TraceRecord = {
        type: 'message',
        time: iso(m.at),
        from: m.from,
        payload: m.payload,
        stream: m.stream,
      };
      if (m.session !== undefined) r.session = m.session;
      if (m.latencyMs !== undefined) {
        r.latencyMs = Math.round(m.latencyMs * 1000) / 1000;
        r.answers = m.answers;
      }
      log.record(r);
    },
    problem: ({ at, ...p }) => log.record({ type: 'problem', time: iso(at), ...p }),
    // Built field by field, in the order the log has always had (a rest pattern copies generically).
    exchange: (e) => {
      const time = iso(e.at);
      const ms = Math.round(e.ms * 1000) / 1000;
      const { stream, method, path } = e;
      const r: TraceRecord & { type: 'http' } =
        e.session === undefined
          ? { type: 'http', time, ms, stream, method, path }
          : { type: 'http', time, ms, session: e.session, stream, method, path };
      if (e.status !== undefined) r.status = e.status;
      if (e.contentType !== undefined) r.contentType = e.contentType;
      log.record(r);
    },
  });
  const secure = upstream.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  // Kept-alive connections to the upstream: a fresh TCP (and TLS) connection per exchange would be most
  // of the latency the proxy adds.
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });

  const policy = localPolicy();
  // The monitor's work (parsing, checking, recording) waits until the bytes it watches are on their way:
  // node:http writes a request or an answer on the next tick, so work done in the handlers themselves
  // delayed every forward by as long as it took (a 1.9x latency over a byte-copying proxy). One queue for
  // every exchange keeps the order in which things happened, which the monitor relies on (an initialize's
  // answer names the session that the next request belongs to).
  const later = monitorQueue();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // DNS-rebinding protection, as every local endpoint of mcpwire has: what is forwarded carries the
    // --header values (credentials, often), which a web page reaching 127.0.0.1 by a name of its own, or
    // another site's page, must not get to use. Refused here, not forwarded: the upstream is not local.
    const refusal = checkOrigin(req, policy);
    if (refusal) {
      res.writeHead(403, { 'content-type': 'application/json', connection: 'close' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: ErrorCode.InvalidRequest, message: `mcpwire trace: Forbidden: ${refusal}` },
        }),
      );
      req.resume();
      return;
    }
    const exchange = monitor.exchange({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
    });
    const headers = endToEnd(req.headers);
    headers.host = upstream.host;
    Object.assign(headers, options.headers);
    const outbound = send(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (answer) => {
        const status = answer.statusCode ?? 502;
        res.writeHead(status, answer.statusMessage, endToEnd(answer.headers));
        // A stream that stays quiet (a GET stream, an SSE answer still working) must reach the client
        // with its headers at once, as it would without the proxy; when its first bytes came with them,
        // both go out in one write. (res.headersSent cannot tell: it is true once writeHead has run,
        // before anything is written, so a quiet stream's head used to wait for its first event.) The
        // check waits in the monitor's queue, which runs once this turn's writes are queued (an Immediate
        // of its own per answer cost as much again).
        let forwarded = false;
        if (/^text\/event-stream/i.test(String(answer.headers['content-type'] ?? ''))) {
          later(() => {
            if (!forwarded && !res.writableEnded && !res.destroyed) res.flushHeaders();
          });
        }
        const { headers: answered } = answer;
        later(() => exchange.response(status, answered));
        answer.on('data', (chunk: Buffer) => {
          forwarded = true;
          if (!res.write(chunk)) {
            answer.pause();
            res.once('drain', () => answer.resume());
          }
          later(() => exchange.responseBody(chunk));
        });
        answer.on('end', () => {
          res.end();
          later(() => exchange.responseEnd());
        });
        answer.on('error', () => {
          later(() => exchange.failed('the upstream dropped the connection in the middle of its answer'));
          res.destroy();
        });
      },
    );
    outbound.on('error', (error) => {
      const message = `the upstream ${upstream.origin} could not be reached: ${(error as Error).message}`;
      later(() => exchange.failed(message));
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: ErrorCode.InternalError, message: `mcpwire trace: ${message}` },
        }),
      );
    });
    req.on('data', (chunk: Buffer) => {
      if (!outbound.write(chunk)) {
        req.pause();
        outbound.once('drain', () => req.resume());
      }
      later(() => exchange.requestBody(chunk));
    });
    req.on('end', () => {
      outbound.end();
      later(() => exchange.requestEnd());
    });
    // The client closed its side (it gave up on a stream, or ended a GET): so does the proxy, upstream.
    res.on('close', () => {
      if (!res.writableFinished) {
        later(() => exchange.closedByClient());
        outbound.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot listen on 127.0.0.1:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`,
      'Pick another port with --http, or 0 for a free one.',
    );
  });
  const { port } = server.address() as { port: number };
  const local = `http://127.0.0.1:${port}${upstream.pathname}${upstream.search}`;
  process.stderr.write(`mcpwire trace: listening on ${local}, forwarding to ${upstream.href}\n`);

  return new Promise<number>((resolve) => {
    const stop = () => {
      server.close();
      server.closeAllConnections();
      agent.destroy();
      later.drain();
      void log.close().then(() => resolve(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

/** The headers of a message that go on to the next hop (a loop over its keys: no array of pairs made). */
function endToEnd(headers: IncomingMessage['headers']): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/** Runs tasks in the order given, after the current I/O callbacks and the writes they queued. */
function monitorQueue(): ((task: () => void) => void) & { drain(): void } {
  let tasks: Array<() => void> = [];
  const drain = () => {
    const now = tasks;
    tasks = [];
    for (const task of now) task();
  };
  return Object.assign(
    (task: () => void) => {
      if (tasks.length === 0) setImmediate(drain);
      tasks.push(task);
    },
    { drain },
  );
}
