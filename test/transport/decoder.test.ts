// FrameDecoder: bytes to frames in newline-delimited JSON and Content-Length framing, detected from the
// first bytes; chunk boundaries anywhere; oversized frames skipped with bounded memory; bad headers
// reported. The property tests encode with the writer's own encodeFrame.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { type DecoderOptions, FrameDecoder, type Framing } from '../../src/transport/framing/decoder.js';
import { encodeFrame } from '../../src/transport/framing/writer.js';
import { cites } from '../support/requirements.js';

interface Oversize {
  head: string;
  size: number;
  limit: number;
}

interface Decoded {
  decoder: FrameDecoder;
  frames: string[];
  oversize: Oversize[];
  errors: Array<{ message: string; excerpt: string }>;
}

function makeDecoder(options?: DecoderOptions): Decoded {
  const out: Omit<Decoded, 'decoder'> = { frames: [], oversize: [], errors: [] };
  const decoder = new FrameDecoder(
    {
      frame: (text) => out.frames.push(text),
      oversize: (head, size, limit) => out.oversize.push({ head, size, limit }),
      framingError: (message, excerpt) => out.errors.push({ message, excerpt }),
    },
    options,
  );
  return { decoder, ...out };
}

/** Pushes every chunk, then ends the stream. */
function decode(chunks: Array<string | Buffer>, options?: DecoderOptions): Decoded {
  const result = makeDecoder(options);
  for (const chunk of chunks) result.decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  result.decoder.end();
  return result;
}

/** Cuts `bytes` at the given offsets (any order, duplicates and out-of-range values allowed). */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let previous = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(previous, point));
    previous = point;
  }
  return chunks;
}

/** Every single-byte chunk of `text`. */
function bytewise(text: string): Buffer[] {
  return [...Buffer.from(text)].map((byte) => Buffer.from([byte]));
}

const cl = (json: string) => encodeFrame(json, 'content-length');

describe('FrameDecoder: newline-delimited JSON', () => {
  it(cites('stdio.newline-delimited')`delivers one frame per line, compact JSON as sent`, () => {
    const { frames, decoder, errors } = decode([
      '{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","id":1}\n',
    ]);
    assert.deepEqual(frames, ['{"jsonrpc":"2.0","method":"a"}', '{"jsonrpc":"2.0","id":1}']);
    assert.equal(decoder.framing, 'newline');
    assert.deepEqual(errors, []);
  });

  it('accepts \\r\\n line endings and drops the \\r', () => {
    const { frames } = decode(['{"a":1}\r\n{"b":2}\r\n']);
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
  });

  it('accepts a \\r\\n split between two chunks', () => {
    const { frames } = decode(['{"a":1}\r', '\n{"b":2}\r', '\n']);
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
  });

  it('ignores blank lines, also ones made of spaces, tabs or \\r', () => {
    const { frames } = decode(['\n\n{"a":1}\n\r\n  \t \n', '\n{"b":2}\n\n']);
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
  });

  it('delivers a frame only when its newline arrives', () => {
    const d = makeDecoder();
    d.decoder.push(Buffer.from('{"a":1}'));
    assert.deepEqual(d.frames, []);
    d.decoder.push(Buffer.from('\n'));
    assert.deepEqual(d.frames, ['{"a":1}']);
  });

  it('delivers a final message without its newline at end()', () => {
    const d = makeDecoder();
    d.decoder.push(Buffer.from('{"a":1}\n{"b":'));
    d.decoder.push(Buffer.from('2}'));
    assert.deepEqual(d.frames, ['{"a":1}']);
    d.decoder.end();
    assert.deepEqual(d.frames, ['{"a":1}', '{"b":2}']);
  });

  it('delivers nothing at end() after a trailing newline or blank line', () => {
    assert.deepEqual(decode(['{"a":1}\n']).frames, ['{"a":1}']);
    assert.deepEqual(decode(['{"a":1}\n  \r']).frames, ['{"a":1}']);
    assert.deepEqual(decode([]).frames, []);
    assert.deepEqual(decode(['\n\n']).frames, []);
  });

  it('hands over a line that is not JSON as it is (parsing is the caller’s business)', () => {
    assert.deepEqual(decode(['not json\n{}\n']).frames, ['not json', '{}']);
  });

  it('joins a frame that spans many chunks', () => {
    const text = `{"jsonrpc":"2.0","id":1,"result":"${'x'.repeat(1000)}"}`;
    const { frames } = decode(bytewise(`${text}\n`));
    assert.deepEqual(frames, [text]);
  });
});

