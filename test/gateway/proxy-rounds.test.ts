// A 2026-07-28 client through the proxy to a 2026-07-28 server: the server's input_required rounds reach
// the client as the server made them (its own keys, every request of a round together, its requestState),
// the request that comes back with the answers reaches the server as sent, and the server is told the
// client's own capabilities on each request, so a client that did not declare what a tool asks for gets
// -32021 naming it, not a question (the shared back once declared every capability on everyone's behalf).
// And the front checks a tools/call's Mcp-Param-* headers against the back tool's x-mcp-header marks, as
// the server itself does over HTTP (behind the proxy it is on stdio, where there are no headers). A
// gateway hands a server's tasks through too, and sends tasks/get to the server whose task it is.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { parseFilters } from '../../src/gateway/filters.js';
import { type Gateway, openGateway, serveGatewayHttp } from '../../src/gateway/gateway.js';
import { type HttpProxy, proxyHttp } from '../../src/gateway/proxy.js';
import { parseConfig } from '../../src/host/config.js';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/server.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { BIN, REPO_ROOT, textOf } from '../support/peers.js';

function backServer(): McpServer {
  const server = new McpServer({ name: 'rounds', version: '1.0.0' });
  server.tool(
    { name: 'two_questions', description: 'Asks a name and a sample at once.' },
    async (_a, ctx) => {
      const [name, sample] = await Promise.all([
        ctx.elicit(
          {
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
          { key: 'user_name' },
        ),
        ctx.sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 },
          { key: 'greeting' },
        ),
      ]);
      const said = sample.content as { text?: string };
      return { content: [{ type: 'text', text: `${String(name.content?.name)} / ${said.text}` }] };
    },
  );
  server.tool(
    {
      name: 'in_region',
      description: 'Says its region, which travels as a header too.',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    async (args) => ({ content: [{ type: 'text', text: String((args as { region: string }).region) }] }),
  );
  return server;
}

/**
 * A raw 2026-07-28 tools/call of `tool` with `{ region }` as its arguments and these headers besides the
 * metadata ones (Mcp-Param-Region is the test's to give, or not).
 */
