// Extensions (SEP-2133): capabilities.extensions on both sides, in both eras. The server offers
// extensions with settings, the client declares its own (at initialize, or in every stateless request's
// envelope), and a handler sees those both declared, with the client's settings, in context.extensions.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { checkExtensionId, negotiateExtensions } from '../../src/protocol/extensions.js';
import { McpServer } from '../../src/server/server.js';
import { createInMemoryPair } from '../../src/transport/memory.js';

const UI = 'io.modelcontextprotocol/ui';

function server(): McpServer {
  const s = new McpServer({
    name: 'ext',
    version: '1.0.0',
    extensions: { 'com.example/alpha': { level: 2 } },
  });
  s.extension(UI, {});
  s.tool({ name: 'seen' }, (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify(ctx.extensions) }],
  }));
  return s;
}

async function connect(era: 'handshake' | 'stateless', extensions?: Record<string, Record<string, unknown>>) {
  const [clientSide, serverSide] = createInMemoryPair();
  server().connect(serverSide);
  const client = new McpClient({ name: 't', version: '1', era, extensions });
  await client.connect(clientSide);
  return client;
}

describe('extensions (SEP-2133)', () => {
  for (const era of ['handshake', 'stateless'] as const) {
    it(`offers the server's extensions with their settings (${era})`, async () => {
      const client = await connect(era);
      assert.deepEqual(client.serverExtensions, { 'com.example/alpha': { level: 2 }, [UI]: {} });
    });

    it(`hands a handler the extensions both sides declared, with the client's settings (${era})`, async () => {
      const client = await connect(era, {
        [UI]: { mimeTypes: ['text/html;profile=mcp-app'] },
        'com.example/only-the-client': {},
      });
      const result = await client.callTool('seen');
      assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), {
        [UI]: { mimeTypes: ['text/html;profile=mcp-app'] },
      });
    });

    it(`gives a handler no extensions when the client declares none (${era})`, async () => {
      const client = await connect(era);
      const result = await client.callTool('seen');
      assert.equal((result.content[0] as { text: string }).text, '{}');
    });
  }

  it('refuses an extension identifier without a vendor prefix', () => {
    assert.throws(() => checkExtensionId('tasks'), /must be "\{vendor-prefix\}\/\{name\}"/);
    assert.throws(() => new McpServer({ name: 'x', version: '1' }).extension('/nameless'), TypeError);
    checkExtensionId('io.modelcontextprotocol/tasks');
  });

  it('leaves out extensions the revision does not define', () => {
    assert.deepEqual(
      negotiateExtensions(
        { a: {}, 'io.modelcontextprotocol/tasks': {} },
        { a: { x: 1 }, 'io.modelcontextprotocol/tasks': {} },
        ['io.modelcontextprotocol/tasks'],
      ),
      { a: { x: 1 } },
    );
  });
});
