// The tasks extension over Streamable HTTP, mcpwire on both sides: a tools/call becomes a task, each
// tasks/get, tasks/update and tasks/cancel goes on its own exchange with Mcp-Name carrying the taskId
// (the server refuses one whose header does not match), and the client follows the task to its result,
// answering its input request on the way.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { createEverythingServer } from '../../src/servers/everything/index.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';

describe('tasks over Streamable HTTP', () => {
  let listener: HttpListener;

  before(async () => {
    listener = await createEverythingServer().serveHttp();
  });

  after(async () => {
    await listener.close();
  });

  async function connect(): Promise<McpClient> {
    const client = new McpClient({
      name: 't',
      version: '1',
      era: 'stateless',
      onElicitation: async () => ({ action: 'accept', content: { confirm: true } }),
    });
    await client.connect(new HttpClientTransport(listener.url));
    return client;
  }

  it('follows a task to its result, answering its input request', { timeout: 60_000 }, async () => {
    const client = await connect();
    const statuses: string[] = [];
    const result = await client.callTool(
      'confirm_delete',
      { filename: 'a.txt' },
      { task: true, onTaskStatus: (t) => statuses.push(t.status) },
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'Deleted a.txt' }]);
    assert.ok(statuses.includes('input_required'));
    await client.close();
  });

  it('cancels a task over its own exchange', { timeout: 60_000 }, async () => {
    const client = await connect();
    const created = await client.startToolTask('slow_compute', { seconds: 60 });
    assert.equal(created.resultType, 'task');
    const taskId = (created as { taskId: string }).taskId;
    await client.cancelTask(taskId);
    assert.equal((await client.getTask(taskId)).status, 'cancelled');
    await client.close();
  });

  it('refuses a tasks/get whose Mcp-Name is not its taskId (-32020, HTTP 400)', {
    timeout: 60_000,
  }, async () => {
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tasks/get',
        'mcp-name': 'another-task',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tasks/get',
        params: {
          taskId: 'this-task',
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {
              extensions: { 'io.modelcontextprotocol/tasks': {} },
            },
          },
        },
      }),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error?: { code?: number } };
    assert.equal(body.error?.code, -32020);
  });
});