function rawRegionCall(
  url: string,
  tool: string,
  region: string,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': tool,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: { region },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

describe('proxy: 2026-07-28 input rounds of a 2026-07-28 server', () => {
  let proxy: HttpProxy;
  before(async () => {
    proxy = await proxyHttp(
      {
        open: () => {
          const [front, back] = createInMemoryPair();
          backServer().connect(back);
          return front;
        },
        clientInfo: { name: 'rounds', version: '1.0.0' },
      },
      { port: 0 },
    );
  });
  after(async () => {
    await proxy?.close();
  });

  async function client(): Promise<McpClient> {
    const made = new McpClient({
      name: 'caller',
      version: '1.0.0',
      era: 'stateless',
      timeout: 30_000,
      onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
      onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' }),
    });
    await made.connect(new HttpClientTransport(proxy.url), { timeout: 30_000 });
    return made;
  }

  it("one round carries all of the server's requests under its own keys, and the answers reach it", async () => {
    const caller = await client();
    try {
      const capabilities = { elicitation: {}, sampling: {} };
      const round = await caller.request<{
        resultType: string;
        inputRequests: Record<string, { method: string }>;
        requestState?: string;
      }>('tools/call', { name: 'two_questions', arguments: {} }, { passThrough: true, capabilities });
      assert.equal(round.resultType, 'input_required');
      assert.deepEqual(Object.keys(round.inputRequests).sort(), ['greeting', 'user_name']);
      assert.equal(round.inputRequests.user_name!.method, 'elicitation/create');
      assert.equal(round.inputRequests.greeting!.method, 'sampling/createMessage');
      const done = await caller.request(
        'tools/call',
        {
          name: 'two_questions',
          arguments: {},
          inputResponses: {
            user_name: { action: 'accept', content: { name: 'Grace' } },
            greeting: { role: 'assistant', content: { type: 'text', text: 'hey' }, model: 'm' },
          },
          requestState: round.requestState,
        },
        { passThrough: true, capabilities },
      );
      assert.equal(textOf(done as never), 'Grace / hey');
      // And a client that answers rounds itself gets there on its own.
      assert.equal(textOf(await caller.callTool('two_questions')), 'Ada / hello');
    } finally {
      await caller.close();
    }
  });

  it('a client that did not declare elicitation gets -32021 naming it, not a question', async () => {
    const caller = await client();
    try {
      await assert.rejects(
        caller.request('tools/call', { name: 'two_questions', arguments: {} }, { capabilities: {} }),
        (error: unknown) =>
          error instanceof JsonRpcError &&
          error.code === ErrorCode.MissingRequiredClientCapability &&
          typeof (error.data as { requiredCapabilities?: unknown })?.requiredCapabilities === 'object',
      );
    } finally {
      await caller.close();
    }
  });
});

describe('proxy: Mcp-Param-* headers of a 2026-07-28 tools/call', () => {
  let proxy: HttpProxy;
  before(async () => {
    proxy = await proxyHttp(
      {
        open: () => {
          const [front, back] = createInMemoryPair();
          backServer().connect(back);
          return front;
        },
        clientInfo: { name: 'headers', version: '1.0.0' },
      },
      { port: 0 },
    );
  });
  after(async () => {
    await proxy?.close();
  });

  /** A raw tools/call of in_region with these headers besides the metadata ones. */
  const call = (region: string, headers: Record<string, string>) =>
    rawRegionCall(proxy.url, 'in_region', region, headers);

  it('a header that differs from the argument, or is missing, is refused with 400 and -32020', async () => {
    const cases: Array<Record<string, string>> = [{ 'mcp-param-region': 'us-west1' }, {}];
    for (const headers of cases) {
      const answer = await call('eu-west1', headers);
      assert.equal(answer.status, 400);
      const body = (await answer.json()) as { error?: { code: number } };
      assert.equal(body.error?.code, ErrorCode.HeaderMismatch);
    }
  });

  it('a header that matches is served, and the client sends it itself', async () => {
    const answer = await call('eu-west1', { 'mcp-param-region': 'eu-west1' });
    assert.equal(answer.status, 200);
    const caller = new McpClient({ name: 'caller', version: '1.0.0', era: 'stateless', timeout: 30_000 });
    await caller.connect(new HttpClientTransport(proxy.url), { timeout: 30_000 });
    try {
      await caller.listTools();
      assert.equal(textOf(await caller.callTool('in_region', { region: 'ap-south1' })), 'ap-south1');
    } finally {
      await caller.close();
    }
  });
});

describe('gateway: the tasks of a 2026-07-28 server', () => {
  let gateway: Gateway;
  let front: HttpListener;
  before(async () => {
    const json = {
      mcpServers: { everything: { command: process.execPath, args: [BIN, 'serve', 'everything'] } },
    };
    gateway = await openGateway(
      { host: parseConfig(json, process.env, REPO_ROOT), filters: parseFilters(json, 'test') },
      { info: { name: 'gw', version: '1.0.0' } },
    );
    front = await serveGatewayHttp(gateway);
  });
  after(async () => {
    await front?.close();
    await gateway?.close();
  });

  it("checks a tools/call's Mcp-Param-* headers against the server tool's marks without a tools/list first", async () => {
    const call = (headers: Record<string, string>) =>
      rawRegionCall(front.url, 'everything__test_header_param', 'eu-west1', headers);
    const wrong = await call({ 'mcp-param-region': 'us-west1' });
    assert.equal(wrong.status, 400);
    assert.equal(
      ((await wrong.json()) as { error?: { code: number } }).error?.code,
      ErrorCode.HeaderMismatch,
    );
    const right = await call({ 'mcp-param-region': 'eu-west1' });
    assert.equal(right.status, 200);
    assert.match(JSON.stringify(await right.json()), /region: eu-west1/);
  });

  it('a call that becomes a task is followed to its end through the gateway; an unknown task is -32602', async () => {
    const caller = new McpClient({ name: 'caller', version: '1.0.0', era: 'stateless', timeout: 30_000 });
    await caller.connect(new HttpClientTransport(front.url), { timeout: 30_000 });
    try {
      const started = await caller.startToolTask('everything__long_task', { steps: 2, stepMs: 10 });
      assert.equal(started.resultType, 'task');
      const done = await caller.waitForTask((started as { taskId: string }).taskId);
      assert.equal(done.isError ?? false, false);
      await assert.rejects(
        caller.request('tasks/get', { taskId: 'no-such-task' }, { task: true }),
        (error: unknown) => error instanceof JsonRpcError && error.code === ErrorCode.InvalidParams,
      );
    } finally {
      await caller.close();
    }
  });
});
