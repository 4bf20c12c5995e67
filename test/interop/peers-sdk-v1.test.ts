// mcpwire and the official SDK v1 (@modelcontextprotocol/sdk 1.32.2), which speaks the handshake era only:
//  - mcpwire's McpClient against an SDK v1 McpServer over stdio (test/fixtures/interop/sdk-v1-server.mjs):
//    tools, structured output, resources and templates, a prompt with completion, and the server asking
//    the client for user input, a model completion and its roots, answered by mcpwire's callbacks;
//  - the same server behind the SDK's StreamableHTTPServerTransport in this process, reached by mcpwire's
//    HttpClientTransport: the server's requests and notifications come on the stream of the tool call;
//  - the SDK v1 Client and StreamableHTTPClientTransport against mcpwire's McpServer.serveHttp().
// Everything mcpwire sends is checked against the official 2025-11-25 schema (its server/discover probe
// against 2026-07-28).

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ElicitRequestSchema,
  type JSONRPCMessage,
  LoggingMessageNotificationSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { McpClient, type McpClientOptions, UnsupportedVersionError } from '../../src/client/client.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { Transport } from '../../src/jsonrpc/transport.js';
import type { LoggingMessageNotificationParams } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { createServer as createV1Server } from '../fixtures/interop/sdk-v1-server.mjs';
import {
  Events,
  FIXTURES,
  HANDSHAKE,
  MODERN,
  recording,
  requestMethods,
  schemaProblems,
  textOf,
  type Wire,
} from '../support/peers.js';

const V1_FIXTURE = path.join(FIXTURES, 'sdk-v1-server.mjs');

interface Session {
  client: McpClient;
  wire: Wire;
  logs: LoggingMessageNotificationParams[];
  asked: string[];
}

/** An mcpwire client with every callback, over `transport`, recording the wire. */
async function connectClient(transport: Transport): Promise<Session> {
  const logs: LoggingMessageNotificationParams[] = [];
  const asked: string[] = [];
  const options: McpClientOptions = {
    name: 'mcpwire-peers',
    version: '1.0.0',
    timeout: 20_000,
    onElicitation: async (params) => {
      asked.push(`elicitation: ${params.message}`);
      return { action: 'accept', content: { name: 'Ada' } };
    },
    onSampling: async (params) => {
      asked.push(`sampling: ${params.systemPrompt}`);
      return { role: 'assistant', content: { type: 'text', text: '42' }, model: 'peers-model' };
    },
    roots: () => {
      asked.push('roots');
      return [{ uri: 'file:///peers/root', name: 'peers' }];
    },
    onLog: (message) => logs.push(message),
  };
  const client = new McpClient(options);
  const recorded = recording(transport);
  await client.connect(recorded.transport, { timeout: 20_000 });
  return { client, wire: recorded.wire, logs, asked };
}

