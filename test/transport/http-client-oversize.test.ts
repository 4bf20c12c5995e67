// The Streamable HTTP client against a server that starts an SSE event and never ends it: the request of
// that stream fails, saying why, once the event passes maxMessageSize, instead of the client keeping all
// of it in memory while the call waits for ever.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';

describe('the HTTP client and an SSE event that never ends', { timeout: 20_000 }, () => {
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    let body = '';
    request.setEncoding('utf8').on('data', (text: string) => {
      body += text;
    });
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'endless', version: '1' },
            },
          }),
        );
      } else if (message.id === undefined) {
        response.writeHead(202).end();
      } else {
        // 4 MiB of one event's data line, then nothing more: the stream stays open.
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: {"jsonrpc":"2.0","id":');
        const piece = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 64; i++) response.write(piece);
      }
    });
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('fails the request once the event passes the limit', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const client = new McpClient({ name: 't', version: '1', era: 'handshake' });
    await client.connect(new HttpClientTransport(url, { maxMessageSize: 1024 * 1024, openStream: false }));
    try {
      await assert.rejects(
        client.callTool('anything', {}),
        /SSE event from the server exceeds 1048576 bytes/,
      );
    } finally {
      await client.close();
    }
  });
});
