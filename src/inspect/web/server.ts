// The inspector's web server: on 127.0.0.1 only, a random port unless given, and every request checked by
// the guard (loopback, Host, Origin, the session's token). It serves the page (built into the package, no
// CDN), the session's API as JSON, and the live feed as server-sent events.

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeApi } from './api.js';
import { checkRequest } from './guard.js';
import { SECURITY_HEADERS, send, sendText } from './reply.js';
import type { InspectSession } from './session.js';

export interface InspectServerOptions {
  session: InspectSession;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A fresh random token unless given (tests give one). */
  token?: string;
  /** Where the built page is (dist/inspect-page by default). */
  assets?: string;
}

export interface InspectServer {
  /** The address to open, with the token in it. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Bytes that may wait on the live feed of a page that does not read it before it is closed. */
const MAX_STREAM_BACKLOG = 8 * 1024 * 1024;

/** The page's files, and the type each is served as. Nothing else is served from disk. */
const ASSETS: Record<string, string> = {
  '/app.js': 'text/javascript; charset=utf-8',
  '/app.css': 'text/css; charset=utf-8',
  '/app.js.map': 'application/json; charset=utf-8',
};

export function pageAssetsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Built: dist/inspect/web → dist/inspect-page. From the sources (tests under tsx): the build's copy.
  const built = path.resolve(here, '..', '..', 'inspect-page');
  return existsSync(built) ? built : path.resolve(here, '..', '..', '..', 'dist', 'inspect-page');
}

export async function startInspectServer(options: InspectServerOptions): Promise<InspectServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const assets = options.assets ?? pageAssetsDir();
  const { session } = options;
  let port = 0;
  const streams = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refusal = checkRequest(
      {
        remoteAddress: request.socket.remoteAddress,
        host: request.headers.host,
        origin: header(request, 'origin'),
        token: url.searchParams.get('token') ?? header(request, 'x-mcpwire-token'),
      },
      port,
      token,
    );
    if (refusal) {
      send(response, refusal.status, { error: refusal.message });
      return;
    }
    if (request.method === 'GET' && (url.pathname === '/' || url.pathname === '/index.html')) {
      servePage(response, assets, token);
      return;
    }
    const asset = ASSETS[url.pathname];
    if (request.method === 'GET' && asset) {
      serveFile(response, path.join(assets, url.pathname.slice(1)), asset);
      return;
    }
    if (request.method === 'GET' && url.pathname === '/api/events') {
      openStream(request, response);
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      void routeApi(session, request, response, url);
      return;
    }
    send(response, 404, { error: `nothing at ${url.pathname}` });
  });

  function openStream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    response.write(': mcpwire inspect\n\n');
    streams.add(response);
    // A page that stopped reading would have the whole feed kept for it in memory: past the limit its
    // stream is closed, and the page, reconnecting, fetches what it missed (/api/feed, /api/state).
    const write = (text: string) => {
      if (response.writableLength > MAX_STREAM_BACKLOG) response.destroy();
      else response.write(text);
    };
    const offFeed = session.feed.subscribe((entries) =>
      write(`event: feed\ndata: ${JSON.stringify(entries)}\n\n`),
    );
    const offSession = session.subscribe((event) =>
      write(`event: session\ndata: ${JSON.stringify(event)}\n\n`),
    );
    const ping = setInterval(() => write(': ping\n\n'), 15_000);
    ping.unref();
    request.on('close', () => {
      offFeed();
      offSession();
      clearInterval(ping);
      streams.delete(response);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function servePage(response: ServerResponse, assets: string, token: string): void {
  const file = path.join(assets, 'index.html');
  if (!existsSync(file)) {
    send(response, 500, { error: `the page is not built (${file} is missing): run npm run build` });
    return;
  }
  // The token goes into the page's own asset links; it is base64url, nothing to escape.
  sendText(response, 'text/html; charset=utf-8', readFileSync(file, 'utf8').replaceAll('%TOKEN%', token));
}

function serveFile(response: ServerResponse, file: string, type: string): void {
  if (!existsSync(file)) {
    send(response, 500, { error: `the page is not built (${file} is missing): run npm run build` });
    return;
  }
  sendText(response, type, readFileSync(file, 'utf8'));
}
