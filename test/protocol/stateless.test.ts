// The stateless revision (2026-07-28) on the server: the specification's own example requests are
// accepted and every answer validates against the revision's schema; the envelope's errors; one
// connection serving both eras; input_required round trips; per-request logging; subscriptions/listen.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { validateAgainst } from '../../src/doctor/spec-schema.js';
import { Connection } from '../../src/jsonrpc/connection.js';
import type { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { createInMemoryPair, type InMemoryTransport } from '../../src/transport/memory.js';
import { cites } from '../support/requirements.js';
import { exampleServer } from '../support/stateless-server.js';

const REVISION = '2026-07-28';
const examples = path.resolve(import.meta.dirname, '..', '..', 'spec', 'mcp-schema', REVISION, 'examples');
const META = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
};

function connect(): {
  client: Connection;
  clientSide: InMemoryTransport;
  server: ReturnType<typeof exampleServer>;
} {
  const server = exampleServer();
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new Connection(clientSide, { timeout: 5000 });
  client.start();
  return { client, clientSide, server };
}

function failure(promise: Promise<unknown>): Promise<JsonRpcError> {
  return promise.then(
    () => assert.fail('expected an error response'),
    (error: unknown) => error as JsonRpcError,
  );
}

/** The response to a raw request, as it went on the wire. */
async function raw(
  clientSide: InMemoryTransport,
  message: { id: string | number },
): Promise<Record<string, unknown>> {
  const peer = clientSide.peer!;
  return new Promise((resolve) => {
    const original = clientSide.deliver.bind(clientSide);
    clientSide.deliver = (payload: unknown) => {
      const response = payload as Record<string, unknown>;
      if (response.id === message.id && !('method' in response)) {
        clientSide.deliver = original;
        resolve(response);
      } else original(payload);
    };
    peer.deliver(message);
  });
}

const REQUEST_EXAMPLES: Record<string, string> = {
  DiscoverRequest: 'DiscoverResultResponse',
  ListToolsRequest: 'ListToolsResultResponse',
  CallToolRequest: 'CallToolResultResponse',
  ListResourcesRequest: 'ListResourcesResultResponse',
  ListResourceTemplatesRequest: 'ListResourceTemplatesResultResponse',
  ReadResourceRequest: 'ReadResourceResultResponse',
  ListPromptsRequest: 'ListPromptsResultResponse',
  GetPromptRequest: 'GetPromptResultResponse',
  CompleteRequest: 'CompleteResultResponse',
};

