// Runs the Streamable HTTP handler on its own Node HTTP server. Binds 127.0.0.1 unless told otherwise,
// and then only answers requests addressed to localhost.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from './server-handler.js';

export interface ListenOptions extends HttpHandlerOptions {
  port?: number;
  host?: string;
  /** The path of the MCP endpoint ("/mcp"). */
  path?: string;
}

export interface HttpListener {
  server: Server;
  handler: HttpHandler;
  url: string;
  close(): Promise<void>;
}

export async function listenHttp(
  connect: (transport: Transport) => void,
  options: ListenOptions,
): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  const local = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  const handler = createHttpHandler(connect, {
    ...options,
    // Bound to all interfaces, any Host is legitimate unless the user restricts it.
    originPolicy: options.originPolicy ?? (local ? undefined : { allowedOrigins: undefined }),
  });
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== endpoint) {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: ErrorCode.InvalidRequest, message: `Not Found: the MCP endpoint is ${endpoint}` },
        }),
      );
      return;
    }
    void handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    handler,
    url: `http://${shownHost}:${address.port}${endpoint}`,
    close: () =>
      new Promise<void>((resolve) => {
        handler.closeAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
