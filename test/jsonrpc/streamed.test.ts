// StreamedString (jsonrpc/streamed.ts) and the writing of spliced frames (FrameWriter.writeSpliced, and
// StreamTransport.send): what goes on the wire is byte for byte JSON.stringify of the message with the
// value read whole, at any chunk boundary; frames sent meanwhile follow it in order; back-pressure is
// waited for; Content-Length framing gets the right length; limits are checked before the first byte;
// a source is closed whatever happens; and a connection on a transport that cannot splice answers with
// the value read into a string.

import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Connection } from '../../src/jsonrpc/connection.js';
import { MessageTooLargeError } from '../../src/jsonrpc/local-errors.js';
import {
  type ByteSource,
  materializeStreamed,
  type StreamedEncoding,
  StreamedString,
  serializeSpliced,
  streamedPending,
} from '../../src/jsonrpc/streamed.js';
import type { Transport, TransportHandlers } from '../../src/jsonrpc/transport.js';
import type { Framing } from '../../src/transport/framing/decoder.js';
import { type ByteSink, FrameWriter } from '../../src/transport/framing/writer.js';
import { StreamTransport } from '../../src/transport/stream.js';

/** A source of the given chunks; records whether it was closed, and `whenClosed` resolves then. */
function source(
  chunks: Uint8Array[],
  fail?: Error,
): ByteSource & { closed: boolean; whenClosed: Promise<void> } {
  const queue = [...chunks];
  let onClose = () => {};
  const s = {
    closed: false,
    whenClosed: new Promise<void>((resolve) => {
      onClose = resolve;
    }),
    async read() {
      if (queue.length === 0 && fail) throw fail;
      return queue.shift() ?? null;
    },
    close() {
      s.closed = true;
      onClose();
    },
  };
  return s;
}

