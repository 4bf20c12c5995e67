// The inspector's API, what the page calls: JSON in, JSON out. A server's own error answer is passed on
// as it came (502, with its code and data), so that the page shows exactly what the server said.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { RoutingError } from '../../host/host.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import { send, sendText } from './reply.js';
import type { InspectSession } from './session.js';

/** The largest body the page may send (a tool's arguments, an answer), in bytes. */
const MAX_BODY = 8 * 1024 * 1024;

type Body = Record<string, unknown>;

/** POST /api/NAME: what each does with the body. */
const POSTS: Record<string, (session: InspectSession, body: Body) => unknown> = {
  call: (s, b) =>
    s.call({
      server: text(b, 'server'),
      name: text(b, 'name'),
      arguments: object(b, 'arguments'),
      callId: optionalText(b, 'callId'),
    }),
  cancel: (s, b) => ({ cancelled: s.cancel(text(b, 'callId')) }),
  read: (s, b) => s.read({ server: text(b, 'server'), uri: text(b, 'uri') }),
  prompt: (s, b) =>
    s.prompt({
      server: text(b, 'server'),
      name: text(b, 'name'),
      arguments: object(b, 'arguments') as Record<string, string>,
    }),
  complete: (s, b) =>
    s.complete({
      server: text(b, 'server'),
      ref: b.ref as never,
      argument: b.argument as never,
      ...(b.context ? { context: b.context as never } : {}),
    }),
  subscribe: (s, b) =>
    s.setSubscribed({ server: text(b, 'server'), uri: text(b, 'uri'), subscribed: b.subscribed === true }),
  answer: (s, b) => ({ answered: s.answer({ id: text(b, 'id'), result: b.result }) }),
  roots: (s, b) => {
    if (!Array.isArray(b.roots)) throw bad('"roots" is a list of {uri, name}');
    s.setRoots(b.roots as never);
    return {};
  },
  level: async (s, b) => {
    await s.setLevel(text(b, 'level'));
    return {};
  },
  doctor: (s, b) => s.doctor(text(b, 'server')),
  restart: (s, b) => s.restart(text(b, 'server')),
  add: (s, b) => s.add(object(b, 'mcpServers') ?? {}),
};

export async function routeApi(
  session: InspectSession,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const name = url.pathname.slice('/api/'.length);
  try {
    if (request.method === 'GET') {
      if (name === 'state') return send(response, 200, await session.state());
      if (name === 'feed') {
        const after = Number(url.searchParams.get('after') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 10_000);
        return send(response, 200, session.feed.after(after || 0, Math.min(limit || 10_000, 50_000)));
      }
      if (name === 'export') {
        const server = url.searchParams.get('server') ?? '';
        const file = `${server.replace(/[^\w.-]/g, '_') || 'session'}.trace.jsonl`;
        return sendText(response, 'application/x-ndjson; charset=utf-8', session.feed.traceLog(server), {
          'content-disposition': `attachment; filename="${file}"`,
        });
      }
    }
    const handler = POSTS[name];
    if (!handler) return send(response, 404, { error: `no API ${request.method} /api/${name}` });
    if (request.method !== 'POST') return send(response, 405, { error: `/api/${name} takes POST` });
    const type = request.headers['content-type'] ?? '';
    // Only JSON: a form another site posts (no preflight) is refused even before the Origin would be.
    if (!type.startsWith('application/json'))
      return send(response, 415, { error: 'the API takes application/json' });
    const body = await readBody(request);
    send(response, 200, (await handler(session, body)) ?? {});
  } catch (error) {
    replyError(response, error);
  }
}

function replyError(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  if (error instanceof JsonRpcError) {
    send(response, 502, { error: error.message, code: error.code, data: error.data, from: 'server' });
  } else if (error instanceof RoutingError) {
    send(response, 409, { error: error.message });
  } else if (error instanceof TooLarge) {
    // Nothing more of the body is read: the connection closes once the answer is out.
    response.shouldKeepAlive = false;
    send(response, 413, { error: error.message });
  } else if (error instanceof McpwireError) {
    send(response, error.code === 'INSPECT_REQUEST' ? 400 : 502, { error: error.message, local: error.code });
  } else {
    send(response, 500, { error: error instanceof Error ? error.message : String(error) });
  }
}

async function readBody(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  const declared = Number(request.headers['content-length']);
  if (declared > MAX_BODY) throw tooLarge();
  // Read by hand, not by iterating the request: leaving the loop early destroyed the request, and with
  // it the connection the answer was to go on.
  await new Promise<void>((resolve, reject) => {
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        request.removeAllListeners('data');
        request.pause();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve());
    request.on('error', reject);
  });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw bad('the body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad('the body is a JSON object');
  return value as Body;
}

/** A body past MAX_BODY: answered 413, and its connection closed. */
class TooLarge extends Error {}

function tooLarge(): TooLarge {
  return new TooLarge(`the body is larger than ${MAX_BODY} bytes`);
}

function bad(message: string): McpwireError {
  return new McpwireError('INSPECT_REQUEST', message);
}

function text(body: Body, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value === '') throw bad(`"${key}" is a non-empty string`);
  return value;
}

function optionalText(body: Body, key: string): string | undefined {
  return body[key] === undefined ? undefined : text(body, key);
}

function object(body: Body, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad(`"${key}" is a JSON object`);
  return value as Record<string, unknown>;
}
