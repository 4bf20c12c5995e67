// Cross-era through the proxy: a client of the handshake era (2024-11-05 and 2025-11-25) through
// `mcpwire proxy --url` to a server that speaks only 2026-07-28 (it refuses initialize). The proxy's back
// falls back to 2026-07-28, and the server's input_required rounds (sampling, roots, elicitation) become
// requests to the handshake client, answered by its ordinary callbacks. (The other way, a 2026-07-28
// client to a handshake-only server, is in proxy-http.test.ts against server-everything.)

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { JsonRpcPayload } from '../../src/jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../../src/jsonrpc/transport.js';
import { listenHttp } from '../../src/server/http.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { BIN, textOf } from '../support/peers.js';
import { exampleServer } from '../support/stateless-server.js';

/** The server's transport, with initialize refused as a server of 2026-07-28 alone refuses it. */
function statelessOnly(inner: Transport): Transport {
  return {
    start(handlers: TransportHandlers) {
      // Each method named: the connection's handlers are a class instance, whose methods a spread drops
      // (closed was lost, and a session that ended threw "this.handlers?.closed is not a function").
      inner.start({
        frameError: (error) => handlers.frameError(error),
        inputEnded: () => handlers.inputEnded?.(),
        closed: (reason) => handlers.closed(reason),
        message(payload, info) {
          const message = payload as { id?: unknown; method?: unknown };
          if (message.method === 'initialize') {
            inner.send({
              jsonrpc: '2.0',
              id: message.id as number,
              error: { code: ErrorCode.MethodNotFound, message: 'Method not found: initialize' },
            } as JsonRpcPayload);
            return;
          }
          handlers.message(payload, info);
        },
      });
    },
    send: (payload, options) => inner.send(payload, options),
    flush: () => inner.flush(),
    close: () => inner.close(),
  };
}

describe('proxy --url: a handshake-era client to a 2026-07-28-only server', () => {
  let listener: HttpListener;
  before(async () => {
    const server = exampleServer();
    listener = await listenHttp((transport) => void server.connect(statelessOnly(transport)));
  });
  after(async () => {
    await listener?.close();
  });

  for (const version of ['2024-11-05', '2025-11-25']) {
    it(`a ${version} client gets sampling, roots and (where its revision has it) elicitation as requests`, async () => {
      const asked: string[] = [];
      const client = new McpClient({
        name: 'old-client',
        version: '1.0.0',
        era: 'handshake',
        protocolVersion: version,
        timeout: 30_000,
        onSampling: async () => {
          asked.push('sampling');
          return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' };
        },
        roots: () => {
          asked.push('roots');
          return [{ uri: 'file:///tmp', name: 'tmp' }];
        },
        onElicitation: async () => {
          asked.push('elicitation');
          return { action: 'accept', content: { name: 'Ada' } };
        },
      });
      await client.connect(
        new ChildProcessTransport({ command: process.execPath, args: [BIN, 'proxy', '--url', listener.url] }),
        { timeout: 30_000 },
      );
      try {
        assert.equal(client.protocolVersion, version);
        assert.equal(textOf(await client.callTool('get_weather', { location: 'Oslo' })), 'Sunny in Oslo');
        assert.equal(textOf(await client.callTool('two_questions')), 'sampled; 1 roots');
        assert.ok(asked.includes('sampling') && asked.includes('roots'));
        if (version === '2024-11-05') {
          // Elicitation does not exist in 2024-11-05: the server is not offered it, and says so.
          await assert.rejects(
            client.callTool('ask_name'),
            (e: unknown) => e instanceof JsonRpcError && /elicitation/.test(e.message),
          );
          assert.ok(!asked.includes('elicitation'));
        } else {
          assert.match(textOf(await client.callTool('ask_name')), /hello Ada \(accept\)/);
          assert.ok(asked.includes('elicitation'));
        }
      } finally {
        await client.close();
      }
    });
  }
});
