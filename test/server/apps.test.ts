// MCP Apps helpers: appResource serves HTML as a ui:// resource of the app MIME type with its settings in
// _meta.ui (listing and contents) and offers the io.modelcontextprotocol/ui extension; a tool's `ui` links
// it (_meta.ui and the older flat key) and `visibility: ['app']` marks an app-only tool; bad links are
// refused where the tool is defined. serve everything shows a task-capable tool and a small app.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { McpServer } from '../../src/server/server.js';
import { createEverythingServer } from '../../src/servers/everything/index.js';
import { createInMemoryPair } from '../../src/transport/memory.js';

async function connect(server: McpServer, era: 'handshake' | 'stateless' = 'handshake') {
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new McpClient({ name: 't', version: '1', era });
  await client.connect(clientSide);
  return client;
}

function appServer(): McpServer {
  const server = new McpServer({ name: 'apps', version: '1' });
  server.appResource({
    uri: 'ui://apps/view.html',
    name: 'view',
    html: '<p>hi</p>',
    ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true },
  });
  server.tool({ name: 'view', ui: { resourceUri: 'ui://apps/view.html' } }, () => ({ content: [] }));
  server.tool({ name: 'poke', ui: { resourceUri: 'ui://apps/view.html', visibility: ['app'] } }, () => ({
    content: [],
  }));
  return server;
}

describe('MCP Apps helpers', () => {
  for (const era of ['handshake', 'stateless'] as const) {
    it(`serves the app resource with the app MIME type and _meta.ui, and offers the extension (${era})`, async () => {
      const client = await connect(appServer(), era);
      assert.deepEqual(client.serverExtensions['io.modelcontextprotocol/ui'], {});
      const [listed] = await client.listAllResources();
      assert.equal(listed?.mimeType, 'text/html;profile=mcp-app');
      assert.deepEqual(listed?._meta, {
        ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true },
      });
      const read = await client.readResource('ui://apps/view.html');
      assert.deepEqual(read.contents, [
        {
          uri: 'ui://apps/view.html',
          mimeType: 'text/html;profile=mcp-app',
          text: '<p>hi</p>',
          _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } },
        },
      ]);
    });
  }

  it('links tools in _meta.ui (and the flat ui/resourceUri key), with visibility for app-only tools', async () => {
    const client = await connect(appServer());
    const tools = await client.listAllTools();
    assert.deepEqual(tools.find((t) => t.name === 'view')?._meta, {
      ui: { resourceUri: 'ui://apps/view.html' },
      'ui/resourceUri': 'ui://apps/view.html',
    });
    assert.deepEqual(tools.find((t) => t.name === 'poke')?._meta, {
      ui: { resourceUri: 'ui://apps/view.html', visibility: ['app'] },
      'ui/resourceUri': 'ui://apps/view.html',
    });
  });

  it('refuses an app URI or a link that is not ui://, and a visibility other than model and app', () => {
    const server = new McpServer({ name: 'x', version: '1' });
    assert.throws(
      () => server.appResource({ uri: 'https://x/app.html', name: 'a', html: '' }),
      /must start with ui:\/\//,
    );
    assert.throws(
      () => server.tool({ name: 't', ui: { resourceUri: 'file:///app.html' } }, () => ({ content: [] })),
      /must be a ui:\/\/ URI/,
    );
    assert.throws(
      () => server.tool({ name: 'u', ui: { visibility: ['everyone' as 'app'] } }, () => ({ content: [] })),
      /visibility lists "model" and\/or "app"/,
    );
  });

  it('serve everything: long_task runs as a task with progress; the counter app is linked', async () => {
    const server = createEverythingServer();
    const client = await connect(server, 'stateless');
    const messages: string[] = [];
    const result = await client.callTool(
      'long_task',
      { steps: 3, stepMs: 0 },
      { task: true, onTaskStatus: (task) => task.statusMessage && messages.push(task.statusMessage) },
    );
    assert.deepEqual(result.structuredContent, { steps: 3 });
    assert.equal(messages.at(-1), 'step 3 of 3');
    const tools = await client.listAllTools();
    const counter = tools.find((t) => t.name === 'increment_counter');
    assert.deepEqual(counter?._meta?.ui, {
      resourceUri: 'ui://everything/counter.html',
      visibility: ['app'],
    });
    const read = await client.readResource('ui://everything/counter.html');
    assert.equal(read.contents[0]?.mimeType, 'text/html;profile=mcp-app');
  });
});
