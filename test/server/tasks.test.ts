// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) end to end in one process: a task-capable
// tool answered with a task when the client declares the extension, polled to its end by mcpwire's client
// (success, failure, cancellation, input requests), expiry, a restarted server's in-memory store, and the
// handshake era, where the extension is not defined. The official SDKs do not implement the extension
// (v2 has no tasks runtime; v1 only the experimental tasks of 2025-11-25), so mcpwire's client drives it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpwireError } from '../../src/jsonrpc/local-errors.js';
import { StreamedString } from '../../src/jsonrpc/streamed.js';
import { TaskManager } from '../../src/protocol/tasks/manager.js';
import type { Task } from '../../src/protocol/tasks/task.js';
import { McpServer } from '../../src/server/server.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { FakeClock } from '../support/fake-clock.js';
import { deferred } from '../support/wire.js';

const TASKS = 'io.modelcontextprotocol/tasks';

interface Harness {
  server: McpServer;
  /** Resolves the `slow` tool's wait. */
  release: () => void;
  /** Whether the slow tool saw its signal aborted. */
  aborted: () => boolean;
  started: Promise<void>;
}

function taskServer(manager?: TaskManager): Harness {
  const server = new McpServer({
    name: 'tasks',
    version: '1.0.0',
    tasks: manager ?? { pollIntervalMs: 10 },
  });
  const gate = deferred<void>();
  const started = deferred<void>();
  let aborted = false;
  server.tool({ name: 'slow', task: 'optional' }, async (_args, ctx) => {
    ctx.progress(1, 2, 'halfway');
    started.resolve();
    await new Promise<void>((resolve, reject) => {
      gate.promise.then(resolve);
      ctx.signal.addEventListener('abort', () => {
        aborted = true;
        reject(ctx.signal.reason);
      });
    });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.tool({ name: 'must', task: 'required' }, () => ({ content: [{ type: 'text', text: 'ran' }] }));
  server.tool({ name: 'broken', task: 'optional' }, () => {
    throw new JsonRpcError(-32050, 'the backend said no', { backend: 'x' });
  });
  server.tool({ name: 'ask', task: 'optional' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
  });
  server.tool(
    {
      name: 'echo',
      task: 'optional',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    },
    (args) => ({ content: [{ type: 'text', text: String(args.n) }] }),
  );
  return {
    server,
    release: () => gate.resolve(),
    aborted: () => aborted,
    started: started.promise,
  };
}

async function connect(server: McpServer, options: Partial<McpClientOptions> = {}): Promise<McpClient> {
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new McpClient({ name: 'test', version: '1.0.0', era: 'stateless', ...options });
  await client.connect(clientSide);
  return client;
}

/** tools/call with the extension declared, returning what the server answered (a task, unfollowed). */
async function startTask(
  client: McpClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return { ...(await client.startToolTask(name, args)) };
}

describe('tasks extension', () => {
  it('offers the extension in server/discover once a task-capable tool is registered', async () => {
    const client = await connect(taskServer().server);
    assert.deepEqual(client.serverExtensions[TASKS], {});
    const plain = new McpServer({ name: 'plain', version: '1' });
    plain.tool({ name: 't' }, () => ({ content: [] }));
    const other = await connect(plain);
    assert.equal(TASKS in other.serverExtensions, false);
  });

  it('answers a call that declares the extension with a task at once, and polls it to its result', async () => {
    const { server, release, started } = taskServer();
    const client = await connect(server);
    const seen: Task[] = [];
    const call = client.callTool('slow', {}, { task: true, onTaskStatus: (task) => seen.push(task) });
    await started;
    release();
    const result = await call;
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
    assert.equal(seen[0]?.status, 'working');
    assert.equal(seen.at(-1)?.status, 'completed');
    assert.ok(seen.every((task) => task.taskId === seen[0]?.taskId));
  });

  it('returns a CreateTaskResult with resultType "task" whose tasks/get finds the task, with progress', async () => {
    const { server, release, started } = taskServer();
    const client = await connect(server);
    const created = await startTask(client, 'slow');
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    assert.equal(typeof created.taskId, 'string');
    assert.equal(created.ttlMs, 3_600_000);
    await started;
    const task = await client.getTask(created.taskId as string);
    assert.equal(task.status, 'working');
    assert.equal(task.statusMessage, 'halfway');
    assert.deepEqual(task._meta?.['dev.mcpwire/progress'], { progress: 1, total: 2 });
    release();
    const result = await client.waitForTask(created.taskId as string);
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
  });

  it('runs an optional tool inline when the call does not declare the extension; refuses a required one with -32021', async () => {
    const { server } = taskServer();
    const client = await connect(server);
    const inline = await client.callTool('echo', { n: 4 });
    assert.deepEqual(inline.content, [{ type: 'text', text: '4' }]);
    await assert.rejects(client.callTool('must'), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.equal(error.code, -32021);
      assert.deepEqual(error.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
      return true;
    });
    const asTask = await client.callTool('must', {}, { task: true });
    assert.deepEqual(asTask.content, [{ type: 'text', text: 'ran' }]);
  });

  it("checks the arguments before there is a task: bad ones are the call's own error result", async () => {
    const client = await connect(taskServer().server);
    const created = await startTask(client, 'echo', { n: 'four' });
    assert.equal(created.resultType, 'complete');
    assert.equal(created.isError, true);
  });

  it('fails a task with the JSON-RPC error its work raised; the client throws that error', async () => {
    const client = await connect(taskServer().server);
    const created = await startTask(client, 'broken');
    await assert.rejects(client.waitForTask(created.taskId as string), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.equal(error.code, -32050);
      assert.equal(error.message, 'the backend said no');
      return true;
    });
    const task = await client.getTask(created.taskId as string);
    assert.equal(task.status, 'failed');
    assert.deepEqual(task.error, { code: -32050, message: 'the backend said no', data: { backend: 'x' } });
  });

  it("reads a streamed value (a file) into the task's result, which is stored, and closes its source", async () => {
    const { server } = taskServer();
    let closed = 0;
    let sent = false;
    const source = {
      async read() {
        if (sent) return null;
        sent = true;
        return Buffer.from('a file, streamed');
      },
      close() {
        closed++;
      },
    };
    server.tool({ name: 'file', task: 'optional' }, () => ({
      content: [{ type: 'text', text: new StreamedString(source, 'text', 16) }],
    }));
    const client = await connect(server);
    const created = await startTask(client, 'file');
    const result = await client.waitForTask(created.taskId as string);
    assert.deepEqual(result.content, [{ type: 'text', text: 'a file, streamed' }]);
    assert.equal(closed, 1);
  });

  // Before, the task stayed "working" in its store for good, and waitForTask polled it forever.
  it('fails a task whose result cannot be stored, saying why, instead of leaving it working', {
    timeout: 10_000,
  }, async () => {
    const { server } = taskServer();
    server.tool({ name: 'unstorable', task: 'optional' }, () => ({
      content: [{ type: 'text', text: 'ok' }],
      _meta: { callback: () => 'a function is no JSON' },
    }));
    const client = await connect(server);
    const created = await startTask(client, 'unstorable');
    await assert.rejects(client.waitForTask(created.taskId as string), /could not be cloned/);
    const task = await client.getTask(created.taskId as string);
    assert.equal(task.status, 'failed');
  });

  it('cancels a task with tasks/cancel: acknowledged, shown as cancelled, its work aborted', async () => {
    const { server, started, aborted } = taskServer();
    const client = await connect(server);
    const created = await startTask(client, 'slow');
    await started;
    const ack = await client.cancelTask(created.taskId as string);
    assert.equal((ack as { resultType?: string }).resultType, 'complete');
    const task = await client.getTask(created.taskId as string);
    assert.equal(task.status, 'cancelled');
    assert.equal(aborted(), true);
    await assert.rejects(
      client.waitForTask(created.taskId as string),
      (error: unknown) => error instanceof McpwireError && error.code === 'TASK_CANCELLED',
    );
  });

  it('cancels the task when the caller aborts a call that became one', async () => {
    const { server, started, aborted } = taskServer();
    const client = await connect(server);
    const controller = new AbortController();
    const first = deferred<string>();
    const call = client.callTool(
      'slow',
      {},
      { task: true, signal: controller.signal, onTaskStatus: (task) => first.resolve(task.taskId) },
    );
    // Aborted once the client holds the task: before that, the abort drops the tools/call itself.
    const taskId = await first.promise;
    await started;
    controller.abort();
    await assert.rejects(call);
    assert.ok(taskId);
    assert.equal((await client.getTask(taskId)).status, 'cancelled');
    assert.equal(aborted(), true);
  });

  it('asks for input through inputRequests; the client answers with its callbacks and tasks/update', async () => {
    const asked: string[] = [];
    const client = await connect(taskServer().server, {
      onElicitation: async (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const statuses: string[] = [];
    const result = await client.callTool(
      'ask',
      {},
      { task: true, onTaskStatus: (t) => statuses.push(t.status) },
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'hello Ada' }]);
    assert.deepEqual(asked, ['Your name?']);
    assert.ok(statuses.includes('input_required'));
  });

  it('shows input requests on tasks/get, ignores unknown keys in tasks/update, and resumes on the answer', async () => {
    // The callback declares the elicitation capability; the test answers by hand instead.
    const client = await connect(taskServer().server, {
      onElicitation: async () => ({ action: 'decline' }),
    });
    const created = await startTask(client, 'ask');
    const taskId = created.taskId as string;
    let task = await client.getTask(taskId);
    for (let i = 0; task.status !== 'input_required' && i < 100; i++) task = await client.getTask(taskId);
    const keys = Object.keys(task.inputRequests ?? {});
    assert.equal(keys.length, 1);
    assert.equal(task.inputRequests?.[keys[0]!]?.method, 'elicitation/create');
    await client.updateTask(taskId, { 'never-asked': { action: 'decline' } });
    assert.equal((await client.getTask(taskId)).status, 'input_required');
    await client.updateTask(taskId, { [keys[0]!]: { action: 'accept', content: { name: 'Grace' } } });
    const result = await client.waitForTask(taskId);
    assert.deepEqual(result.content, [{ type: 'text', text: 'hello Grace' }]);
  });

  it('refuses an unknown task id with -32602', async () => {
    const client = await connect(taskServer().server);
    for (const request of [
      () => client.getTask('nope'),
      () => client.updateTask('nope', {}),
      () => client.cancelTask('nope'),
    ]) {
      await assert.rejects(request(), (error: unknown) => {
        assert.ok(error instanceof JsonRpcError);
        assert.equal(error.code, -32602);
        assert.match(error.message, /no task "nope"/);
        return true;
      });
    }
  });

  it('forgets a task once its ttl has passed, and says it expired', async () => {
    const clock = new FakeClock().install();
    try {
      const manager = new TaskManager({ ttlMs: 60_000, pollIntervalMs: 10 });
      const { server, release } = taskServer(manager);
      const client = await connect(server);
      const created = await startTask(client, 'slow');
      release();
      await clock.advance(60_000);
      await assert.rejects(client.getTask(created.taskId as string), (error: unknown) => {
        assert.ok(error instanceof JsonRpcError);
        assert.equal(error.code, -32602);
        assert.match(error.message, /expired/);
        assert.equal((error.data as { reason: string }).reason, 'expired');
        return true;
      });
    } finally {
      clock.uninstall();
    }
  });

  it('reports a task of a restarted server (tasks in memory) as lost, saying why', async () => {
    const before = await connect(taskServer().server);
    const created = await startTask(before, 'slow');
    await before.close();
    // The same server, started again: a new process has a new, empty memory store.
    const after = await connect(taskServer().server);
    await assert.rejects(after.getTask(created.taskId as string), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.equal(error.code, -32602);
      assert.match(error.message, /is lost: it was started by an earlier run of this server/);
      assert.equal((error.data as { reason: string }).reason, 'lost');
      return true;
    });
  });

  it('binds a task to the caller that created it: another caller is told it does not exist', async () => {
    const manager = new TaskManager();
    const alice = {
      subject: 'alice',
      clientId: 'c',
      scopes: [],
      expiresAt: undefined,
      issuer: 'i',
      claims: {},
    };
    const bob = { ...alice, subject: 'bob' };
    const origin = {
      requestId: 1,
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
      clientInfo: undefined,
      auth: alice,
      extensions: {},
    };
    const created = await manager.start(async () => ({ content: [] }), origin);
    assert.equal((await manager.get(created.taskId, alice)).taskId, created.taskId);
    await assert.rejects(manager.get(created.taskId, bob), /no task/);
    await assert.rejects(manager.cancel(created.taskId, undefined), /no task/);
    manager.close();
  });

  it('does not offer or use the extension in the handshake era; tasks/* are not found there', async () => {
    const { server } = taskServer();
    const client = await connect(server, { era: 'handshake', tasks: true });
    assert.equal(TASKS in client.serverExtensions, false);
    const inline = await client.callTool('echo', { n: 1 }, { task: true });
    assert.deepEqual(inline.content, [{ type: 'text', text: '1' }]);
    await assert.rejects(client.callTool('must', {}, { task: true }), /runs only as a task/);
    await assert.rejects(
      client.getTask('x'),
      (error: unknown) => error instanceof McpwireError && error.code === 'TASKS_UNAVAILABLE',
    );
    await assert.rejects(
      client.request('tasks/get', { taskId: 'x' }),
      /tasks extension, which this server serves on protocol 2026-07-28 only/,
    );
  });
});