/** The checks both transports to the SDK v1 fixture go through; returns the session, once open. */
function describeFixture(
  open: () => Promise<{ session: Session; stop: () => Promise<void> }>,
): () => Session {
  let session: Session;
  let stop: () => Promise<void>;

  before(async () => {
    ({ session, stop } = await open());
  });

  after(async () => {
    await stop?.();
  });

  it('falls back from server/discover to the handshake era', () => {
    const { client, wire } = session;
    assert.equal(client.era, 'handshake');
    assert.equal(client.protocolVersion, HANDSHAKE);
    assert.deepEqual(client.serverInfo, { name: 'sdk-v1-fixture', version: '1.32.2' });
    assert.equal(client.instructions, 'An SDK v1 fixture for mcpwire interop tests.');
    assert.deepEqual(requestMethods(wire.sent).slice(0, 2), ['server/discover', 'initialize']);
    const probeAnswer = wire.received[0] as { error?: { code: number } };
    assert.ok(probeAnswer.error, 'the probe was answered with an error');
  });

  it('lists and calls tools, with structured output', async () => {
    const tools = await session.client.listAllTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'add',
      'ask_model',
      'ask_name',
      'count',
      'list_roots',
    ]);
    const add = tools.find((t) => t.name === 'add');
    assert.deepEqual(add?.outputSchema?.required, ['sum']);
    const sum = await session.client.callTool('add', { a: 19, b: 23 });
    assert.equal(textOf(sum), '42');
    assert.deepEqual(sum.structuredContent, { sum: 42 });
    const invalid = await session.client.callTool('add', { a: 'nineteen', b: 23 });
    assert.equal(invalid.isError, true, 'invalid arguments are a tool error in 2025-11-25');
  });

  it("answers the server's elicitation, sampling and roots requests through the callbacks", async () => {
    const { client, asked } = session;
    // The client filled in the default the user left alone (age), as SEP-1034 asks.
    assert.equal(textOf(await client.callTool('ask_name')), 'accept: Ada, 36');
    assert.equal(textOf(await client.callTool('ask_model')), 'peers-model says 42');
    assert.equal(textOf(await client.callTool('list_roots')), 'file:///peers/root');
    assert.deepEqual(asked, ['elicitation: Your name?', 'sampling: Answer with a number.', 'roots']);
  });

  it('receives the progress and the log message of a call', async () => {
    const progress: Array<[number, number | undefined, string | undefined]> = [];
    const result = await session.client.callTool(
      'count',
      { n: 3 },
      { onProgress: (p) => progress.push([p.progress, p.total, p.message]) },
    );
    assert.equal(textOf(result), 'counted to 3');
    assert.deepEqual(progress, [
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);
    // Sent before the progress and the result, on the same channel, so already here.
    assert.deepEqual(session.logs.at(-1), { level: 'info', logger: 'count', data: 'counting to 3' });
  });

  it('lists and reads resources and templates, and completes', async () => {
    const { client } = session;
    const resources = await client.listAllResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      ['fixture://greeting', 'fixture://items/apple', 'fixture://items/banana', 'fixture://items/cherry'],
    );
    for (const resource of resources) {
      const read = await client.readResource(resource.uri);
      assert.equal(read.contents[0]?.uri, resource.uri);
    }
    assert.deepEqual((await client.readResource('fixture://greeting')).contents, [
      { uri: 'fixture://greeting', mimeType: 'text/plain', text: 'hello from SDK v1' },
    ]);
    const templates = await client.listAllResourceTemplates();
    assert.deepEqual(
      templates.map((t) => t.uriTemplate),
      ['fixture://items/{name}'],
    );
    const items = await client.complete({
      ref: { type: 'ref/resource', uri: 'fixture://items/{name}' },
      argument: { name: 'name', value: 'b' },
    });
    assert.deepEqual(items.completion.values, ['banana']);
    await assert.rejects(client.readResource('fixture://missing'), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      // SDK v1 answers a missing resource with -32602 (the spec of 2025-11-25 suggests -32002); mcpwire
      // accepts either.
      assert.equal(error.code, -32602);
      return true;
    });
  });

  it('gets a prompt with an argument from completion, and pings', async () => {
    const { client } = session;
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'G' },
    });
    assert.deepEqual(completion.completion.values, ['Grace']);
    const prompt = await client.getPrompt('greet', { who: completion.completion.values[0]! });
    assert.deepEqual(prompt.messages, [
      { role: 'user', content: { type: 'text', text: 'Please greet Grace.' } },
    ]);
    assert.deepEqual(await client.ping(), {});
  });

  it('sent only messages valid under the schema of the revision in use', async () => {
    const { wire } = session;
    assert.deepEqual(await schemaProblems(MODERN, { sent: wire.sent.slice(0, 1), received: [] }), []);
    assert.deepEqual(
      await schemaProblems(HANDSHAKE, { sent: wire.sent.slice(1), received: wire.received }),
      [],
    );
  });

  return () => session;
}

describe('mcpwire McpClient with an SDK v1 server over stdio', () => {
  describeFixture(async () => {
    const session = await connectClient(
      new ChildProcessTransport({ command: process.execPath, args: [V1_FIXTURE], stderr: 'pipe' }),
    );
    return { session, stop: () => session.client.close() };
  });
});

describe("mcpwire McpClient with era: 'stateless' and an SDK v1 server", () => {
  it('refuses to fall back, and ends the server process', async () => {
    const client = new McpClient({ name: 'mcpwire-peers', version: '1.0.0', era: 'stateless' });
    const transport = new ChildProcessTransport({ command: process.execPath, args: [V1_FIXTURE] });
    await assert.rejects(client.connect(transport, { timeout: 20_000 }), UnsupportedVersionError);
    assert.ok(client.closed, 'the connection is closed');
    const pid = transport.pid;
    assert.ok(pid !== undefined);
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });
});

