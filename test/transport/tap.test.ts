// tapTransport shows every message to an observer and changes nothing else: send options, what the
// inner transport declares and what it is told pass through.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SendOptions, Transport, TransportHandlers } from '../../src/jsonrpc/transport.js';
import { tapTransport } from '../../src/transport/tap.js';

function recordingInner() {
  const sent: Array<{ payload: unknown; options: SendOptions | undefined }> = [];
  const versions: string[] = [];
  const inner: Transport = {
    streamPerRequest: true,
    setProtocolVersion: (version) => versions.push(version),
    start() {},
    send: (payload, options) => sent.push({ payload, options }),
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return { inner, sent, versions };
}

describe('tapTransport', () => {
  it('bug: the send options were dropped; they reach the inner transport unchanged', () => {
    const { inner, sent } = recordingInner();
    const seen: unknown[] = [];
    const tap = tapTransport(inner, { sent: (p) => seen.push(p) });
    const options: SendOptions = { relatedRequestId: 3, standalone: true, headers: { 'Mcp-Method': 'x' } };
    const message = { jsonrpc: '2.0' as const, id: 1, method: 'x' };
    tap.send(message, options);
    assert.deepEqual(seen, [message]);
    assert.equal(sent[0]?.options, options);
  });

  it('bug: streamPerRequest and setProtocolVersion were hidden; they pass through', () => {
    const { inner, versions } = recordingInner();
    const tap = tapTransport(inner, {});
    assert.equal(tap.streamPerRequest, true);
    tap.setProtocolVersion?.('2025-11-25');
    assert.deepEqual(versions, ['2025-11-25']);
  });

  it('passes every handler through, holds included, to handlers of any shape', () => {
    let started: TransportHandlers | undefined;
    const inner: Transport = { ...recordingInner().inner, start: (h) => (started = h) };
    const calls: string[] = [];
    // A class instance: its methods live on the prototype, so a tap that spread the handlers lost them.
    class Handlers implements TransportHandlers {
      message(payload: unknown) {
        calls.push(`message ${JSON.stringify(payload)}`);
      }
      frameError(error: { kind: string }) {
        calls.push(`frameError ${error.kind}`);
      }
      inputEnded() {
        calls.push('inputEnded');
      }
      held(holding: boolean) {
        calls.push(`held ${holding}`);
      }
      closed(reason: { message?: string }) {
        calls.push(`closed ${reason.message}`);
      }
    }
    const received: unknown[] = [];
    tapTransport(inner, { received: (p) => received.push(p) }).start(new Handlers());
    started?.message({ id: 1 });
    started?.frameError({ kind: 'parse', message: 'x', excerpt: 'x' });
    started?.inputEnded?.();
    started?.held?.(true);
    started?.held?.(false);
    started?.closed({ message: 'gone' });
    assert.deepEqual(calls, [
      'message {"id":1}',
      'frameError parse',
      'inputEnded',
      'held true',
      'held false',
      'closed gone',
    ]);
    assert.deepEqual(received, [{ id: 1 }]);
  });
});