describe('FrameDecoder: Content-Length framing', () => {
  it('is detected from the first bytes and delivers each body', () => {
    const { frames, decoder, errors } = decode([`${cl('{"a":1}')}${cl('{"b":[1,2]}')}`]);
    assert.equal(decoder.framing, 'content-length');
    assert.deepEqual(frames, ['{"a":1}', '{"b":[1,2]}']);
    assert.deepEqual(errors, []);
  });

  it('reads the header name case-insensitively', () => {
    const { frames, decoder } = decode([
      'content-length: 7\r\n\r\n{"a":1}',
      'CONTENT-LENGTH: 7\r\n\r\n{"b":2}',
      'CoNtEnT-LeNgTh:7\r\n\r\n{"c":3}',
    ]);
    assert.equal(decoder.framing, 'content-length');
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('ignores other headers such as Content-Type, before or after Content-Length', () => {
    const { frames, errors } = decode([
      'Content-Length: 7\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"a":1}',
      'Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{"b":2}',
    ]);
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
    assert.deepEqual(errors, []);
  });

  it('counts the length in bytes, not characters', () => {
    const json = '{"text":"€ and 😀"}';
    assert.notEqual(Buffer.byteLength(json), json.length);
    assert.deepEqual(decode([cl(json), cl('{}')]).frames, [json, '{}']);
  });

  it('tolerates blank lines between frames and before the first header', () => {
    const { frames, decoder } = decode([`\r\n\n${cl('{"a":1}')}\r\n\r\n${cl('{"b":2}')}`]);
    assert.equal(decoder.framing, 'content-length');
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
  });

  it('keeps newlines inside a body (the length alone delimits it)', () => {
    const pretty = '{\n  "a": 1\n}';
    assert.deepEqual(decode([cl(pretty)]).frames, [pretty]);
  });

  it('reads a header and body delivered one byte at a time', () => {
    const { frames } = decode(bytewise(`${cl('{"a":1}')}${cl('{"b":2}')}`));
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
  });
});

describe('FrameDecoder: detection', () => {
  it('waits when the first chunk is shorter than "Content-Length:", then detects it', () => {
    const d = makeDecoder();
    d.decoder.push(Buffer.from('Cont'));
    assert.equal(d.decoder.framing, undefined);
    d.decoder.push(Buffer.from('ent-Len'));
    assert.equal(d.decoder.framing, undefined);
    d.decoder.push(Buffer.from('gth: 7\r\n\r\n{"a":1}'));
    assert.equal(d.decoder.framing, 'content-length');
    assert.deepEqual(d.frames, ['{"a":1}']);
  });

  it('detects Content-Length fed one byte at a time after leading blank lines', () => {
    const { frames, decoder } = decode(bytewise(`\r\n${cl('{"a":1}')}`));
    assert.equal(decoder.framing, 'content-length');
    assert.deepEqual(frames, ['{"a":1}']);
  });

  it('decides on newline framing at once when the first byte is JSON', () => {
    const d = makeDecoder();
    d.decoder.push(Buffer.from('{'));
    assert.equal(d.decoder.framing, 'newline');
  });

  it('decides on newline framing as soon as a short prefix stops matching "Content-Length:"', () => {
    const d = makeDecoder();
    d.decoder.push(Buffer.from('Con'));
    assert.equal(d.decoder.framing, undefined);
    d.decoder.push(Buffer.from('x}\n'));
    assert.equal(d.decoder.framing, 'newline');
    assert.deepEqual(d.frames, ['Conx}']);
  });

  it('reads a stream that ends while still undecided as one newline-framed message', () => {
    const { frames, decoder } = decode(['Cont']);
    assert.equal(decoder.framing, 'newline');
    assert.deepEqual(frames, ['Cont']);
  });

  it('does not decide on blank chunks alone', () => {
    const d = makeDecoder();
    d.decoder.push(Buffer.from('\r\n'));
    d.decoder.push(Buffer.from('  \n'));
    assert.equal(d.decoder.framing, undefined);
    d.decoder.push(Buffer.from(cl('{}')));
    assert.equal(d.decoder.framing, 'content-length');
    assert.deepEqual(d.frames, ['{}']);
  });

  it('uses a forced framing without detecting', () => {
    const { frames, decoder } = decode(['Content-Length: 2\n{}\n'], { framing: 'newline' });
    assert.equal(decoder.framing, 'newline');
    assert.deepEqual(frames, ['Content-Length: 2', '{}']);
  });
});

describe('FrameDecoder: chunk boundaries inside UTF-8 characters', () => {
  const json = '{"jsonrpc":"2.0","method":"say","params":{"text":"é € 😀 👩‍👩‍👧 日本語"}}';
  const bytes = (framing: Framing) => Buffer.from(encodeFrame(json, framing));

  for (const framing of ['newline', 'content-length'] as const) {
    it(cites('stdio.utf8')`decodes every two-chunk split intact (${framing})`, () => {
      const all = bytes(framing);
      for (let at = 1; at < all.length; at++) {
        const { frames } = decode([all.subarray(0, at), all.subarray(at)]);
        assert.deepEqual(frames, [json], `split at byte ${at}`);
      }
    });

    it(cites('stdio.utf8')`decodes byte-by-byte chunks intact (${framing})`, () => {
      const all = bytes(framing);
      const { frames } = decode([...all].map((b) => Buffer.from([b])));
      assert.deepEqual(frames, [json]);
    });
  }
});

describe('FrameDecoder: maximum message size', () => {
  const small = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"small"}`;
  const big = (id: number, size: number) => {
    const prefix = `{"jsonrpc":"2.0","id":${id},"method":"big","params":{"data":"`;
    const suffix = '"}}';
    return prefix + 'x'.repeat(size - prefix.length - suffix.length) + suffix;
  };

  for (const framing of ['newline', 'content-length'] as const) {
    it(`skips an oversized frame, reports it, and decodes the frames after it (${framing})`, () => {
      const oversized = big(2, 1000);
      const wire = Buffer.from(
        [small(1), oversized, small(3)].map((json) => encodeFrame(json, framing)).join(''),
      );
      // Chunks of 7 bytes: the oversized frame spans many chunks, and boundaries fall everywhere.
      const chunks = cut(
        wire,
        Array.from({ length: Math.ceil(wire.length / 7) }, (_, i) => i * 7),
      );
      const { frames, oversize, errors } = decode(chunks, { maxMessageSize: 100 });
      assert.deepEqual(frames, [small(1), small(3)]);
      assert.equal(oversize.length, 1);
      assert.equal(oversize[0]!.size, 1000);
      assert.equal(oversize[0]!.limit, 100);
      assert.ok(oversize[0]!.head.startsWith('{"jsonrpc":"2.0","id":2,"method":"big"'), oversize[0]!.head);
      assert.deepEqual(errors, []);
    });

    it(`accepts a frame of exactly maxMessageSize bytes and skips one byte more (${framing})`, () => {
      const exact = big(1, 100);
      const over = big(2, 101);
      const { frames, oversize } = decode(
        [encodeFrame(exact, framing), encodeFrame(over, framing), encodeFrame(small(3), framing)],
        { maxMessageSize: 100 },
      );
      assert.deepEqual(frames, [exact, small(3)]);
      assert.deepEqual(
        oversize.map((o) => [o.size, o.limit]),
        [[101, 100]],
      );
    });

    it(`keeps only a bounded head of a huge oversized frame (${framing})`, () => {
      const json = big(9, 100_000);
      const { oversize, frames } = decode([encodeFrame(json, framing), encodeFrame(small(10), framing)], {
        maxMessageSize: 1000,
      });
      assert.equal(oversize.length, 1);
      assert.equal(oversize[0]!.size, 100_000);
      assert.ok(oversize[0]!.head.length <= 4096, `head of ${oversize[0]!.head.length} characters`);
      assert.ok(json.startsWith(oversize[0]!.head));
      assert.deepEqual(frames, [small(10)]);
    });
  }

  it('accepts a frame of exactly maxMessageSize bytes sent with \\r\\n (the \\r is not part of it)', () => {
    const exact = big(1, 100);
    const { frames, oversize } = decode([`${exact}\r\n${small(2)}\r\n`], { maxMessageSize: 100 });
    assert.deepEqual(oversize, []);
    assert.deepEqual(frames, [exact, small(2)]);
  });

  it('reports an oversized last newline-framed message without newline at end()', () => {
    const d = makeDecoder({ maxMessageSize: 100 });
    d.decoder.push(Buffer.from(`${small(1)}\n${big(2, 500)}`));
    assert.equal(d.oversize.length, 0);
    d.decoder.end();
    assert.deepEqual(
      d.oversize.map((o) => o.size),
      [500],
    );
    assert.deepEqual(d.frames, [small(1)]);
  });

  it('skips several oversized frames in a row, each reported once', () => {
    const { frames, oversize } = decode([`${big(1, 300)}\n${big(2, 400)}\n${small(3)}\n`], {
      maxMessageSize: 200,
    });
    assert.deepEqual(
      oversize.map((o) => o.size),
      [300, 400],
    );
    assert.deepEqual(frames, [small(3)]);
  });

  for (const framing of ['newline', 'content-length'] as const) {
    it(`does not hold on to the chunks of an oversized frame (bounded memory, ${framing})`, async () => {
      // The frame is 64 MiB against a 1 MiB limit, pushed as 64 separate 1 MiB buffers. After a full
      // garbage collection, a decoder that kept (views of) the skipped chunks would keep them alive.
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as () => void;
      const MiB = 1024 * 1024;
      const chunkCount = 64;
      const d = makeDecoder({ maxMessageSize: MiB });
      const prefix = '{"jsonrpc":"2.0","id":"huge","method":"upload","params":{"data":"';
      const suffix = '"}}';
      const bodyLength = prefix.length + chunkCount * MiB + suffix.length;
      d.decoder.push(
        Buffer.from(framing === 'newline' ? prefix : `Content-Length: ${bodyLength}\r\n\r\n${prefix}`),
      );
      const refs: Array<WeakRef<ArrayBuffer>> = [];
      for (let i = 0; i < chunkCount; i++) {
        const chunk = Buffer.alloc(MiB, 0x78);
        refs.push(new WeakRef(chunk.buffer as ArrayBuffer));
        d.decoder.push(chunk);
      }
      // WeakRef targets are kept until the current job ends; collect in a later one.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      const retained = refs.filter((ref) => ref.deref() !== undefined).length;
      assert.ok(retained <= 2, `${retained} of ${chunkCount} skipped 1 MiB chunks are still alive`);
      d.decoder.push(Buffer.from(framing === 'newline' ? `${suffix}\n` : suffix));
      d.decoder.push(Buffer.from(encodeFrame(small(1), framing)));
      d.decoder.end();
      assert.equal(d.oversize.length, 1);
      assert.equal(d.oversize[0]!.size, bodyLength);
      assert.ok(d.oversize[0]!.head.startsWith(prefix));
      assert.deepEqual(d.frames, [small(1)]);
    });
  }
});

describe('FrameDecoder: framing errors', () => {
  it('reports a header block without a valid Content-Length and decodes the next frame', () => {
    const { frames, errors } = decode([`${cl('{"a":1}')}Content-Length: abc\r\n\r\n${cl('{"b":2}')}`]);
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /without a valid Content-Length/);
    assert.match(errors[0]!.excerpt, /Content-Length: abc/);
  });

  it('reports a header block that has no Content-Length at all', () => {
    const { frames, errors } = decode([`${cl('{}')}Content-Type: text/plain\r\n\r\n${cl('[]')}`]);
    assert.deepEqual(frames, ['{}', '[]']);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.excerpt, /Content-Type: text\/plain/);
  });

  it('reports a negative length as invalid', () => {
    const { errors } = decode(['Content-Length: -5\r\n\r\n']);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /without a valid Content-Length/);
  });

  it('reports a header with no end within 8 KiB', () => {
    const { errors, frames } = decode([`Content-Length: 5${'x'.repeat(9000)}`]);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /no end of header/);
    assert.deepEqual(frames, []);
  });

  it('reports a stream that ends inside a body', () => {
    const { errors, frames } = decode(['Content-Length: 10\r\n\r\n{"a"']);
    assert.deepEqual(frames, []);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /ended inside a Content-Length frame/);
  });

  it('reports a stream that ends inside a header', () => {
    const { errors } = decode([`${cl('{}')}Content-Len`]);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /ended inside a Content-Length frame \(header missing\)/);
  });

  it('reports a stream that ends right after a header that announced a body (regression: empty body at end)', () => {
    const { errors, frames } = decode(['Content-Length: 10\r\n\r\n']);
    assert.deepEqual(frames, []);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /10 body bytes missing/);
  });

  it('reports a stream that ends inside an oversized body', () => {
    const { errors, oversize } = decode([`Content-Length: 500\r\n\r\n{"id":1,${'x'.repeat(100)}`], {
      maxMessageSize: 50,
    });
    assert.deepEqual(oversize, []);
    assert.equal(errors.length, 1);
  });

  it('reports nothing at the clean end of a Content-Length stream', () => {
    assert.deepEqual(decode([cl('{}'), '\r\n']).errors, []);
  });
});

