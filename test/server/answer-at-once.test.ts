// A request whose handler does not wait is answered in the turn it came, in both eras: the connection,
// the era, the tool's argument check and the tool itself add no promise of their own (issue 21: each
// layer's promise cost every call on stdio and HTTP). A handler that waits is waited on, and answered
// the same way once it is done. The transport here records what it is given, synchronously.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonRpcPayload } from '../../src/jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../../src/jsonrpc/transport.js';
import { McpServer } from '../../src/server/server.js';

type Answer = { id: number; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A transport that hands each message to the connection and keeps what is sent back, as it is sent. */
function recordingTransport(): {
  transport: Transport;
  deliver(message: unknown): void;
  sent: Answer[];
  /** Resolves with the next message sent. */
  next(): Promise<Answer>;
} {
  let handlers: TransportHandlers | undefined;
  const sent: Answer[] = [];
  let waiting: ((answer: Answer) => void) | undefined;
  const transport: Transport = {
    start(h) {
      handlers = h;
    },
    send(payload: JsonRpcPayload) {
      sent.push(payload as unknown as Answer);
      waiting?.(payload as unknown as Answer);
      waiting = undefined;
    },
    flush: async () => {},
    close: async () => {
      handlers?.closed({ message: 'closed' });
    },
  };
  return {
    transport,
    deliver: (message) => handlers!.message(message),
    sent,
    next: () =>
      new Promise((resolve) => {
        waiting = resolve;
      }),
  };
}

/** Opens when the test says: the `waits` tool waits on it. */
let gate: { opened: Promise<void>; open(): void };
function newGate(): typeof gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function server(): McpServer {
  const s = new McpServer({ name: 'at-once', version: '1.0.0' });
  const input = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  s.tool({ name: 'echo', inputSchema: input }, ({ text }) => ({
    content: [{ type: 'text', text: String(text) }],
  }));
  s.tool({ name: 'fails', inputSchema: input }, () => {
    throw new Error('it broke');
  });
  s.tool({ name: 'waits', inputSchema: input }, async ({ text }) => {
    await gate.opened;
    return { content: [{ type: 'text', text: `later ${String(text)}` }] };
  });
  return s;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** A tools/call request; with `meta`, one of the stateless revision. */
const call = (id: number, name: string, args: Record<string, unknown>, meta?: typeof META) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});
const textOf = (answer: Answer | undefined) =>
  (answer?.result?.content as Array<{ text: string }> | undefined)?.[0]?.text;

describe('answering in the turn the request came', () => {
  it('answers initialize and a tool that does not wait before handing control back (handshake era)', async () => {
    const { transport, deliver, sent, next } = recordingTransport();
    server().connect(transport);
    deliver({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    assert.equal(sent.at(-1)?.id, 1, 'initialize was not answered at once');
    deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // A tool's first call compiles its input schema (loading the compiler first): it may wait for that.
    for (const [id, name] of [
      [90, 'echo'],
      [91, 'fails'],
    ] as const) {
      const first = next();
      deliver(call(id, name, { text: '1' }));
      assert.equal((await first).id, id);
    }
    deliver(call(2, 'echo', { text: 'hi' }));
    assert.equal(sent.at(-1)?.id, 2, 'the call was not answered at once');
    assert.equal(textOf(sent.at(-1)), 'hi');
    // Refused arguments and a tool that throws are results too, at once.
    deliver(call(3, 'echo', {}));
    assert.equal(sent.at(-1)?.id, 3);
    assert.equal(sent.at(-1)?.result?.isError, true);
    deliver(call(4, 'fails', { text: 'x' }));
    assert.equal(sent.at(-1)?.id, 4);
    assert.equal(textOf(sent.at(-1)), 'it broke');
  });

  it('answers a 2026-07-28 call that does not wait at once, encoded for its revision', async () => {
    const { transport, deliver, sent, next } = recordingTransport();
    server().connect(transport);
    const first = next();
    deliver(call(6, 'echo', { text: 'first' }, META));
    assert.equal(textOf(await first), 'first');
    sent.length = 0;
    deliver(call(7, 'echo', { text: 'now' }, META));
    assert.equal(sent.length, 1, 'the call was not answered at once');
    assert.equal(sent[0]?.result?.resultType, 'complete');
    assert.equal(textOf(sent[0]), 'now');
  });

  it('waits for a tool that waits, and answers it once it is done', async () => {
    gate = newGate();
    const { transport, deliver, sent, next } = recordingTransport();
    server().connect(transport);
    deliver(call(8, 'waits', { text: 'x' }, META));
    assert.equal(sent.length, 0, 'answered before the tool was done');
    const answer = next();
    gate.open();
    const answered = await answer;
    assert.equal(answered.id, 8);
    assert.equal(answered.result?.resultType, 'complete');
    assert.equal(textOf(answered), 'later x');
  });
});
