// Runs the Streamable HTTP handler on its own Node HTTP server. Binds 127.0.0.1 unless told otherwise,
// and then only answers requests addressed to localhost.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { protectedResourceMetadataHandler } from './auth/metadata-endpoint.js';
import type { ResourceServer } from './auth/resource-server.js';
import { createHttpEndpoint, type HttpHandler, type HttpHandlerOptions } from './server-handler.js';

export interface ListenOptions extends Omit<HttpHandlerOptions, 'authorization'> {
  /**
   * Authorization (see HttpHandlerOptions), or a function that makes it from the endpoint's URL once the
   * port is known (the URL is the resource's canonical URI unless told otherwise).
   */
  authorization?: ResourceServer | ((endpointUrl: string) => ResourceServer);
  port?: number;
  host?: string;
  /** The path of the MCP endpoint ("/mcp"). */
  path?: string;
  /**
   * How long a kept-alive connection may sit idle before the server closes it, in ms (65 000; Node's own
   * default is 5 000). fetch (undici, as the official SDK's client uses) keeps a connection for the
   * server's Keep-Alive hint less 2 s, so against Node's default a client calling every few seconds opened
   * a connection per call; and a load balancer (60 s of idle is common) would send requests on connections
   * the server is closing that moment, which are lost ("socket hang up", or a 502 from the balancer).
   */
  keepAliveTimeout?: number;
}

export interface HttpListener {
  server: Server;
  handler: HttpHandler;
  url: string;
  /** This instance's name on its fleet's bus, when it serves in a fleet. */
  instanceId?: string;
  close(): Promise<void>;
}

/** The transport's side of the public listenHttp (server/http.ts): the endpoint on a port of its own. */
export async function listenHttpEndpoint(
  connect: (transport: Transport) => void,
  options: ListenOptions,
): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  const local = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  // The endpoint's URL is known once the port is: authorization may need it as the resource's URI, so
  // the handler is made then. Nothing can arrive before (the server is not listening yet).
  let route: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => route?.(request, response));
  server.keepAliveTimeout = options.keepAliveTimeout ?? 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}${endpoint}`;
  const authorization =
    typeof options.authorization === 'function' ? options.authorization(url) : options.authorization;
  const handler = createHttpEndpoint(connect, {
    ...options,
    authorization,
    // Bound to all interfaces, any Host is legitimate unless the user restricts it.
    originPolicy: options.originPolicy ?? (local ? undefined : { allowedOrigins: undefined }),
  });
  const metadata = authorization ? protectedResourceMetadataHandler(authorization) : undefined;
  route = (request, response) => {
    const target = request.url ?? '/';
    const query = target.indexOf('?');
    const path = query === -1 ? target : target.slice(0, query);
    if (metadata && path === authorization?.metadataPath) {
      metadata(request, response);
      return;
    }
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
  };
  return {
    server,
    handler,
    url,
    instanceId: options.fleet?.bus.instanceId,
    close: () =>
      new Promise<void>((resolve) => {
        handler.closeAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
