// FrameWriter: frames in order, frames of one turn coalesced into one write, back-pressure honoured with a
// single drain listener, flush() that waits for the sink's write callbacks; and encodeFrame.

import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { describe, it } from 'node:test';
import type { Framing } from '../../src/transport/framing/decoder.js';
import { type ByteSink, encodeFrame, FrameWriter } from '../../src/transport/framing/writer.js';
import { cites } from '../support/requirements.js';

/**
 * A sink that records every write. `accept` is what write() returns (false: the buffer is full, wait for
 * 'drain'); with `holdCallbacks`, write callbacks run only when the test calls release().
 */
class RecordingSink extends EventEmitter implements ByteSink {
  /** Each write's text; a write of bytes is decoded, and `asBytes` says which writes were bytes. */
  readonly writes: string[] = [];
  readonly asBytes: boolean[] = [];
  accept = true;
  holdCallbacks = false;
  private readonly held: Array<(error?: Error | null) => void> = [];

  write(data: string | Uint8Array, callback: (error?: Error | null) => void): boolean {
    this.writes.push(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
    this.asBytes.push(typeof data !== 'string');
    if (this.holdCallbacks) this.held.push(callback);
    else queueMicrotask(() => callback());
    this.emit('written', data);
    return this.accept;
  }

  release(): void {
    for (const callback of this.held.splice(0)) callback();
  }

  get output(): string {
    return this.writes.join('');
  }
}

/** Lets the event loop run one full turn, so that work deferred with setImmediate has happened. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Tracks whether a promise has settled, without waiting for it. */
function track(promise: Promise<unknown>): { settled: boolean } {
  const state = { settled: false };
  void promise.then(() => {
    state.settled = true;
  });
  return state;
}

function writer(sink: RecordingSink, framing: Framing = 'newline'): FrameWriter {
  return new FrameWriter(sink, () => framing);
}

describe('FrameWriter', () => {
  it('writes frames in the order they were queued', async () => {
    const sink = new RecordingSink();
    const w = writer(sink);
    for (let i = 0; i < 5; i++) w.write(`{"n":${i}}`);
    await w.flush();
    w.write('{"n":5}');
    await w.flush();
    assert.equal(sink.output, '{"n":0}\n{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n{"n":5}\n');
  });

  it('defers writing to the end of the turn and coalesces the frames of one turn into one write', async () => {
    const sink = new RecordingSink();
    const w = writer(sink);
    w.write('{"a":1}');
    w.write('{"b":2}');
    w.write('{"c":3}');
    assert.equal(sink.writes.length, 0, 'nothing is written synchronously');
    await once(sink, 'written');
    assert.deepEqual(sink.writes, ['{"a":1}\n{"b":2}\n{"c":3}\n']);
    // The next turn's frames go out in a write of their own.
    w.write('{"d":4}');
    w.write('{"e":5}');
    await once(sink, 'written');
    assert.deepEqual(sink.writes, ['{"a":1}\n{"b":2}\n{"c":3}\n', '{"d":4}\n{"e":5}\n']);
  });

  it('writes at once when the queue reaches 1 MiB instead of waiting for the end of the turn', () => {
    const sink = new RecordingSink();
    const w = writer(sink);
    w.write('{"small":1}');
    assert.equal(sink.writes.length, 0);
    const big = JSON.stringify({ data: 'x'.repeat(1024 * 1024) });
    w.write(big);
    assert.deepEqual(sink.writes, ['{"small":1}\n', big, '\n']);
    // The big JSON goes as its bytes, with its newline apart: no rope of the two to flatten into a copy.
    assert.deepEqual(sink.asBytes, [false, true, false]);
  });

  it('writes nothing more while the sink is full, until drain, with a single drain listener', async () => {
    const sink = new RecordingSink();
    sink.accept = false;
    const w = writer(sink);
    w.write('{"n":1}');
    await once(sink, 'written');
    assert.equal(sink.listenerCount('drain'), 1);
    // Frames queued over several turns while the sink is full.
    for (let i = 2; i <= 6; i++) {
      w.write(`{"n":${i}}`);
      await nextTurn();
    }
    // A large frame would normally be written at once; not while waiting for drain.
    const big = JSON.stringify({ data: 'y'.repeat(1024 * 1024) });
    w.write(big);
    const flushed = track(w.flush());
    await nextTurn();
    assert.deepEqual(sink.writes, ['{"n":1}\n']);
    assert.equal(sink.listenerCount('drain'), 1);
    assert.equal(flushed.settled, false);

    sink.accept = true;
    sink.emit('drain');
    assert.deepEqual(sink.writes, ['{"n":1}\n', '{"n":2}\n{"n":3}\n{"n":4}\n{"n":5}\n{"n":6}\n', big, '\n']);
    assert.equal(sink.listenerCount('drain'), 0);
    await nextTurn();
    assert.equal(flushed.settled, true);
  });

  it('waits for drain again when the write after a drain is refused too', async () => {
    const sink = new RecordingSink();
    sink.accept = false;
    const w = writer(sink);
    w.write('{"n":1}');
    await once(sink, 'written');
    w.write('{"n":2}');
    sink.emit('drain');
    assert.equal(sink.writes.length, 2);
    assert.equal(sink.listenerCount('drain'), 1);
    w.write('{"n":3}');
    await nextTurn();
    assert.equal(sink.writes.length, 2);
    sink.accept = true;
    sink.emit('drain');
    assert.deepEqual(sink.writes, ['{"n":1}\n', '{"n":2}\n', '{"n":3}\n']);
  });

  it('resolves flush() only once the sink has called back for the data', async () => {
    const sink = new RecordingSink();
    sink.holdCallbacks = true;
    const w = writer(sink);
    w.write('{"a":1}');
    const flushed = track(w.flush());
    // flush() writes at once rather than at the end of the turn.
    assert.deepEqual(sink.writes, ['{"a":1}\n']);
    await nextTurn();
    assert.equal(flushed.settled, false);
    sink.release();
    await nextTurn();
    assert.equal(flushed.settled, true);
  });

  it('makes flush() wait for a write that is already in progress', async () => {
    const sink = new RecordingSink();
    sink.holdCallbacks = true;
    const w = writer(sink);
    w.write('{"a":1}');
    await once(sink, 'written');
    const flushed = track(w.flush());
    await nextTurn();
    assert.equal(flushed.settled, false);
    sink.release();
    await nextTurn();
    assert.equal(flushed.settled, true);
  });

  it('resolves flush() at once when nothing is queued', async () => {
    const sink = new RecordingSink();
    await writer(sink).flush();
    assert.deepEqual(sink.writes, []);
  });

  it('writes Content-Length frames whose length is the UTF-8 byte length of the body', async () => {
    const sink = new RecordingSink();
    const w = writer(sink, 'content-length');
    const json = JSON.stringify({ text: 'é € 😀 日本語' });
    w.write(json);
    w.write('{}');
    await w.flush();
    const bytes = Buffer.byteLength(json);
    assert.notEqual(bytes, json.length);
    assert.equal(sink.output, `Content-Length: ${bytes}\r\n\r\n${json}Content-Length: 2\r\n\r\n{}`);
  });

  it('reads the framing for every frame, so it can follow the peer', async () => {
    const sink = new RecordingSink();
    let framing: Framing = 'newline';
    const w = new FrameWriter(sink, () => framing);
    w.write('{"a":1}');
    framing = 'content-length';
    w.write('{"b":2}');
    await w.flush();
    assert.equal(sink.output, '{"a":1}\nContent-Length: 7\r\n\r\n{"b":2}');
  });

  it('drops what is queued after fail(), releases flush() waiters and ignores later writes (regression: flush() after fail() while waiting for drain never resolved)', async () => {
    const sink = new RecordingSink();
    sink.accept = false;
    const w = writer(sink);
    w.write('{"a":1}');
    await once(sink, 'written');
    w.write('{"b":2}');
    const flushed = w.flush();
    w.fail(new Error('stream broke'));
    await flushed;
    w.write('{"c":3}');
    await w.flush();
    sink.emit('drain');
    await nextTurn();
    assert.deepEqual(sink.writes, ['{"a":1}\n']);
  });

  it('fails when the sink calls a write back with an error, releasing flush() (regression: a stream written after its end returns false and never drains; flush() never resolved)', async () => {
    const { Writable } = await import('node:stream');
    const ended = new Writable({ write: (_chunk, _encoding, done) => done() });
    ended.on('error', () => {});
    ended.end();
    const w = new FrameWriter(ended, () => 'newline');
    w.write('{"a":1}');
    const flushed = track(w.flush());
    // The stream calls back with its error on the next tick.
    await nextTurn();
    assert.equal(flushed.settled, true, 'flush() resolved once the write was refused');
  });

  it('fails, instead of throwing, when the sink throws', async () => {
    const sink = new RecordingSink();
    let calls = 0;
    sink.write = () => {
      calls++;
      throw new Error('write after end');
    };
    const w = writer(sink);
    w.write('{"a":1}');
    await w.flush();
    // Failed for good: the next frame is not even tried.
    w.write('{"b":2}');
    await w.flush();
    assert.equal(calls, 1);
  });
});

describe('encodeFrame', () => {
  it(cites('stdio.newline-delimited')`ends a newline frame with one \\n`, () => {
    assert.equal(encodeFrame('{"a":1}', 'newline'), '{"a":1}\n');
  });

  it('counts bytes, not characters, in a Content-Length header', () => {
    assert.equal(encodeFrame('"😀"', 'content-length'), 'Content-Length: 6\r\n\r\n"😀"');
    assert.equal(encodeFrame('', 'content-length'), 'Content-Length: 0\r\n\r\n');
  });
});
