// tapTransport shows every message to an observer and changes nothing else: send options, what the
// inner transport declares and what it is told pass through.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SendOptions, Transport } from '../../src/jsonrpc/transport.js';
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
});