describe('2026-07-28 on the server', () => {
  for (const [request, response] of Object.entries(REQUEST_EXAMPLES)) {
    it(cites([
      'stateless.envelope',
      'stateless.discover',
      'messages.schema-valid',
    ])`accepts the specification's ${request} example and answers with a valid ${response}`, async () => {
      const { clientSide } = connect();
      for (const file of readdirSync(path.join(examples, request))) {
        const message = JSON.parse(readFileSync(path.join(examples, request, file), 'utf8')) as {
          id: string;
        };
        const answer = await raw(clientSide, message);
        assert.ok('result' in answer, `${file}: ${JSON.stringify(answer)}`);
        assert.deepEqual(
          await validateAgainst(REVISION, response, answer),
          [],
          `${file}: ${JSON.stringify(answer)}`,
        );
      }
    });
  }

  it(cites([
    'stateless.envelope',
    'stateless.unsupported-version',
  ])`answers a request without clientCapabilities with -32602 and an unknown version with -32022`, async () => {
    const { client } = connect();
    const missing = await failure(
      client.request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION } }),
    );
    assert.equal(missing.code, -32602);
    assert.match(missing.message, /clientCapabilities/);
    const unknown = await failure(
      client.request('tools/list', {
        _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
      }),
    );
    assert.equal(unknown.code, -32022);
    assert.deepEqual(unknown.data, { supported: [REVISION], requested: '2099-01-01' });
  });

  it(cites('stateless.dual-era')`serves both eras on one connection, deciding per message`, async () => {
    const { client } = connect();
    // Stateless first: no handshake needed.
    const tools = await client.request<{ tools: Array<{ name: string }>; resultType: string }>('tools/list', {
      _meta: META,
    });
    assert.equal(tools.resultType, 'complete');
    // A handshake-era request on the same connection still needs initialize...
    const refused = await failure(client.request('tools/list', {}));
    assert.equal(refused.code, -32600);
    await client.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'old', version: '1' },
    });
    const legacy = await client.request<Record<string, unknown>>('tools/list', {});
    assert.equal('resultType' in legacy, false, 'handshake-era results carry no resultType');
    // ...and the stateless requests do not care that it happened.
    const again = await client.request<Record<string, unknown>>('tools/list', { _meta: META });
    assert.equal(again.resultType, 'complete');
    assert.deepEqual(await validateAgainst(REVISION, 'ListToolsResult', again), []);
  });

  it(cites(
    'stateless.method-not-found',
  )`bug: ping, resources/subscribe and resources/unsubscribe were served in 2026-07-28, which removed them`, async () => {
    const { client } = connect();
    for (const method of ['ping', 'resources/subscribe', 'resources/unsubscribe', 'logging/setLevel']) {
      const error = await failure(
        client.request(method, { _meta: META, uri: 'file:///project/src/main.rs' }),
      );
      assert.equal(error.code, -32601, method);
    }
    // A handshake-era ping is still answered.
    assert.deepEqual(await client.request('ping', {}), {});
  });

  it(cites('stateless.tools-order')`lists tools in the same order every time`, async () => {
    const { client } = connect();
    const first = await client.request<{ tools: Array<{ name: string }> }>('tools/list', { _meta: META });
    const second = await client.request<{ tools: Array<{ name: string }> }>('tools/list', { _meta: META });
    assert.deepEqual(
      first.tools.map((t) => t.name),
      second.tools.map((t) => t.name),
    );
  });

  it(cites(
    'stateless.input-required',
  )`turns a handler that elicits into an input_required round trip, and finishes it with the answer`, async () => {
    const { client } = connect();
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const first = await client.request<Record<string, unknown>>('tools/call', {
      _meta: meta,
      name: 'ask_name',
      arguments: {},
    });
    assert.equal(first.resultType, 'input_required');
    assert.deepEqual(await validateAgainst(REVISION, 'InputRequiredResult', first), []);
    const requests = first.inputRequests as Record<string, { method: string }>;
    const [key] = Object.keys(requests);
    assert.equal(requests[key!]?.method, 'elicitation/create');
    const second = await client.request<{ resultType: string; content: Array<{ text: string }> }>(
      'tools/call',
      {
        _meta: meta,
        name: 'ask_name',
        arguments: {},
        inputResponses: { [key!]: { action: 'accept', content: { name: 'Ada' } } },
        requestState: first.requestState,
      },
    );
    assert.equal(second.resultType, 'complete');
    assert.equal(second.content[0]?.text, 'hello Ada (accept)');
  });

  it(cites(
    'stateless.input-required',
  )`asks one question per round when a handler needs several answers`, async () => {
    const { client } = connect();
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {}, roots: {} } };
    const call = { _meta: meta, name: 'two_questions', arguments: {} };
    const first = await client.request<Record<string, unknown>>('tools/call', call);
    const firstKey = Object.keys(first.inputRequests as object)[0]!;
    const second = await client.request<Record<string, unknown>>('tools/call', {
      ...call,
      inputResponses: {
        [firstKey]: { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' },
      },
      requestState: first.requestState,
    });
    assert.equal(second.resultType, 'input_required');
    const secondKey = Object.keys(second.inputRequests as object)[0]!;
    assert.equal(
      (second.inputRequests as Record<string, { method: string }>)[secondKey]?.method,
      'roots/list',
    );
    const done = await client.request<{ content: Array<{ text: string }> }>('tools/call', {
      ...call,
      inputResponses: { [secondKey]: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] } },
      requestState: second.requestState,
    });
    assert.equal(done.content[0]?.text, 'sampled; 2 roots');
  });

  it(cites(
    'stateless.missing-capability',
  )`refuses with -32021 when the request lacks a capability the handler needs`, async () => {
    const { client } = connect();
    const error = await failure(
      client.request('tools/call', { _meta: META, name: 'ask_name', arguments: {} }),
    );
    assert.equal(error.code, -32021);
    assert.deepEqual(error.data, { requiredCapabilities: { elicitation: {} } });
  });

  it(cites(
    'stateless.log-level',
  )`logs per request: nothing without logLevel, only messages at or above it with one`, async () => {
    const { client } = connect();
    const seen: unknown[] = [];
    client.onNotification('notifications/message', (params) => seen.push(params));
    await client.request('tools/call', { _meta: META, name: 'chatty', arguments: {} });
    assert.deepEqual(seen, []);
    await client.request('tools/call', {
      _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'info' },
      name: 'chatty',
      arguments: {},
    });
    assert.deepEqual(seen, [{ level: 'warning', data: 'a warning line' }]);
  });

  it(cites(
    'stateless.resource-not-found',
  )`reports a missing resource with -32602 (it is -32002 in the handshake era)`, async () => {
    const { client } = connect();
    const modern = await failure(client.request('resources/read', { _meta: META, uri: 'file:///nope' }));
    assert.equal(modern.code, -32602);
    assert.deepEqual(modern.data, { uri: 'file:///nope' });
    await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    const legacy = await failure(client.request('resources/read', { uri: 'file:///nope' }));
    assert.equal(legacy.code, -32002);
  });

  it(cites(
    'stateless.subscriptions-ack',
  )`subscriptions/listen: acknowledges first, then delivers list changes and resource updates with its id`, async () => {
    const { client, server } = connect();
    const received: Array<{ method: string; params: Record<string, unknown> }> = [];
    let wake: (() => void) | undefined;
    const record = (method: string) => (params: unknown) => {
      received.push({ method, params: params as Record<string, unknown> });
      wake?.();
    };
    for (const method of [
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      'notifications/resources/updated',
    ]) {
      client.onNotification(method, record(method));
    }
    const until = (count: number) =>
      new Promise<void>((resolve) => {
        wake = () => received.length >= count && resolve();
        wake();
      });
    const controller = new AbortController();
    const listening = client
      .request(
        'subscriptions/listen',
        {
          _meta: META,
          notifications: {
            toolsListChanged: true,
            promptsListChanged: true,
            resourceSubscriptions: ['file:///project/src/main.rs'],
          },
        },
        { signal: controller.signal, timeout: 0 },
      )
      .catch(() => 'cancelled');
    await until(1);
    const ack = received[0]!;
    assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
    const subscriptionId = (ack.params._meta as Record<string, unknown>)[
      'io.modelcontextprotocol/subscriptionId'
    ];
    assert.equal(typeof subscriptionId, 'number');
    assert.deepEqual(ack.params.notifications, {
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['file:///project/src/main.rs'],
    });
    server.tool({ name: 'late', description: 'registered later' }, () => ({ content: [] }));
    server.notifyResourceUpdated('file:///project/src/main.rs');
    server.notifyResourceUpdated('file:///elsewhere');
    await until(3);
    assert.deepEqual(
      received
        .slice(1)
        .map((r) => [
          r.method,
          (r.params._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'],
        ]),
      [
        ['notifications/tools/list_changed', subscriptionId],
        ['notifications/resources/updated', subscriptionId],
      ],
    );
    controller.abort();
    assert.equal(await listening, 'cancelled');
  });
});
