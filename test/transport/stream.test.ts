// StreamTransport over in-process streams: frames that are not JSON, oversized frames and bad headers are
// reported and the transport keeps going; answers go out in the framing the peer used; end of input,
// close and read errors reach the handlers.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { CloseReason } from '../../src/jsonrpc/errors.js';
import type { FrameError, TransportHandlers } from '../../src/jsonrpc/transport.js';
import { encodeFrame } from '../../src/transport/framing/writer.js';
import { StreamTransport, type StreamTransportOptions } from '../../src/transport/stream.js';
import { cites } from '../support/requirements.js';

/** Records what the transport reports and lets a test wait until a condition holds. */
class Recorder implements TransportHandlers {
  readonly messages: unknown[] = [];
  readonly errors: FrameError[] = [];
  readonly closedWith: CloseReason[] = [];
  inputEndedCalls = 0;
  private waiters: Array<() => void> = [];

  message(payload: unknown): void {
    this.messages.push(payload);
    this.wake();
  }

  frameError(error: FrameError): void {
    this.errors.push(error);
    this.wake();
  }

  inputEnded(): void {
    this.inputEndedCalls++;
    this.wake();
  }

  closed(reason: CloseReason): void {
    this.closedWith.push(reason);
    this.wake();
  }

  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (condition()) resolve();
        else this.waiters.push(check);
      };
      check();
    });
  }

  private wake(): void {
    for (const check of this.waiters.splice(0)) check();
  }
}

interface Harness {
  transport: StreamTransport;
  input: PassThrough;
  recorder: Recorder;
  /** Everything the transport wrote so far. */
  written(): string;
}

function setup(options?: StreamTransportOptions): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  const transport = new StreamTransport(input, output, options);
  const recorder = new Recorder();
  transport.start(recorder);
  return { transport, input, recorder, written: () => written };
}

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' } as const;
const pong = { jsonrpc: '2.0', id: 1, result: {} } as const;

describe('StreamTransport: frames that cannot be delivered', () => {
  it('reports a line that is not JSON as a parse error and goes on', async () => {
    const { input, recorder } = setup();
    input.write('this is not json\n');
    input.write(`${JSON.stringify(ping)}\n`);
    await recorder.until(() => recorder.messages.length === 1);
    assert.deepEqual(recorder.messages, [ping]);
    assert.equal(recorder.errors.length, 1);
    const error = recorder.errors[0]!;
    assert.equal(error.kind, 'parse');
    assert.match(error.message, /^Parse error: /);
    assert.equal(error.kind === 'parse' && error.excerpt, 'this is not json');
  });

  it('reports a Content-Length body that is not JSON as a parse error and goes on', async () => {
    const { input, recorder } = setup();
    input.write(encodeFrame('{"broken":', 'content-length'));
    input.write(encodeFrame(JSON.stringify(ping), 'content-length'));
    await recorder.until(() => recorder.messages.length === 1);
    assert.deepEqual(
      recorder.errors.map((e) => e.kind),
      ['parse'],
    );
    assert.deepEqual(recorder.messages, [ping]);
  });

  it('cuts the excerpt of a long unparsable frame to 200 characters', async () => {
    const { input, recorder } = setup();
    input.write(`${'z'.repeat(1000)}\n`);
    await recorder.until(() => recorder.errors.length === 1);
    const error = recorder.errors[0]!;
    assert.equal(error.kind === 'parse' && error.excerpt, `${'z'.repeat(200)}…`);
  });

  it('reports an oversized request with its id and role, and delivers the message after it', async () => {
    const { input, recorder } = setup({ maxMessageSize: 200 });
    const big = {
      jsonrpc: '2.0',
      method: 'tools/call',
      params: { id: 'nested', data: 'x'.repeat(500) },
      id: 7,
    };
    const size = Buffer.byteLength(JSON.stringify(big));
    input.write(`${JSON.stringify(big)}\n${JSON.stringify(ping)}\n`);
    await recorder.until(() => recorder.messages.length === 1);
    assert.deepEqual(recorder.messages, [ping]);
    assert.equal(recorder.errors.length, 1);
    const error = recorder.errors[0]!;
    assert.equal(error.kind, 'oversize');
    if (error.kind !== 'oversize') return;
    assert.equal(error.id, 7);
    assert.equal(error.role, 'request');
    assert.equal(error.size, size);
    assert.equal(error.limit, 200);
    assert.match(error.message, new RegExp(`${size} bytes exceeds the maximum message size of 200 bytes`));
    assert.match(error.message, /maxMessageSize/);
  });

  it('reports an oversized Content-Length response with its string id and role', async () => {
    const { input, recorder } = setup({ maxMessageSize: 100 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 'r-1', result: { text: '€'.repeat(100) } });
    input.write(encodeFrame(big, 'content-length') + encodeFrame(JSON.stringify(pong), 'content-length'));
    await recorder.until(() => recorder.messages.length === 1);
    const error = recorder.errors[0]!;
    assert.equal(error.kind, 'oversize');
    assert.deepEqual(error.kind === 'oversize' && [error.id, error.role, error.size], [
      'r-1',
      'response',
      Buffer.byteLength(big),
    ]);
    assert.deepEqual(recorder.messages, [pong]);
  });

  it('reports a bad header as a framing error and goes on', async () => {
    const { input, recorder } = setup();
    input.write(`${encodeFrame('{}', 'content-length')}Content-Length: lots\r\n\r\n`);
    input.write(encodeFrame(JSON.stringify(ping), 'content-length'));
    await recorder.until(() => recorder.messages.length === 2);
    assert.deepEqual(recorder.messages, [{}, ping]);
    assert.deepEqual(
      recorder.errors.map((e) => e.kind),
      ['framing'],
    );
    assert.match(recorder.errors[0]!.message, /Content-Length/);
  });
});

