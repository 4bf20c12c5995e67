// The official SDK clients and mcpwire's tasks, as the README states them. Neither SDK implements the
// tasks extension of 2026-07-28 (io.modelcontextprotocol/tasks, SEP-2663), so the extension's lifecycle
// is tested with mcpwire's client (test/server/tasks.test.ts, test/e2e/tasks-http.test.ts); this file pins
// what each SDK client gets from `serve everything` over HTTP:
//  - SDK v1 (1.32.2) has the experimental tasks of 2025-11-25 (`client.experimental.tasks`). A
//    handshake-era mcpwire server does not serve them: no `tasks` capability, no `execution.taskSupport`,
//    a task-augmented call of an optional tool answered inline with its result (which the SDK's
//    `experimental.tasks.callToolStream` then refuses, as it wants a CreateTaskResult back; its callTool
//    takes it), a required one refused with -32021, and tasks/get, tasks/result, tasks/list and
//    tasks/cancel refused with -32601 naming the revision that has the extension;
//  - SDK v2 (2.4.0), pinned to 2026-07-28, declares no extension: the same optional tool runs inline and
//    the required one is refused with -32021 naming the extension in requiredCapabilities.
// The day an SDK client implements the extension, these tests fail and its lifecycle tests move here.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEverythingServer } from '../../src/servers/everything/index.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { MODERN, textOf } from '../support/peers.js';

const TASKS = 'io.modelcontextprotocol/tasks';

describe('the SDK v1 client and the experimental tasks of 2025-11-25', () => {
  let listener: HttpListener;
  let client: V1Client;

  before(async () => {
    listener = await createEverythingServer().serveHttp();
    client = new V1Client({ name: 'sdk-v1-client', version: '1.32.2' }, { capabilities: {} });
    await client.connect(new V1Transport(new URL(listener.url)));
  });

  after(async () => {
    await client?.close();
    await listener?.close();
  });

  it('sees no tasks capability and no taskSupport on task-capable tools', async () => {
    assert.equal(client.getServerCapabilities()?.tasks, undefined);
    const { tools } = await client.listTools();
    const longTask = tools.find((tool) => tool.name === 'long_task');
    assert.ok(longTask);
    assert.equal(longTask.execution, undefined);
  });

  it('gets the plain result of a task-augmented callTool of an optional tool: the task parameter is ignored', async () => {
    const result = await client.callTool(
      { name: 'long_task', arguments: { steps: 2, stepMs: 0 } },
      undefined,
      { task: { ttl: 60_000 } },
    );
    assert.equal(textOf(result as { content?: unknown }), 'Done: 2 steps.');
  });

  it('makes experimental.tasks.callToolStream with a task option fail in the SDK, which wants a task back', async () => {
    const withTask = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'long_task', arguments: { steps: 2, stepMs: 0 } },
      undefined,
      { task: { ttl: 60_000 } },
    )) {
      withTask.push(message);
    }
    // mcpwire answered the call (the plain result); the SDK's check of a CreateTaskResult refused it.
    assert.deepEqual(
      withTask.map((m) => m.type),
      ['error'],
    );
    const [failure] = withTask;
    assert.match(failure?.type === 'error' ? failure.error.message : '', /"task"/);
    const plain = [];
    for await (const message of client.experimental.tasks.callToolStream({
      name: 'long_task',
      arguments: { steps: 2, stepMs: 0 },
    })) {
      plain.push(message);
    }
    assert.deepEqual(
      plain.map((m) => m.type),
      ['result'],
    );
  });

  it('is refused a required-task tool with -32021', async () => {
    await assert.rejects(
      client.callTool({ name: 'failing_job', arguments: {} }, undefined, { task: { ttl: 60_000 } }),
      (error: unknown) => {
        assert.equal((error as { code?: number }).code, -32021);
        return true;
      },
    );
  });

  it('is answered -32601 for tasks/get, tasks/result, tasks/list and tasks/cancel, naming 2026-07-28', async () => {
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['tasks/get', () => client.experimental.tasks.getTask('some-task')],
      ['tasks/result', () => client.experimental.tasks.getTaskResult('some-task')],
      ['tasks/list', () => client.experimental.tasks.listTasks()],
      ['tasks/cancel', () => client.experimental.tasks.cancelTask('some-task')],
    ];
    for (const [method, call] of calls) {
      await assert.rejects(call(), (error: unknown) => {
        const { code, message } = error as { code?: number; message: string };
        assert.equal(code, -32601, method);
        assert.match(message, /which this server serves on protocol 2026-07-28 only/, method);
        return true;
      });
    }
  });
});

describe('the SDK v2 client (2026-07-28) and a task-capable tool', () => {
  let listener: HttpListener;
  let client: V2Client;

  before(async () => {
    listener = await createEverythingServer().serveHttp();
    client = new V2Client(
      { name: 'sdk-v2-client', version: '2.4.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(new V2Transport(new URL(listener.url)));
  });

  after(async () => {
    await client?.close();
    await listener?.close();
  });

  it('runs an optional-task tool inline: the client declares no tasks extension', async () => {
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
    const result = await client.callTool({ name: 'long_task', arguments: { steps: 2, stepMs: 0 } });
    assert.equal(textOf(result), 'Done: 2 steps.');
  });

  it('is refused a required-task tool with -32021, the extension named in requiredCapabilities', async () => {
    await assert.rejects(client.callTool({ name: 'failing_job', arguments: {} }), (error: unknown) => {
      const { code, data } = error as { code?: number; data?: { requiredCapabilities?: unknown } };
      assert.equal(code, -32021);
      assert.deepEqual(data?.requiredCapabilities, { extensions: { [TASKS]: {} } });
      return true;
    });
  });
});
