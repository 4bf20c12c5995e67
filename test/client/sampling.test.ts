// sampling/createMessage from the server: answered by onSampling, declared as a capability only when
// onSampling is given; without it the server gets "method not found".

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClientHandlerContext } from '../../src/client/client.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../../src/protocol/types.js';
import { connectToFake } from '../support/fake-mcp-server.js';

const PARAMS: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }],
  maxTokens: 10,
  systemPrompt: 'Be brief.',
};

describe('McpClient sampling', () => {
  it('declares sampling and answers the server through onSampling', async () => {
    const seen: CreateMessageRequestParams[] = [];
    const { client, server, initialize } = await connectToFake({
      onSampling: async (params) => {
        seen.push(params);
        const last = params.messages.at(-1)!.content;
        const text = last.type === 'text' ? last.text : '';
        return { role: 'assistant', content: { type: 'text', text: `answer to ${text}` }, model: 'm-1' };
      },
    });
    assert.deepEqual(initialize.params?.capabilities, { sampling: {} });
    const response = await server.ask('sampling/createMessage', { ...PARAMS });
    assert.deepEqual(seen, [PARAMS]);
    assert.deepEqual(response.result, {
      role: 'assistant',
      content: { type: 'text', text: 'answer to What is 2+2?' },
      model: 'm-1',
    });
    await client.close();
  });

  it('without onSampling declares nothing and answers -32601', async () => {
    const { client, server, initialize } = await connectToFake({
      onElicitation: async () => ({ action: 'decline' }),
    });
    assert.equal('sampling' in (initialize.params!.capabilities as object), false);
    const response = await server.ask('sampling/createMessage', { ...PARAMS });
    assert.equal(response.error?.code, -32601);
    assert.match(response.error?.message ?? '', /sampling\/createMessage/);
    await client.close();
  });

  it('sends the error the callback throws back to the server', async () => {
    const { client, server } = await connectToFake({
      onSampling: async () => {
        throw new JsonRpcError(-1, 'User rejected sampling request');
      },
    });
    const rejected = await server.ask('sampling/createMessage', { ...PARAMS });
    assert.deepEqual(rejected.error, { code: -1, message: 'User rejected sampling request' });
    await client.close();
  });

  it('aborts the callback signal when the server cancels the request', async () => {
    let context: ClientHandlerContext | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { client, server } = await connectToFake({
      onSampling: (_params, ctx) => {
        context = ctx;
        started();
        return new Promise<CreateMessageResult>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
        });
      },
    });
    void server.ask('sampling/createMessage', { ...PARAMS }, 'to-cancel');
    await running;
    assert.equal(context?.signal.aborted, false);
    const asked = server.received.length;
    server.notify('notifications/cancelled', { requestId: 'to-cancel', reason: 'no longer needed' });
    await new Promise<void>((resolve) => context!.signal.addEventListener('abort', () => resolve()));
    assert.equal(context?.signal.aborted, true);
    // A cancelled request is never answered: a ping sent after it is, and nothing came before that.
    const pong = await server.ask('ping');
    assert.deepEqual(pong.result, {});
    assert.equal(server.received.length, asked + 1, 'only the ping was answered');
    await client.close();
  });
});
