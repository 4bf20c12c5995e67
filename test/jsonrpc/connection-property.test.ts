// Property-based tests (fast-check): whatever a peer sends, random JSON values or random bytes, nothing
// throws out of the connection and it goes on: a valid request afterwards is still answered, every payload
// it sent is a well-formed response, and a valid notification is never answered.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Connection } from '../../src/jsonrpc/connection.js';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import { StreamTransport } from '../../src/transport/stream.js';
import { connect, deferred, isResponse } from '../support/jsonrpc-peer.js';

const STANDARD_CODES = new Set<number>(Object.values(ErrorCode));

/** Values a hostile or buggy peer might put where an id, a method or params belong. */
const tricky = fc.constantFrom<unknown>(
  null,
  '',
  0,
  -1,
  1.5,
  '1',
  1,
  true,
  {},
  [],
  '__proto__',
  'constructor',
  'toString',
  'notifications/cancelled',
  'notifications/progress',
  'echo',
  'slow',
  1e300,
);
const json = fc.jsonValue({ maxDepth: 3 });
const field = fc.oneof(tricky, json);

/** Objects shaped like JSON-RPC messages, valid or not in every way. */
const messageLike = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), field),
    id: field,
    method: field,
    params: fc.oneof(
      field,
      fc.record({
        requestId: field,
        progressToken: field,
        progress: field,
        _meta: fc.record({ progressToken: field }, { requiredKeys: [] }),
      }),
    ),
    result: field,
    error: fc.oneof(field, fc.record({ code: field, message: field, data: field }, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);
/** Valid messages too, so that requests, notifications, cancellations and progress are well represented. */
const method = fc.constantFrom(
  'echo',
  'slow',
  'note',
  'unknown',
  'notifications/cancelled',
  'notifications/progress',
);
const params = fc.dictionary(fc.constantFrom('requestId', 'progressToken', 'progress', 'x'), field);
const valid = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), method, params }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.record(
    { jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), method, params },
    { requiredKeys: ['jsonrpc', 'id', 'method'] },
  ),
);
const anyPayload = fc.oneof(
  { weight: 2, arbitrary: valid },
  { weight: 3, arbitrary: messageLike },
  { weight: 1, arbitrary: json },
  { weight: 1, arbitrary: fc.array(fc.oneof(valid, messageLike, json), { maxLength: 5 }) },
);

/** A valid notification, judged independently of the code under test. */
function isValidNotification(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  return (
    m.jsonrpc === '2.0' &&
    typeof m.method === 'string' &&
    !('id' in m) &&
    !('result' in m) &&
    !('error' in m) &&
    (!('params' in m) || (typeof m.params === 'object' && m.params !== null))
  );
}

function checkWellFormed(payload: unknown): void {
  for (const message of Array.isArray(payload) ? payload : [payload]) {
    if (typeof message === 'object' && message !== null && 'method' in message) continue; // our own requests
    assert.ok(isResponse(message), `not a response: ${JSON.stringify(message)}`);
    assert.equal(message.jsonrpc, '2.0');
    const id = message.id;
    assert.ok(
      id === null || typeof id === 'string' || typeof id === 'number',
      `bad id ${JSON.stringify(id)}`,
    );
    if (message.error) {
      assert.ok(Number.isInteger(message.error.code));
      assert.equal(typeof message.error.message, 'string');
      assert.ok(STANDARD_CODES.has(message.error.code), `unexpected code ${message.error.code}`);
    }
  }
}

describe('connection properties', () => {
  it('survives any sequence of JSON values, answers no valid notification, and still answers requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyPayload, { maxLength: 8 }), async (payloads) => {
        const { connection, peer } = connect({ timeout: 0 });
        connection.onRequest('echo', (params) => params ?? null);
        connection.onRequest('slow', async (params) => {
          await Promise.resolve();
          return params ?? null;
        });
        connection.onNotification('note', () => {});
        for (const generated of payloads) {
          // As it would arrive: parsed from JSON text.
          const payload: unknown = JSON.parse(JSON.stringify(generated));
          const before = peer.sent.length;
          assert.doesNotThrow(() => peer.deliver(payload));
          if (isValidNotification(payload))
            assert.equal(peer.sent.length, before, 'a notification was answered');
        }
        const probe = await peer.call('probe-id', 'echo', { still: 'alive' });
        assert.deepEqual(probe, { jsonrpc: '2.0', id: 'probe-id', result: { still: 'alive' } });
        await connection.whenIdle();
        for (const payload of peer.sent) checkWellFormed(payload);
        assert.equal(connection.closed, undefined);
      }),
      { numRuns: 200 },
    );
  });

  it('survives random bytes on a real byte stream and answers the next request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.string({ maxLength: 40 })), { maxLength: 6 }),
        async (chunks) => {
          const input = new PassThrough();
          const output = new PassThrough();
          let text = '';
          const answered = deferred<unknown>();
          output.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            // Every complete line the connection wrote must be JSON; the probe's answer ends the run.
            for (const line of text.split('\n').slice(0, -1)) {
              const message = JSON.parse(line) as { id?: unknown };
              if (message.id === 'probe') answered.resolve(message);
            }
          });
          const connection = new Connection(new StreamTransport(input, output), {
            timeout: 0,
            onProblem: () => {},
          });
          connection.onRequest('echo', (params) => params);
          connection.start();
          // A first valid line fixes the framing as newline-delimited; the junk comes after it.
          input.write('{"jsonrpc":"2.0","method":"note"}\n');
          for (const chunk of chunks) input.write(typeof chunk === 'string' ? chunk : Buffer.from(chunk));
          input.write('\n{"jsonrpc":"2.0","id":"probe","method":"echo","params":{"ok":true}}\n');
          assert.deepEqual(await answered.promise, { jsonrpc: '2.0', id: 'probe', result: { ok: true } });
          assert.equal(connection.closed, undefined);
          for (const line of text.split('\n').filter((l) => l.length > 0)) checkWellFormed(JSON.parse(line));
          input.end();
        },
      ),
      { numRuns: 100 },
    );
  });

  it('survives random bodies in Content-Length frames and answers the next request', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 5 }), async (bodies) => {
        const input = new PassThrough();
        const output = new PassThrough();
        let text = '';
        const answered = deferred<unknown>();
        output.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          const match = /Content-Length: \d+\r\n\r\n(\{[^\r]*"probe"[^\r]*\})$/.exec(text);
          if (match) answered.resolve(JSON.parse(match[1]!));
        });
        const connection = new Connection(new StreamTransport(input, output), {
          timeout: 0,
          onProblem: () => {},
        });
        connection.onRequest('echo', (params) => params);
        connection.start();
        const frame = (body: Buffer) =>
          Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
        for (const body of bodies) input.write(frame(Buffer.from(body)));
        input.write(
          frame(Buffer.from('{"jsonrpc":"2.0","id":"probe","method":"echo","params":{"ok":true}}')),
        );
        assert.deepEqual(await answered.promise, { jsonrpc: '2.0', id: 'probe', result: { ok: true } });
        assert.equal(connection.closed, undefined);
        input.end();
      }),
      { numRuns: 100 },
    );
  });
});
