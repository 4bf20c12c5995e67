// elicitation/create from the server: form mode with the schema's defaults filled in, URL mode only when
// the client said it handles it, and capabilities declared to match.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { Connection } from '../../src/jsonrpc/connection.js';
import type { ElicitRequestParams, ElicitResult } from '../../src/protocol/types.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { CLIENT_INFO, connectToFake, rejection } from '../support/fake-mcp-server.js';

const FORM = {
  mode: 'form',
  message: 'Tell us about you',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'Ada' },
      age: { type: 'integer', default: 36 },
      subscribe: { type: 'boolean', default: true },
      colour: { type: 'string', enum: ['red', 'green'], default: 'green' },
      note: { type: 'string' },
    },
  },
};

const URL_REQUEST = {
  mode: 'url',
  message: 'Sign in to continue',
  url: 'https://example.com/sign-in?state=xyz',
  elicitationId: 'elic-1',
};

/** A client whose onElicitation answers with `answer` and keeps what it was asked. */
async function answering(answer: ElicitResult, options: { elicitationUrl?: boolean } = {}) {
  const asked: ElicitRequestParams[] = [];
  const connected = await connectToFake({
    ...options,
    onElicitation: async (params) => {
      asked.push(params);
      return answer;
    },
  });
  return { ...connected, asked };
}

describe('McpClient elicitation, form mode', () => {
  it('declares form mode only, and returns what the user gave', async () => {
    const content = { name: 'Grace', age: 85, subscribe: false, colour: 'red', note: 'hi' };
    const { client, server, initialize, asked } = await answering({ action: 'accept', content });
    assert.deepEqual(initialize.params?.capabilities, { elicitation: { form: {} } });
    const response = await server.ask('elicitation/create', FORM);
    assert.deepEqual(asked, [FORM]);
    assert.deepEqual(response.result, { action: 'accept', content });
    await client.close();
  });

  it('fills in the default of every field the user left out, and nothing else', async () => {
    const { client, server } = await answering({ action: 'accept', content: { age: 40, colour: 'red' } });
    const response = await server.ask('elicitation/create', FORM);
    assert.deepEqual(response.result, {
      action: 'accept',
      content: { age: 40, colour: 'red', name: 'Ada', subscribe: true },
    });
    await client.close();
  });

  it('fills in defaults when the user accepted without any content', async () => {
    const { client, server } = await answering({ action: 'accept' });
    const response = await server.ask('elicitation/create', FORM);
    assert.deepEqual(response.result, {
      action: 'accept',
      content: { name: 'Ada', age: 36, subscribe: true, colour: 'green' },
    });
    await client.close();
  });

  it('fills in defaults for a request without a mode (2025-06-18 and earlier)', async () => {
    const { client, server } = await answering({ action: 'accept', content: { note: 'x' } });
    const { mode: _mode, ...withoutMode } = FORM;
    const response = await server.ask('elicitation/create', withoutMode);
    assert.deepEqual(response.result?.content, {
      note: 'x',
      name: 'Ada',
      age: 36,
      subscribe: true,
      colour: 'green',
    });
    await client.close();
  });

  for (const action of ['decline', 'cancel'] as const) {
    it(`adds no defaults to a ${action}`, async () => {
      const { client, server } = await answering({ action });
      const response = await server.ask('elicitation/create', FORM);
      assert.deepEqual(response.result, { action });
      await client.close();
    });
  }
});

describe('McpClient elicitation, URL mode', () => {
  it('with elicitationUrl declares both modes and hands the URL request to the callback', async () => {
    const { client, server, initialize, asked } = await answering(
      { action: 'accept' },
      { elicitationUrl: true },
    );
    assert.deepEqual(initialize.params?.capabilities, { elicitation: { form: {}, url: {} } });
    const response = await server.ask('elicitation/create', URL_REQUEST);
    assert.deepEqual(asked, [URL_REQUEST]);
    assert.deepEqual(response.result, { action: 'accept' }, 'no content in URL mode');
    await client.close();
  });

  it('passes notifications/elicitation/complete to onNotification', async () => {
    const notes: Array<[string, unknown]> = [];
    let told!: () => void;
    const arrived = new Promise<void>((resolve) => {
      told = resolve;
    });
    const { client, server } = await connectToFake({
      elicitationUrl: true,
      onElicitation: async () => ({ action: 'accept' }),
      onNotification: (method, params) => {
        notes.push([method, params]);
        told();
      },
    });
    server.notify('notifications/elicitation/complete', { elicitationId: 'elic-1' });
    await arrived;
    assert.deepEqual(notes, [['notifications/elicitation/complete', { elicitationId: 'elic-1' }]]);
    await client.close();
  });

  it('url elicitation without elicitationUrl is refused with -32602, not handed to a form-only callback', async () => {
    const { client, server, asked } = await answering({ action: 'accept', content: { name: 'x' } });
    const response = await server.ask('elicitation/create', URL_REQUEST);
    assert.equal(response.error?.code, -32602);
    assert.match(response.error?.message ?? '', /URL mode/i);
    assert.deepEqual(asked, [], 'the callback was not asked');
    await client.close();
  });

  it('url elicitation without elicitationUrl fails in the stateless era too, without asking the callback', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const server = new Connection(serverSide);
    server.onRequest('server/discover', () => ({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
    }));
    server.onRequest('tools/call', () => ({
      resultType: 'input_required',
      inputRequests: { 'elicitation/create#1': { method: 'elicitation/create', params: URL_REQUEST } },
    }));
    server.start();
    const asked: unknown[] = [];
    const client = new McpClient({
      ...CLIENT_INFO,
      onElicitation: async (params) => {
        asked.push(params);
        return { action: 'accept' };
      },
    });
    await client.connect(clientSide);
    assert.equal(client.era, 'stateless');
    const error = await rejection(client.callTool('sign_in'));
    assert.match(error.message, /URL mode/i);
    assert.deepEqual(asked, []);
    await client.close();
  });
});

describe('McpClient elicitation without a callback', () => {
  it('declares no elicitation and answers -32601', async () => {
    const { client, server, initialize } = await connectToFake({ roots: () => [] });
    assert.equal('elicitation' in (initialize.params!.capabilities as object), false);
    const response = await server.ask('elicitation/create', FORM);
    assert.equal(response.error?.code, -32601);
    await client.close();
  });
});
