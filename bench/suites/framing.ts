// Decoding: bytes arriving in 64 KiB chunks, as a pipe delivers them, to parsed JSON-RPC messages.
// Three readers side by side: mcpwire's FrameDecoder (plus JSON.parse of each frame), the official SDK's
// ReadBuffer, and a minimal hand-written reader that is the lower bound (keep a list of chunks, scan only
// new bytes for '\n', concatenate once per message, JSON.parse).

import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { FrameDecoder } from '../../src/transport/framing/decoder.js';
import { formatBytes, formatMs, KiB, MiB } from '../lib/format.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median, type Subject, timeInterleaved } from '../lib/timing.js';

const CHUNK_BYTES = 64 * KiB;

interface Decoded {
  count: number;
  last: unknown;
}

type Reader = (chunks: readonly Buffer[]) => Decoded;

function mcpwireReader(chunks: readonly Buffer[]): Decoded {
  const out: Decoded = { count: 0, last: undefined };
  const decoder = new FrameDecoder({
    frame: (text) => {
      out.last = JSON.parse(text);
      out.count++;
    },
    oversize: (_head, size) => {
      throw new Error(`unexpected oversize frame of ${size} bytes`);
    },
    framingError: (message) => {
      throw new Error(`unexpected framing error: ${message}`);
    },
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return out;
}

/** The SDK's reader, with its buffer limit (10 MiB by default) raised above the largest message. */
function sdkReader(maxBufferSize: number): Reader {
  return (chunks) => {
    const out: Decoded = { count: 0, last: undefined };
    const buffer = new ReadBuffer({ maxBufferSize });
    for (const chunk of chunks) {
      buffer.append(chunk);
      for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) {
        out.last = message;
        out.count++;
      }
    }
    return out;
  };
}

/** The lower bound: a list of chunks, each new byte scanned once for '\n', one concat per message. */
function lowerBoundReader(chunks: readonly Buffer[]): Decoded {
  const out: Decoded = { count: 0, last: undefined };
  let parts: Buffer[] = [];
  let size = 0;
  for (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      let text: string;
      if (size === 0) text = chunk.toString('utf8', start, nl);
      else {
        parts.push(chunk.subarray(start, nl));
        text = Buffer.concat(parts, size + nl - start).toString('utf8');
        parts = [];
        size = 0;
      }
      out.last = JSON.parse(text);
      out.count++;
      start = nl + 1;
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
    }
  }
  return out;
}

// ---- workload ----

/**
 * ASCII text with JSON escapes (quotes, newlines), as tool output often is; already escaped for a JSON
 * string. ASCII, because one non-ASCII character makes V8 hold the whole text as a two-byte string, and
 * then decoding and parsing, which every reader does alike, hide the differences between the readers.
 */
const PATTERN =
  'Lorem ipsum dolor sit amet, \\"consectetur\\" adipiscing elit, sed do eiusmod tempor incididunt\\n';
const PATTERN_BYTES = Buffer.byteLength(PATTERN);
/** The decoded text of PATTERN, to check what a reader parsed. */
const PATTERN_CHARS = (JSON.parse(`"${PATTERN}"`) as string).length;

function messageHead(id: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"`;
}
const MESSAGE_TAIL = '"}}}\n';

/** A tools/call request of exactly `bytes` bytes including its newline, and the length of its text. */
function message(id: number, bytes: number): { json: string; textChars: number } {
  const bodyBytes = bytes - Buffer.byteLength(messageHead(id)) - MESSAGE_TAIL.length;
  const repeats = Math.floor(bodyBytes / PATTERN_BYTES);
  const padding = bodyBytes - repeats * PATTERN_BYTES;
  return {
    json: messageHead(id) + PATTERN.repeat(repeats) + 'x'.repeat(padding) + MESSAGE_TAIL,
    textChars: repeats * PATTERN_CHARS + padding,
  };
}

/** `count` messages of `bytes` bytes, cut into 64 KiB chunks that are separate buffers, as reads are. */
function chunkedStream(count: number, bytes: number): { chunks: Buffer[]; total: number; lastChars: number } {
  const texts: string[] = [];
  let lastChars = 0;
  for (let id = 1; id <= count; id++) {
    const m = message(id, bytes);
    texts.push(m.json);
    lastChars = m.textChars;
  }
  const stream = Buffer.from(texts.join(''));
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < stream.length; offset += CHUNK_BYTES) {
    chunks.push(Buffer.from(stream.subarray(offset, offset + CHUNK_BYTES)));
  }
  return { chunks, total: stream.length, lastChars };
}

interface FramingCase {
  name: string;
  messageBytes: number;
  count: number;
  warmup: number;
  runs: number;
  /** Why the SDK's reader is not run at this size, if it is not. */
  sdkSkip?: string;
}