/** `bytes` cut into chunks of `size` (the last may be shorter). */
function cut(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

function streamed(bytes: Buffer, encoding: StreamedEncoding, size: number) {
  const s = source(cut(bytes, size));
  return { value: new StreamedString(s, encoding, bytes.length), source: s };
}

/**
 * A sink that records bytes. With `accept` false it is a slow pipe: each write asks for 'drain', which it
 * emits on the next turn; a write made before that drain is counted in `early`.
 */
class Sink extends EventEmitter implements ByteSink {
  readonly chunks: Buffer[] = [];
  accept = true;
  /** A peer that stopped reading: asked to wait, the sink never drains. */
  neverDrain = false;
  early = 0;
  private owed = false;
  write(data: string | Uint8Array, callback: (error?: Error | null) => void): boolean {
    if (this.owed) this.early++;
    this.chunks.push(typeof data === 'string' ? Buffer.from(data) : Buffer.from(data));
    queueMicrotask(() => callback());
    this.emit('written');
    if (this.accept) return true;
    this.owed = true;
    if (this.neverDrain) return false;
    setImmediate(() => {
      this.owed = false;
      this.emit('drain');
    });
    return false;
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

// Every kind of escape, multi-byte characters of 2, 3 and 4 bytes, and DEL (not escaped).
const TEXT = 'plain "quoted" back\\slash \b\f\n\r\t \u0000\u0001\u001f\u007f é ü € 中文 😀 end'.repeat(37);
const TEXT_BYTES = Buffer.from(TEXT, 'utf8');

describe('StreamedString', () => {
  for (const size of [1, 2, 3, 5, 7, 64, TEXT_BYTES.length]) {
    it(`writes text exactly as JSON.stringify does, read in chunks of ${size} bytes`, async () => {
      const sink = new Sink();
      const writer = new FrameWriter(sink, () => 'newline');
      const { value, source: s } = streamed(TEXT_BYTES, 'text', size);
      writer.writeSpliced(
        serializeSpliced({ jsonrpc: '2.0', id: 1, result: { contents: [{ text: value }] } }),
      );
      await writer.flush();
      assert.equal(
        sink.text,
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ text: TEXT }] } })}\n`,
      );
      assert.ok(s.closed);
    });
  }

  for (const size of [1, 2, 3, 4, 1000]) {
    it(`writes base64 exactly as Buffer does, read in chunks of ${size} bytes`, async () => {
      const bytes = Buffer.from(Array.from({ length: 1001 }, (_, i) => (i * 37) % 256));
      const sink = new Sink();
      const writer = new FrameWriter(sink, () => 'newline');
      const { value } = streamed(bytes, 'base64', size);
      writer.writeSpliced(serializeSpliced({ id: 2, blob: value, after: 'x' }));
      await writer.flush();
      assert.equal(sink.text, `${JSON.stringify({ id: 2, blob: bytes.toString('base64'), after: 'x' })}\n`);
    });
  }

  it('splices several values of one message in their places', async () => {
    const sink = new Sink();
    const writer = new FrameWriter(sink, () => 'newline');
    const values = Array.from({ length: 12 }, (_, i) => streamed(Buffer.from(`v${i}"`), 'text', 1).value);
    writer.writeSpliced(serializeSpliced({ list: values, last: 'end' }));
    await writer.flush();
    const expected = { list: Array.from({ length: 12 }, (_, i) => `v${i}"`), last: 'end' };
    assert.equal(sink.text, `${JSON.stringify(expected)}\n`);
  });

  it('keeps frames sent while a value is written after it, in order, and waits for drain', async () => {
    const sink = new Sink();
    sink.accept = false;
    const writer = new FrameWriter(sink, () => 'newline');
    writer.write('{"before":1}');
    writer.writeSpliced(serializeSpliced({ big: streamed(TEXT_BYTES, 'text', 100).value }));
    writer.write('{"after":1}');
    writer.writeSpliced(serializeSpliced({ big2: streamed(Buffer.from('second'), 'text', 2).value }));
    writer.write('{"after":2}');
    await writer.flush();
    assert.equal(sink.early, 0, 'no write before the drain it was asked to wait for');
    assert.ok(sink.chunks.length > 5, 'the value went out in several writes');
    assert.equal(
      sink.text,
      [
        '{"before":1}',
        JSON.stringify({ big: TEXT }),
        '{"after":1}',
        '{"big2":"second"}',
        '{"after":2}',
        '',
      ].join('\n'),
    );
  });

  it('writes a Content-Length frame with the length of the whole message', async () => {
    const sink = new Sink();
    const framing: Framing = 'content-length';
    const writer = new FrameWriter(sink, () => framing);
    writer.writeSpliced(serializeSpliced({ text: streamed(TEXT_BYTES, 'text', 9).value }));
    writer.write('{"after":1}');
    await writer.flush();
    const json = JSON.stringify({ text: TEXT });
    assert.equal(
      sink.text,
      `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}Content-Length: 11\r\n\r\n{"after":1}`,
    );
  });

  it('a source that fails half-way fails the writer, closes the source and releases what waits', async () => {
    const sink = new Sink();
    const writer = new FrameWriter(sink, () => 'newline');
    const failing = source([Buffer.from('part')], new Error('EIO: the disk went away'));
    let failure: Error | undefined;
    writer.onSpliceFailure = (error) => {
      failure = error;
    };
    writer.writeSpliced(serializeSpliced({ text: new StreamedString(failing, 'text', 100) }));
    const waiting = streamed(Buffer.from('never'), 'text', 5);
    writer.writeSpliced(serializeSpliced({ text: waiting.value }));
    await writer.flush();
    assert.match(String(failure?.message), /a streamed value could not be written: EIO: the disk went away/);
    assert.ok(failing.closed);
    assert.ok(waiting.source.closed, 'the value that waited behind it is released');
  });

  it('a peer that stops reading mid-value: failing the writer closes the source, nothing waits for ever', async () => {
    const sink = new Sink();
    sink.accept = false;
    sink.neverDrain = true;
    const writer = new FrameWriter(sink, () => 'newline');
    const { value, source: s } = streamed(TEXT_BYTES, 'text', 10);
    writer.writeSpliced(serializeSpliced({ text: value }));
    const flushed = writer.flush();
    // The first write (the JSON before the value) went out at once and asked to wait.
    assert.equal(sink.chunks.length, 1);
    assert.equal(s.closed, false);
    writer.fail(new Error('the pipe closed'));
    await flushed;
    await s.whenClosed;
    assert.equal(sink.chunks.length, 1, 'nothing written after the failure');
  });

  it('is described, never read, when stringified outside a transport (a log, a trace)', () => {
    const { value, source: s } = streamed(Buffer.from('secret'), 'text', 2);
    assert.equal(JSON.stringify({ text: value }), '{"text":"[text of 6 bytes, streamed]"}');
    value.release();
    assert.ok(s.closed);
    assert.throws(() => value.take(), /written once/);
  });

  it('a text with the placeholder prefix of another process is kept as it is', () => {
    const { value } = streamed(Buffer.from('x'), 'text', 1);
    const spliced = serializeSpliced({ a: '\u{E000}mcpwire-abc-0', b: value });
    assert.equal(spliced.values.length, 1);
    assert.equal(
      `${spliced.texts[0]}x${spliced.texts[1]}`,
      JSON.stringify({ a: '\u{E000}mcpwire-abc-0', b: 'x' }),
    );
    value.release();
  });

  it('materializes what the source gives, more or less than it announced (a file that grew or shrank)', async () => {
    const more = new StreamedString(source(cut(Buffer.from('0123456789'), 3)), 'text', 4);
    const less = new StreamedString(source([Buffer.from('ab')]), 'base64', 100);
    assert.equal(await more.materialize(), '0123456789');
    assert.equal(await less.materialize(), Buffer.from('ab').toString('base64'));
  });

  it('materializes into ordinary strings', async () => {
    const message = {
      contents: [
        { text: streamed(TEXT_BYTES, 'text', 3).value },
        { blob: streamed(TEXT_BYTES, 'base64', 4).value },
      ],
    };
    await materializeStreamed(message);
    assert.deepEqual(message, { contents: [{ text: TEXT }, { blob: TEXT_BYTES.toString('base64') }] });
    assert.equal(streamedPending(), false);
  });
});