describe('mcpwire HttpClientTransport with an SDK v1 StreamableHTTPServerTransport', () => {
  let httpServer: Server;
  let v1Closed = false;
  const sessionIds: Array<string | undefined> = [];
  const httpMethods: string[] = [];

  const current = describeFixture(async () => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    const server = createV1Server();
    server.server.onclose = () => {
      v1Closed = true;
    };
    await server.connect(transport);
    httpServer = createHttpServer((request, response) => {
      sessionIds.push(request.headers['mcp-session-id'] as string | undefined);
      httpMethods.push(String(request.method));
      void transport.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = httpServer.address() as AddressInfo;
    const session = await connectClient(new HttpClientTransport(`http://127.0.0.1:${port}/mcp`));
    return {
      session,
      stop: async () => {
        await session.client.close();
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      },
    };
  });

  it('carries the session id the server gave after initialize', () => {
    // The probe and initialize went without one; every later request carried the same id.
    assert.deepEqual(sessionIds.slice(0, 2), [undefined, undefined]);
    const later = new Set(sessionIds.slice(2));
    assert.equal(later.size, 1);
    assert.match(String([...later][0]), /^[0-9a-f-]{36}$/);
  });

  it('ends the session with DELETE when the client closes', async () => {
    assert.equal(v1Closed, false);
    await current().client.close();
    assert.equal(v1Closed, true, 'the SDK transport closed its session');
    assert.equal(httpMethods.at(-1), 'DELETE');
  });
});

describe('the SDK v1 Client with mcpwire McpServer.serveHttp()', () => {
  let listener: HttpListener;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  const received: JSONRPCMessage[] = [];
  const sent: JSONRPCMessage[] = [];
  const logs: Array<{ level: string; data: unknown }> = [];
  const events = new Events();

  before(async () => {
    const server = new McpServer({ name: 'mcpwire-http', version: '1.0.0' });
    server.tool(
      {
        name: 'work',
        description: 'Works in steps, reporting progress and logging',
        inputSchema: {
          type: 'object',
          properties: { steps: { type: 'integer', minimum: 1 } },
          required: ['steps'],
        },
      },
      async (args, ctx) => {
        const steps = Number(args.steps);
        for (let i = 1; i <= steps; i++) {
          ctx.progress(i, steps, `step ${i}`);
          ctx.log('debug', `debug detail ${i}`);
          ctx.log('info', `step ${i} done`);
        }
        return { content: [{ type: 'text', text: `worked ${steps} steps` }], structuredContent: { steps } };
      },
    );
    server.tool({ name: 'ask', description: 'Asks the user' }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Proceed?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return { content: [{ type: 'text', text: `${answer.action} ${String(answer.content?.ok)}` }] };
    });
    server.resource({ uri: 'mem://note', name: 'note', mimeType: 'text/plain' }, (uri) => [
      { uri, mimeType: 'text/plain', text: 'a note in memory' },
    ]);
    listener = await server.serveHttp();

    transport = new StreamableHTTPClientTransport(new URL(listener.url));
    // Kept before the SDK installs its own handler, which calls this one first.
    transport.onmessage = (message) => {
      received.push(message);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      sent.push(...(Array.isArray(message) ? message : [message]));
      return send(message, options);
    };
    client = new Client({ name: 'sdk-v1-client', version: '1.32.2' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
      events.nudge();
    });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    await listener?.close();
  });

  it('initializes at 2025-11-25 and gets a session', () => {
    assert.deepEqual(client.getServerVersion(), { name: 'mcpwire-http', version: '1.0.0' });
    assert.equal(transport.protocolVersion, HANDSHAKE);
    assert.ok(transport.sessionId);
    assert.deepEqual([...listener.handler.sessions.keys()], [transport.sessionId]);
  });

  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['ask', 'work']);
  });

  it('calls a tool, with progress and logging at the level the client set', async () => {
    await client.setLoggingLevel('info');
    const progress: Array<[number, number | undefined, string | undefined]> = [];
    const result = await client.callTool({ name: 'work', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => progress.push([p.progress, p.total, p.message]),
    });
    assert.deepEqual(result.content, [{ type: 'text', text: 'worked 3 steps' }]);
    assert.deepEqual(result.structuredContent, { steps: 3 });
    assert.deepEqual(progress, [
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);
    // Log messages travel on the call's own SSE stream, before its response.
    const infos = await events.until(() => (logs.length >= 3 ? logs : undefined), 5000, 'three log messages');
    assert.deepEqual(
      infos.map((l) => [l.level, l.data]),
      [
        ['info', 'step 1 done'],
        ['info', 'step 2 done'],
        ['info', 'step 3 done'],
      ],
      'debug messages are below the level and not sent',
    );
  });

  it('elicits from the SDK client during a call', async () => {
    const result = await client.callTool({ name: 'ask', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'accept true' }]);
  });

  it('reads a resource, and refuses a missing one with -32002', async () => {
    const read = await client.readResource({ uri: 'mem://note' });
    assert.deepEqual(read.contents, [
      { uri: 'mem://note', mimeType: 'text/plain', text: 'a note in memory' },
    ]);
    await assert.rejects(client.readResource({ uri: 'mem://missing' }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32002);
      return true;
    });
  });

  it('sent only messages valid under the 2025-11-25 schema', async () => {
    // What the SDK client received is what mcpwire's server sent.
    assert.deepEqual(await schemaProblems(HANDSHAKE, { sent: received, received: sent }), []);
    const methods = new Set((received as Array<{ method?: string }>).map((m) => m.method));
    assert.ok(methods.has('notifications/progress') && methods.has('notifications/message'));
    assert.ok(methods.has('elicitation/create'));
  });

  it('ends the session on DELETE; the old session id is then unknown', async () => {
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    assert.equal(listener.handler.sessions.size, 0);
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': HANDSHAKE,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
    });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32001);
  });
});
