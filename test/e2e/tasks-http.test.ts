// The tasks extension over Streamable HTTP, mcpwire on both sides: a tools/call becomes a task, each
// tasks/get, tasks/update and tasks/cancel goes on its own exchange with Mcp-Name carrying the taskId
// (the server refuses one whose header does not match), and the client follows the task to its result,
// answering its input request on the way, or to its failure. A `mcpwire serve everything --http` process
// killed and started again on the same port reports a task of its earlier run as lost.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { createEverythingServer } from '../../src/servers/everything/index.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { BIN } from '../support/peers.js';

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

  it('fails a task with the JSON-RPC error its work raised; a tool error is a completed task', {
    timeout: 60_000,
  }, async () => {
    const client = await connect();
    const statuses: string[] = [];
    await assert.rejects(
      client.callTool('protocol_error_job', {}, { task: true, onTaskStatus: (t) => statuses.push(t.status) }),
      (error: unknown) => {
        assert.ok(error instanceof JsonRpcError);
        assert.equal(error.code, -32603);
        assert.equal(error.message, 'the job crashed');
        return true;
      },
    );
    assert.equal(statuses.at(-1), 'failed');
    const toolError = await client.callTool('failing_job', {}, { task: true });
    assert.equal(toolError.isError, true);
    assert.deepEqual(toolError.content, [{ type: 'text', text: 'The job failed: nothing to do' }]);
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

/** `mcpwire serve everything --http PORT` (0: any), resolved with its URL once it listens. */
async function serveEverything(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', 'everything', '--http', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /(http:\/\/\S+\/mcp)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve everything exited with ${code}: ${text}`)));
  });
  return { child, url };
}

describe('tasks of a server process that was restarted (tasks in memory)', () => {
  const children: ChildProcess[] = [];

  after(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('reports a task of the earlier run as lost, saying why', { timeout: 60_000 }, async () => {
    const first = await serveEverything(0);
    children.push(first.child);
    const before = new McpClient({ name: 't', version: '1', era: 'stateless' });
    await before.connect(new HttpClientTransport(first.url));
    const created = await before.startToolTask('slow_compute', { seconds: 600 });
    assert.equal(created.resultType, 'task');
    const taskId = (created as { taskId: string }).taskId;
    assert.equal((await before.getTask(taskId)).status, 'working');
    await before.close();
    // The process dies with the task still working (as in a crash), and a new one takes its port.
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const port = Number(new URL(first.url).port);
    const second = await serveEverything(port);
    children.push(second.child);
    assert.equal(second.url, first.url);
    const after = new McpClient({ name: 't', version: '1', era: 'stateless' });
    await after.connect(new HttpClientTransport(second.url));
    await assert.rejects(after.getTask(taskId), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.equal(error.code, -32602);
      assert.match(error.message, /is lost: it was started by an earlier run of this server/);
      assert.equal((error.data as { reason: string }).reason, 'lost');
      return true;
    });
    // A task id the server never issued is only unknown, not lost.
    await assert.rejects(after.getTask('no-such-task'), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.notEqual((error.data as { reason?: string } | undefined)?.reason, 'lost');
      return true;
    });
    await after.close();
  });
});
