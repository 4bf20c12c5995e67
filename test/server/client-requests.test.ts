// Requests from the server to the client through the handler's context: sample(), elicit() and
// listRoots() go on the wire as sampling/createMessage, elicitation/create and roots/list, and their
// answers come back to the handler; without the client's capability they are refused before anything is
// sent, with an error naming the capability.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestContext } from '../../src/protocol/context.js';
import { CapabilityError } from '../../src/protocol/errors.js';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { type Message, Wire } from '../support/wire.js';

type Ask = (ctx: RequestContext) => Promise<unknown>;

const SAMPLE: Ask = (ctx) =>
  ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 });
const ROOTS: Ask = (ctx) => ctx.listRoots();
const ELICIT: Ask = (ctx) =>
  ctx.elicit({
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
const ELICIT_URL: Ask = (ctx) =>
  ctx.elicit({ mode: 'url', message: 'Sign in', elicitationId: 'e-1', url: 'https://example.com/sign-in' });

/** A server whose tool `ask` runs `ask` and returns what came back (or the error) as JSON text. */
function server(ask: Ask): McpServer {
  const s = new McpServer({ name: 'asks', version: '1.0.0' });
  s.tool({ name: 'ask' }, async (_args, ctx) => {
    try {
      return { content: [{ type: 'text', text: JSON.stringify({ answer: await ask(ctx) }) }] };
    } catch (error) {
      const e = error as Error;
      return { content: [{ type: 'text', text: JSON.stringify({ error: e.name, message: e.message }) }] };
    }
  });
  s.tool({ name: 'ask_unguarded' }, async (_args, ctx) => {
    await ask(ctx);
    return { content: [] };
  });
  return s;
}

/** Calls the tool, answers the one request the server sends with `answer`, and returns both. */
async function roundTrip(
  wire: Wire,
  method: string,
  answer: unknown,
): Promise<{ request: Message; outcome: Record<string, unknown> }> {
  const call = wire.request('tools/call', { name: 'ask' }, 'call');
  const request = await wire.waitFor((m) => m.method === method && 'id' in m);
  wire.send({ jsonrpc: '2.0', id: request.id, result: answer });
  const response = await call;
  const text = (response.result as { content: Array<{ text: string }> }).content[0]!.text;
  return { request, outcome: JSON.parse(text) as Record<string, unknown> };
}

/** Calls the tool and returns its outcome, checking nothing but the response went to the client. */
async function refused(wire: Wire): Promise<Record<string, unknown>> {
  const before = wire.received.length;
  const response = await wire.request('tools/call', { name: 'ask' });
  assert.equal(wire.received.length, before + 1, 'the server sent something besides the response');
  return JSON.parse((response.result as { content: Array<{ text: string }> }).content[0]!.text);
}

const REPLY = {
  role: 'assistant',
  content: { type: 'text', text: 'hi' },
  model: 'test-model',
  stopReason: 'endTurn',
};

describe('requests to the client', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[client.sampling, messages.schema-valid] sends sampling/createMessage and hands the answer back (${revision})`, async () => {
      const wire = await Wire.open(server(SAMPLE), revision, { capabilities: { sampling: {} } });
      const { request, outcome } = await roundTrip(wire, 'sampling/createMessage', REPLY);
      assert.deepEqual(request.params, {
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
        maxTokens: 20,
      });
      assert.deepEqual(outcome, { answer: REPLY });
      await wire.close();
    });

    it(`[client.roots, messages.schema-valid] sends roots/list and hands the roots back (${revision})`, async () => {
      const wire = await Wire.open(server(ROOTS), revision, {
        capabilities: { roots: { listChanged: true } },
      });
      const roots = { roots: [{ uri: 'file:///work', name: 'work' }] };
      const { request, outcome } = await roundTrip(wire, 'roots/list', roots);
      assert.deepEqual(request.params, {});
      assert.deepEqual(outcome, { answer: roots });
      await wire.close();
    });

    for (const [capability, ask] of [
      ['sampling', SAMPLE],
      ['roots', ROOTS],
      ['elicitation', ELICIT],
    ] as const) {
      it(`[lifecycle.negotiated-capabilities, client.sampling, client.roots, client.elicitation] refuses to send ${capability} requests to a client without the capability (${revision})`, async () => {
        const wire = await Wire.open(server(ask), revision, { capabilities: { experimental: {} } });
        const outcome = await refused(wire);
        assert.equal(outcome.error, 'CapabilityError');
        assert.match(String(outcome.message), new RegExp(`did not declare the "${capability}" capability`));
        await wire.close();
      });
    }
  }

  for (const revision of ['2025-06-18', '2025-11-25']) {
    it(`[client.elicitation, messages.schema-valid] sends elicitation/create and hands the answer back (${revision})`, async () => {
      const wire = await Wire.open(server(ELICIT), revision, { capabilities: { elicitation: {} } });
      const answer = { action: 'accept', content: { name: 'Ada' } };
      const { request, outcome } = await roundTrip(wire, 'elicitation/create', answer);
      assert.equal((request.params as { message: string }).message, 'Your name?');
      assert.deepEqual(outcome, { answer });
      await wire.close();
    });
  }

  it('[client.elicitation] sends a URL elicitation only to a client that declared elicitation.url', async () => {
    const formOnly = await Wire.open(server(ELICIT_URL), '2025-11-25', { capabilities: { elicitation: {} } });
    const outcome = await refused(formOnly);
    assert.match(String(outcome.message), /"elicitation\.url" capability/);
    await formOnly.close();
    const both = await Wire.open(server(ELICIT_URL), '2025-11-25', {
      capabilities: { elicitation: { form: {}, url: {} } },
    });
    const { request } = await roundTrip(both, 'elicitation/create', { action: 'accept' });
    assert.equal((request.params as { mode: string }).mode, 'url');
    await both.close();
  });

  it('[stateless.missing-capability, prompts.get] answers a prompt that needed an undeclared client capability with -32021 naming it, not an internal error', async () => {
    for (const revision of HANDSHAKE_REVISIONS) {
      const s = new McpServer({ name: 'asks', version: '1.0.0' });
      s.prompt({ name: 'needs_context' }, async (_args, ctx) => {
        await ELICIT(ctx);
        return { messages: [] };
      });
      const wire = await Wire.open(s, revision);
      const error = await wire.error('prompts/get', { name: 'needs_context' });
      assert.deepEqual(
        error,
        {
          code: -32021,
          message: new CapabilityError('elicitation', 'elicitation/create').message,
          data: { requiredCapabilities: { elicitation: {} } },
        },
        revision,
      );
      await wire.close();
    }
  });

  it('[client.sampling, tools.execution-error] turns an unhandled capability refusal into an isError tool result', async () => {
    const wire = await Wire.open(server(SAMPLE), '2025-11-25');
    const result = await wire.result('tools/call', { name: 'ask_unguarded' });
    assert.deepEqual(result, {
      content: [
        {
          type: 'text',
          text: new CapabilityError('sampling', 'sampling/createMessage').message,
        },
      ],
      isError: true,
    });
    await wire.close();
  });

  it('[cancellation.stop] cancels its request to the client when the tool call is cancelled', async () => {
    const wire = await Wire.open(server(SAMPLE), '2025-11-25', { capabilities: { sampling: {} } });
    wire.send({ jsonrpc: '2.0', id: 'to-cancel', method: 'tools/call', params: { name: 'ask' } });
    const sampling = await wire.waitFor((m) => m.method === 'sampling/createMessage');
    wire.notify('notifications/cancelled', { requestId: 'to-cancel', reason: 'changed my mind' });
    const cancelled = await wire.waitFor((m) => m.method === 'notifications/cancelled');
    assert.equal((cancelled.params as { requestId: unknown }).requestId, sampling.id);
    await wire.settle();
    assert.equal(
      wire.received.some((m) => (m as Message).id === 'to-cancel'),
      false,
    );
    await wire.close();
  });
});
