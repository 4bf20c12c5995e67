// Signed requestState (2026-07-28 multi round-trip requests): a state the server issued finishes the
// request; an altered one, one issued for another request, an expired one and one signed with a key the
// server does not hold are refused with -32602 before the handler runs; a key ring lets a state signed
// with the previous key still verify after a rotation.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Connection } from '../../src/jsonrpc/connection.js';
import type { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { RequestStateOptions } from '../../src/protocol/request-state.js';
import { McpServer } from '../../src/server/server.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { FakeClock } from '../support/fake-clock.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
};

interface Round {
  resultType: string;
  inputRequests?: Record<string, unknown>;
  requestState?: string;
  content?: Array<{ text: string }>;
}

function serverWith(requestState?: RequestStateOptions): { client: Connection; runs: () => number } {
  let runs = 0;
  const server = new McpServer({ name: 'state', version: '1.0.0', ...(requestState && { requestState }) });
  server.tool(
    {
      name: 'greet',
      description: 'Asks two names, then greets',
      inputSchema: { type: 'object', properties: { greeting: { type: 'string' } } },
    },
    async (args, ctx) => {
      runs++;
      const ask = () =>
        ctx.elicit({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
      const first = await ask();
      const second = await ask();
      return {
        content: [
          {
            type: 'text',
            text: `${String(args.greeting)} ${first.content?.name} and ${second.content?.name}`,
          },
        ],
      };
    },
  );
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new Connection(clientSide, { timeout: 5000 });
  client.start();
  return { client, runs: () => runs };
}

function call(client: Connection, extra: Record<string, unknown> = {}, greeting = 'hello'): Promise<Round> {
  return client.request<Round>('tools/call', {
    _meta: META,
    name: 'greet',
    arguments: { greeting },
    ...extra,
  });
}

/** The first round answered: its state now carries one answer, and the second question is asked. */
async function secondRound(client: Connection, greeting = 'hello'): Promise<Round> {
  const first = await call(client, {}, greeting);
  const key = Object.keys(first.inputRequests!)[0]!;
  const second = await call(
    client,
    {
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.requestState,
    },
    greeting,
  );
  assert.equal(second.resultType, 'input_required');
  return second;
}

function finish(client: Connection, round: Round, greeting = 'hello'): Promise<Round> {
  const key = Object.keys(round.inputRequests!)[0]!;
  return call(
    client,
    {
      inputResponses: { [key]: { action: 'accept', content: { name: 'Grace' } } },
      requestState: round.requestState,
    },
    greeting,
  );
}

function refusal(promise: Promise<unknown>): Promise<JsonRpcError> {
  return promise.then(
    () => assert.fail('expected the state to be refused'),
    (error: unknown) => error as JsonRpcError,
  );
}

/** Flips one character of the signed part, keeping the state well-formed. */
function altered(state: string, part: 1 | 2): string {
  const pieces = state.split('.');
  const piece = pieces[part]!;
  pieces[part] = (piece[0] === 'A' ? 'B' : 'A') + piece.slice(1);
  return pieces.join('.');
}

describe('signed requestState', () => {
  let clock: FakeClock | undefined;
  afterEach(() => {
    clock?.uninstall();
    clock = undefined;
  });

  it('finishes a request with the state the server issued, carrying the earlier answers', async () => {
    const { client } = serverWith();
    const done = await finish(client, await secondRound(client));
    assert.equal(done.resultType, 'complete');
    assert.equal(done.content?.[0]?.text, 'hello Ada and Grace');
  });

  it('refuses an altered state (answers or signature) with -32602, before the handler runs', async () => {
    const { client, runs } = serverWith();
    const second = await secondRound(client);
    const before = runs();
    for (const part of [1, 2] as const) {
      const error = await refusal(
        finish(client, { ...second, requestState: altered(second.requestState!, part) }),
      );
      assert.equal(error.code, -32602);
      assert.match(error.message, /requestState failed its integrity check/);
    }
    const appended = await refusal(
      finish(client, { ...second, requestState: `${second.requestState}-TAMPERED` }),
    );
    assert.equal(appended.code, -32602);
    assert.equal(runs(), before, 'the handler never ran on a refused state');
  });

  it('refuses a state forged from the unsigned base64 of the answers', async () => {
    const { client } = serverWith();
    const second = await secondRound(client);
    const forged = Buffer.from(JSON.stringify({ 'elicitation/create#1': { action: 'accept' } })).toString(
      'base64url',
    );
    const error = await refusal(finish(client, { ...second, requestState: forged }));
    assert.equal(error.code, -32602);
    assert.match(error.message, /not one this server issued/);
  });

  it('refuses a state issued for another request (other arguments, other tool)', async () => {
    const { client } = serverWith();
    const second = await secondRound(client, 'hello');
    const otherArguments = await refusal(finish(client, second, 'goodbye'));
    assert.equal(otherArguments.code, -32602);
    assert.match(otherArguments.message, /belongs to another request/);
    const key = Object.keys(second.inputRequests!)[0]!;
    const otherTool = await refusal(
      client.request('tools/call', {
        _meta: META,
        name: 'missing',
        arguments: { greeting: 'hello' },
        inputResponses: { [key]: { action: 'accept', content: { name: 'x' } } },
        requestState: second.requestState,
      }),
    );
    assert.equal(otherTool.code, -32602);
    assert.match(otherTool.message, /belongs to another request/);
  });

  it('refuses a state once maxAgeMs has passed, and takes it until then', async () => {
    clock = new FakeClock().install({ date: true });
    const { client } = serverWith({ keys: ['k1'], maxAgeMs: 60_000 });
    const second = await secondRound(client);
    await clock.advance(59_999);
    assert.equal((await finish(client, second)).resultType, 'complete');
    await clock.advance(1);
    const error = await refusal(finish(client, second));
    assert.equal(error.code, -32602);
    assert.match(error.message, /requestState has expired/);
  });

  it('verifies a state signed with the previous key after a rotation, and refuses a foreign key', async () => {
    const before = serverWith({ keys: ['old-key'] });
    const second = await secondRound(before.client);
    const rotated = serverWith({ keys: [new TextEncoder().encode('new-key'), 'old-key'] });
    assert.equal((await finish(rotated.client, second)).content?.[0]?.text, 'hello Ada and Grace');
    // What the rotated server issues now is signed with the new key, which the old ring does not hold.
    const fresh = await secondRound(rotated.client);
    const foreign = serverWith({ keys: ['old-key'] });
    const error = await refusal(finish(foreign.client, fresh));
    assert.equal(error.code, -32602);
    assert.match(error.message, /integrity check/);
    // Without keys, each process has its own random key: another server's ring refuses it too.
    const unkeyed = serverWith();
    const unkeyedState = await secondRound(unkeyed.client);
    assert.equal((await refusal(finish(before.client, unkeyedState))).code, -32602);
  });

  it('verifies a state signed with the previous key after a rotation until the state expires, not after', async () => {
    clock = new FakeClock().install({ date: true });
    const before = serverWith({ keys: ['old-key'], maxAgeMs: 60_000 });
    const second = await secondRound(before.client);
    const rotated = serverWith({ keys: ['new-key', 'old-key'], maxAgeMs: 60_000 });
    await clock.advance(59_999);
    assert.equal((await finish(rotated.client, second)).content?.[0]?.text, 'hello Ada and Grace');
    await clock.advance(1);
    const error = await refusal(finish(rotated.client, second));
    assert.equal(error.code, -32602);
    assert.match(error.message, /requestState has expired/);
  });

  it('refuses an empty key ring and an empty key when the server is made', () => {
    assert.throws(
      () => new McpServer({ name: 's', version: '1', requestState: { keys: [] } }),
      /at least one key/,
    );
    assert.throws(
      () => new McpServer({ name: 's', version: '1', requestState: { keys: [''] } }),
      /empty key/,
    );
  });
});