describe('StreamTransport with streamed values', () => {
  it('refuses a message whose values exceed the limit before writing a byte, and closes their sources', () => {
    const output = new PassThrough();
    const transport = new StreamTransport(new PassThrough(), output, { maxMessageSize: 1000 });
    const { value, source: s } = streamed(Buffer.alloc(990, 0x61), 'text', 100);
    assert.throws(
      () => transport.send({ jsonrpc: '2.0', id: 1, result: { text: value } }),
      MessageTooLargeError,
    );
    assert.ok(s.closed);
    assert.equal(output.read(), null);
  });

  it('counts base64 values at their encoded size', () => {
    const transport = new StreamTransport(new PassThrough(), new PassThrough(), { maxMessageSize: 1000 });
    const { value } = streamed(Buffer.alloc(740), 'base64', 100); // 988 bytes of base64
    assert.throws(
      () => transport.send({ jsonrpc: '2.0', id: 1, result: { blob: value } }),
      MessageTooLargeError,
    );
  });
});

describe('Connection with streamed values', () => {
  /** A transport without splicing that records what is sent. */
  class Recording implements Transport {
    handlers: TransportHandlers | undefined;
    readonly sent: unknown[] = [];
    start(handlers: TransportHandlers) {
      this.handlers = handlers;
    }
    send(message: unknown) {
      this.sent.push(JSON.parse(JSON.stringify(message)));
    }
    async flush() {}
    async close() {}
  }

  it('answers with the value read into a string on a transport that cannot splice', async () => {
    const transport = new Recording();
    const connection = new Connection(transport);
    const { value, source: s } = streamed(TEXT_BYTES, 'text', 5);
    connection.onRequest('resources/read', () => ({ contents: [{ uri: 'x:y', text: value }] }));
    connection.start();
    transport.handlers!.message({ jsonrpc: '2.0', id: 1, method: 'resources/read' });
    await connection.whenIdle();
    assert.deepEqual(transport.sent, [
      { jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'x:y', text: TEXT }] } },
    ]);
    assert.ok(s.closed);
  });

  it('closes the source of an answer that is never sent (the request was cancelled)', async () => {
    const transport = new Recording();
    const connection = new Connection(transport);
    const { value, source: s } = streamed(TEXT_BYTES, 'text', 5);
    let answer: (v: unknown) => void = () => {};
    connection.onRequest('slow', () => new Promise((resolve) => (answer = resolve)));
    connection.start();
    transport.handlers!.message({ jsonrpc: '2.0', id: 7, method: 'slow' });
    transport.handlers!.message({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7 },
    });
    answer({ text: value });
    await connection.whenIdle();
    assert.deepEqual(transport.sent, []);
    assert.ok(s.closed);
  });
});