// ---- properties ----

/** Strings with the characters that break naive byte handling mixed in. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc
    .array(
      fc.constantFrom('a', 'é', '€', '😀', '👩‍👩‍👧', '日本', '\u2028', '\n', '\r\n', '"', '\\', '\u0000'),
      {
        maxLength: 12,
      },
    )
    .map((parts) => parts.join('')),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    text,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const id = fc.oneof(fc.integer(), text);
const params = fc.oneof(
  fc.dictionary(text, jsonValue, { maxKeys: 5 }),
  fc.array(jsonValue, { maxLength: 5 }),
);
const jsonRpcMessage = fc.oneof(
  fc.record(
    { jsonrpc: fc.constant('2.0'), id, method: text, params },
    { requiredKeys: ['jsonrpc', 'id', 'method'] },
  ),
  fc.record({ jsonrpc: fc.constant('2.0'), method: text, params }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: jsonValue }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.option(id, { nil: null }),
    error: fc.record(
      { code: fc.integer(), message: text, data: jsonValue },
      { requiredKeys: ['code', 'message'] },
    ),
  }),
);
const batchOrMessage = fc.oneof(
  { weight: 4, arbitrary: jsonRpcMessage },
  { weight: 1, arbitrary: fc.array(jsonRpcMessage, { minLength: 1, maxLength: 3 }) },
);

type WireFraming = Framing | 'newline-crlf';

function encode(json: string, framing: WireFraming): string {
  return framing === 'newline-crlf' ? `${json}\r\n` : encodeFrame(json, framing);
}

describe('FrameDecoder: properties', () => {
  it('decodes any sequence of messages, in either framing, cut anywhere, to the same sequence', () => {
    fc.assert(
      fc.property(
        fc.array(batchOrMessage, { maxLength: 8 }),
        fc.constantFrom<WireFraming>('newline', 'newline-crlf', 'content-length'),
        fc.array(fc.nat(), { maxLength: 30 }),
        (messages, framing, offsets) => {
          const texts = messages.map((m) => JSON.stringify(m));
          const wire = Buffer.from(texts.map((t) => encode(t, framing)).join(''));
          const { frames, oversize, errors, decoder } = decode(cut(wire, offsets));
          assert.deepEqual(frames, texts);
          assert.deepEqual(
            frames.map((f) => JSON.parse(f)),
            texts.map((t) => JSON.parse(t)),
          );
          assert.deepEqual(oversize, []);
          assert.deepEqual(errors, []);
          if (texts.length > 0) {
            assert.equal(decoder.framing, framing === 'content-length' ? 'content-length' : 'newline');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('decodes the frames under the limit and reports the others, cut anywhere', () => {
    fc.assert(
      fc.property(
        fc.array(jsonRpcMessage, { minLength: 1, maxLength: 8 }),
        fc.constantFrom<Framing>('newline', 'content-length'),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 20, max: 200 }),
        (messages, framing, offsets, limit) => {
          const texts = messages.map((m) => JSON.stringify(m));
          const wire = Buffer.from(texts.map((t) => encodeFrame(t, framing)).join(''));
          const { frames, oversize } = decode(cut(wire, offsets), { maxMessageSize: limit });
          assert.deepEqual(
            frames,
            texts.filter((t) => Buffer.byteLength(t) <= limit),
          );
          assert.deepEqual(
            oversize.map((o) => o.size),
            texts.map((t) => Buffer.byteLength(t)).filter((size) => size > limit),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws out of push() or end() on random bytes in random chunks', () => {
    const noise = fc.oneof(
      fc.uint8Array({ maxLength: 400 }),
      // Bytes that start like a header block, so that the Content-Length paths see random input too.
      fc
        .tuple(
          fc.constantFrom('Content-Length: ', 'content-length:', 'Content-Length: 5\r\n\r\n', 'C', '\r\n'),
          fc.uint8Array({ maxLength: 400 }),
        )
        .map(([head, rest]) => new Uint8Array([...Buffer.from(head), ...rest])),
      fc
        .array(fc.constantFrom('{"a":1}', '\n', '\r', '\r\n\r\n', 'Content-Length: 3', '€', '😀', 'x'), {
          maxLength: 40,
        })
        .map((parts) => new Uint8Array(Buffer.from(parts.join('')))),
    );
    fc.assert(
      fc.property(
        noise,
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
        (bytes, offsets, limit) => {
          const { oversize } = decode(cut(Buffer.from(bytes), offsets), { maxMessageSize: limit });
          for (const o of oversize) assert.ok(o.size > o.limit);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('FrameDecoder: one malformed Content-Length frame does not make the rest unreadable', () => {
  // Each of these was followed by silence: no error, and every later valid frame dropped.
  const bad: Array<[string, string]> = [
    ['a negative length', 'Content-Length: -5\r\n\r\n{"x":1}'],
    ['a non-numeric length', 'Content-Length: abc\r\n\r\n{"x":1}'],
    ['an empty length', 'Content-Length: \r\n\r\n{"x":1}'],
    ['an exponent', 'Content-Length: 1e2\r\n\r\n{"x":1}'],
    ['a hex length', 'Content-Length: 0x30\r\n\r\n{"x":1}'],
    ['a plus sign', 'Content-Length: +7\r\n\r\n{"x":1}'],
    ['two lengths that disagree', 'Content-Length: 7\r\nContent-Length: 9\r\n\r\n{"x":1}'],
    ['an NDJSON message', '{"jsonrpc":"2.0","id":9,"method":"ping"}\n'],
    ['a length that no frame can have', 'Content-Length: 99999999999999\r\n\r\n{"x":1}'],
  ];
  for (const [what, frame] of bad) {
    it(`bug: ${what} silenced the stream; it is reported and the next frame is decoded`, () => {
      const { frames, errors } = decode([`${cl('{"a":1}')}${frame}${cl('{"b":2}')}`]);
      assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
      assert.ok(errors.length >= 1, 'the bad frame is reported');
    });
  }

  it('the same, with the frames cut into chunks of 3 bytes', () => {
    const text = `${cl('{"a":1}')}Content-Length: 1e2\r\n\r\n{"x":1}${cl('{"b":2}')}`;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 3) chunks.push(text.slice(i, i + 3));
    const { frames, errors } = decode(chunks);
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}']);
    assert.ok(errors.length >= 1);
  });

  it('says why a length is refused', () => {
    assert.match(
      decode(['Content-Length: 1e2\r\n\r\n']).errors[0]!.message,
      /"1e2" is not a length in bytes/,
    );
    assert.match(
      decode(['Content-Length: 99999999999999\r\n\r\n']).errors[0]!.message,
      /more than any frame can be/,
    );
    assert.match(decode(['Content-Length: 1\r\nContent-Length: 2\r\n\r\n']).errors[0]!.message, /disagree/);
  });

  it('accepts LF-only header lines from a tolerant peer', () => {
    const { frames, errors } = decode([`${cl('{"a":1}')}Content-Length: 7\n\n{"c":3}${cl('{"b":2}')}`]);
    assert.deepEqual(frames, ['{"a":1}', '{"c":3}', '{"b":2}']);
    assert.deepEqual(errors, []);
  });

  it('a body declared too short leaves junk that is reported, then the next frame is decoded', () => {
    const { frames, errors } = decode([`${cl('{"a":1}')}Content-Length: 3\r\n\r\n{"x":1}${cl('{"b":2}')}`]);
    assert.deepEqual(frames, ['{"a":1}', '{"x', '{"b":2}']);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /outside any frame/);
  });
});

describe('FrameDecoder: invalid UTF-8', () => {
  const bad = Buffer.concat([
    Buffer.from('{"jsonrpc":"2.0","id":"a'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('","method":"ping"}\n'),
  ]);

  it('bug: invalid UTF-8 was replaced with U+FFFD and processed; the frame is refused, in both framings', () => {
    for (const framing of ['newline', 'content-length'] as const) {
      const body = bad.subarray(0, bad.length - 1);
      const chunk =
        framing === 'newline'
          ? bad
          : Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
      const { frames, errors } = decode([chunk, `${framing === 'newline' ? '{"ok":1}\n' : cl('{"ok":1}')}`]);
      assert.deepEqual(frames, ['{"ok":1}'], framing);
      assert.equal(errors.length, 1, framing);
      assert.match(errors[0]!.message, /not valid UTF-8/);
    }
  });

  it('a message that carries U+FFFD itself, validly encoded, is delivered', () => {
    const { frames, errors } = decode(['{"text":"\ufffd"}\n']);
    assert.deepEqual(frames, ['{"text":"\ufffd"}']);
    assert.deepEqual(errors, []);
  });
});
