// Serves a resource server's Protected Resource Metadata (RFC 9728) at its well-known path. Public by
// nature (it is how a client finds out where to log in), so it needs no token and may be read from any
// origin: a browser-based client fetches it across origins.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceServer } from './resource-server.js';

/** A Node request handler for `resourceServer.metadataPath`; mount it beside the MCP endpoint. */
export function protectedResourceMetadataHandler(
  resourceServer: ResourceServer,
): (request: IncomingMessage, response: ServerResponse) => void {
  const body = JSON.stringify(resourceServer.metadata());
  return (request, response) => {
    request.resume();
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (request.method === 'OPTIONS') {
      response
        .writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Max-Age': '86400' })
        .end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD, OPTIONS' }).end();
      return;
    }
    response.writeHead(200, {
      ...cors,
      'Content-Type': 'application/json',
      'Cache-Control': 'max-age=3600',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}