export const framing: Suite = {
  name: 'framing',
  description: 'newline-delimited JSON-RPC decoding, 64 KiB chunks, three readers',
  async run(context) {
    const q = context.quick;
    const cases: FramingCase[] = [
      {
        name: '1 KiB messages',
        messageBytes: KiB,
        count: q ? 4096 : 16384,
        warmup: 5,
        runs: q ? 5 : 9,
      },
      { name: '10 MiB message', messageBytes: 10 * MiB, count: 1, warmup: q ? 1 : 2, runs: q ? 3 : 7 },
      {
        name: '100 MiB message',
        messageBytes: 100 * MiB,
        count: 1,
        warmup: q ? 0 : 1,
        runs: q ? 1 : 3,
        sdkSkip: 'quadratic: not run',
      },
    ];
    const sdkName = 'sdk ReadBuffer';
    const rows: Row[] = [];
    const notes: string[] = [];
    let sdkMsAt10MiB: number | undefined;
    for (const c of cases) {
      const { chunks, total, lastChars } = chunkedStream(c.count, c.messageBytes);
      const caseName = c.count === 1 ? c.name : `${c.name} x ${c.count} (${formatBytes(total)})`;
      context.progress(`framing: ${caseName}, ${chunks.length} chunks`);
      const check = (decoded: Decoded) => {
        const text = (decoded.last as { params?: { arguments?: { text?: string } } }).params?.arguments?.text;
        if (decoded.count !== c.count || text?.length !== lastChars) {
          throw new Error(`${caseName}: decoded ${decoded.count} messages, last text ${text?.length} chars`);
        }
      };
      const subjects: Subject<Decoded>[] = [
        { name: 'mcpwire', run: () => mcpwireReader(chunks), check },
        { name: 'hand-written', run: () => lowerBoundReader(chunks), check },
      ];
      if (!c.sdkSkip)
        subjects.splice(1, 0, { name: sdkName, run: () => sdkReader(2 * total)(chunks), check });
      const samples = await timeInterleaved(subjects, c, (subject, run, ms) =>
        context.progress(`  ${subject} run ${run + 1}/${c.runs}: ${formatMs(ms)}`),
      );
      const lowerBoundMs = median(samples.get('hand-written')!);
      for (const subject of ['mcpwire', sdkName, 'hand-written']) {
        const runs = samples.get(subject);
        if (!runs) {
          const estimate =
            sdkMsAt10MiB === undefined
              ? ''
              : `; ~${formatMs(sdkMsAt10MiB * (c.messageBytes / (10 * MiB)) ** 2)} extrapolated from 10 MiB`;
          rows.push({ case: caseName, subject, note: `${c.sdkSkip}${estimate}` });
          continue;
        }
        const medianMs = median(runs);
        if (subject === sdkName && c.messageBytes === 10 * MiB) sdkMsAt10MiB = medianMs;
        const ratio = medianMs / lowerBoundMs;
        rows.push({
          case: caseName,
          subject,
          medianMs,
          samplesMs: runs,
          throughput: total / MiB / (medianMs / 1000),
          unit: 'MiB/s',
          ratios: { lowerBound: ratio },
          target: subject === 'mcpwire' ? { text: '<= 1.20x', met: ratio <= 1.2 } : undefined,
          note:
            c.count > 1
              ? `${Math.round((c.count / medianMs) * 1000).toLocaleString('en-US')} msg/s`
              : undefined,
        });
      }
    }
    notes.push(
      "time ÷ lower bound: median decode time over the hand-written reader's (1.00x = as fast as the lower bound).",
      'Each reader gets the same separate 64 KiB buffers and parses every message with JSON.parse; the time runs from the first chunk to the last parsed message. Messages are tools/call requests whose text is ASCII with JSON escapes.',
      "The SDK's ReadBuffer also validates every message with zod (JSONRPCMessageSchema), which is part of what it costs; its 10 MiB default buffer limit was raised to twice the stream size so that it accepts these messages.",
      `The SDK's ReadBuffer is skipped at 100 MiB: it Buffer.concat()s everything buffered with each new chunk, so a message of n chunks copies about n²/2 chunks (100 MiB in 64 KiB chunks: ~80 GB copied); its time grows with the square of the size${sdkMsAt10MiB === undefined ? '' : ` and the estimate is its 10 MiB time x 100`}.`,
    );
    const section: Section = {
      title: 'Decoding newline-delimited JSON-RPC from 64 KiB chunks',
      ratioColumns: [{ key: 'lowerBound', header: 'time ÷ lower bound' }],
      rows,
      notes,
    };
    return [section];
  },
};