describe('StreamTransport: framing of what it writes', () => {
  it(cites(
    'stdio.newline-delimited',
  )`writes newline-delimited JSON before the peer has sent anything`, async () => {
    const { transport, written } = setup();
    transport.send(ping);
    await transport.flush();
    assert.equal(written(), `${JSON.stringify(ping)}\n`);
    assert.equal(transport.peerFraming, undefined);
  });

  it('answers a peer that sends Content-Length frames with Content-Length frames', async () => {
    const { transport, input, recorder, written } = setup();
    input.write(encodeFrame(JSON.stringify(ping), 'content-length'));
    await recorder.until(() => recorder.messages.length === 1);
    assert.equal(transport.peerFraming, 'content-length');
    const answer = { jsonrpc: '2.0', id: 1, result: { text: 'é😀' } } as const;
    transport.send(answer);
    await transport.flush();
    const json = JSON.stringify(answer);
    assert.equal(written(), `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
  });

  it(cites(
    'stdio.newline-delimited',
  )`answers a peer that sends newline-delimited JSON with newline-delimited JSON`, async () => {
    const { transport, input, recorder, written } = setup();
    input.write(`${JSON.stringify(ping)}\r\n`);
    await recorder.until(() => recorder.messages.length === 1);
    assert.equal(transport.peerFraming, 'newline');
    transport.send(pong);
    await transport.flush();
    assert.equal(written(), `${JSON.stringify(pong)}\n`);
  });

  it('writes the framing given in the options whatever the peer uses', async () => {
    const { transport, input, recorder, written } = setup({ framing: 'content-length' });
    input.write(`${JSON.stringify(ping)}\n`);
    await recorder.until(() => recorder.messages.length === 1);
    transport.send(pong);
    await transport.flush();
    assert.match(written(), /^Content-Length: \d+\r\n\r\n/);
  });

  it('writes frames in the order they were sent', async () => {
    const { transport, written } = setup();
    for (let id = 1; id <= 50; id++) transport.send({ jsonrpc: '2.0', id, result: id });
    await transport.flush();
    const ids = written()
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    assert.deepEqual(
      ids,
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });
});

describe('StreamTransport: end, close and errors', () => {
  it('delivers a last message without newline, then reports the end of input, and can still write', async () => {
    const { transport, input, recorder, written } = setup();
    input.end(JSON.stringify(ping));
    await recorder.until(() => recorder.inputEndedCalls === 1);
    assert.deepEqual(recorder.messages, [ping]);
    assert.deepEqual(recorder.closedWith, []);
    transport.send(pong);
    await transport.flush();
    assert.equal(written(), `${JSON.stringify(pong)}\n`);
  });

  it('flushes on close(), then reports closed once and sends nothing more', async () => {
    const { transport, recorder, written } = setup();
    transport.send(ping);
    await transport.close();
    assert.equal(written(), `${JSON.stringify(ping)}\n`);
    assert.deepEqual(recorder.closedWith, [{ message: 'closed' }]);
    assert.deepEqual(transport.closed, { message: 'closed' });
    await transport.whenClosed();
    transport.send(pong);
    await transport.flush();
    await transport.close();
    assert.equal(written(), `${JSON.stringify(ping)}\n`);
    assert.equal(recorder.closedWith.length, 1);
  });

  it('stops delivering messages once closed', async () => {
    const { transport, input, recorder } = setup();
    await transport.close();
    input.write(`${JSON.stringify(ping)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(recorder.messages, []);
  });

  it('closes with the reason when the input stream fails', async () => {
    const { transport, input, recorder } = setup();
    const closed = transport.whenClosed();
    input.destroy(new Error('disk on fire'));
    await closed;
    assert.equal(recorder.closedWith.length, 1);
    assert.equal(recorder.closedWith[0]!.message, 'read failed: disk on fire');
  });
});
