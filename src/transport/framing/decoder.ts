// Bytes to frames, in either stdio framing: newline-delimited JSON (what MCP specifies) or LSP-style
// `Content-Length: N\r\n\r\n` headers (what the seed calls the advanced framing). The framing is detected
// from the first bytes of the stream.
//
// Linear in the input: each chunk is scanned once for delimiters and copied at most once, when a frame
// that spans several chunks is joined. Chunk boundaries may fall anywhere, inside a UTF-8 character too,
// because frames are decoded to text only once they are complete.

import { isUtf8 } from '../platform/builtins.js';

export type Framing = 'newline' | 'content-length';

export const DEFAULT_MAX_MESSAGE_SIZE = 256 * 1024 * 1024;

/** How many bytes of a skipped, oversized frame are kept to read its id from. */
const PEEK_BYTES = 4096;
/** A header block longer than this is not a header block. */
const MAX_HEADER_BYTES = 8192;
const NEWLINE = 0x0a;
const CR = 0x0d;
const CONTENT_LENGTH = 'content-length:';

export interface DecoderEvents {
  /** One complete frame, as text. */
  frame(text: string): void;
  /** A frame larger than the limit was skipped; `head` is its first bytes. */
  oversize(head: string, size: number, limit: number): void;
  /** Bytes that are not a valid Content-Length header block. */
  framingError(message: string, excerpt: string): void;
}

export interface DecoderOptions {
  maxMessageSize?: number;
  /** Force a framing instead of detecting it. */
  framing?: Framing;
}

export class FrameDecoder {
  /** The framing in use, once detected. */
  framing: Framing | undefined;
  private readonly limit: number;
  /** Bytes of the current, incomplete frame (newline mode) or body (content-length mode). */
  private parts: Buffer[] = [];
  private partsSize = 0;
  /** While skipping an oversized frame: the bytes skipped so far and the head kept for peeking. */
  private skipping: { size: number; head: string } | undefined;
  /** Content-length mode: bytes still to read of the current body, or -1 while reading a header. */
  private bodyRemaining = -1;
  private headerCarry: Buffer | undefined;

  constructor(
    private readonly events: DecoderEvents,
    options: DecoderOptions = {},
  ) {
    this.limit = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    this.framing = options.framing;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.framing === undefined) {
      chunk = this.detect(chunk);
      if (this.framing === undefined) return;
    }
    if (this.framing === 'newline') this.pushNewline(chunk);
    else this.pushContentLength(chunk);
  }

  /** End of stream: a last newline-framed message without its newline is still delivered. */
  end(): void {
    if (this.framing === undefined && this.headerCarry) {
      // Too few bytes to tell the framings apart: it can only be a short newline-framed message.
      const carry = this.headerCarry;
      this.headerCarry = undefined;
      this.framing = 'newline';
      this.pushNewline(carry);
    }
    if (this.framing === 'newline') {
      if (this.skipping) this.finishSkip();
      else if (this.partsSize > 0) this.emit(this.takeParts());
    } else if (this.framing === 'content-length') {
      // In a body, bodyRemaining counts the bytes still missing (it is never 0 there: a complete body resets it).
      const pending = this.bodyRemaining >= 0 ? this.bodyRemaining : (this.headerCarry?.length ?? 0);
      if (pending > 0 || this.skipping) {
        this.events.framingError(
          `the stream ended inside a Content-Length frame (${this.bodyRemaining >= 0 ? `${this.bodyRemaining} body bytes` : 'header'} missing)`,
          '',
        );
      }
    }
    this.parts = [];
    this.partsSize = 0;
    this.skipping = undefined;
  }

  /** Decides the framing from the first non-blank bytes; returns the chunk to go on with. */
  private detect(chunk: Buffer): Buffer {
    const data = this.headerCarry ? Buffer.concat([this.headerCarry, chunk]) : chunk;
    this.headerCarry = undefined;
    let start = 0;
    while (start < data.length && isBlank(data[start]!)) start++;
    if (start === data.length) return data.subarray(0, 0);
    const first = data[start]!;
    if (first !== 0x43 && first !== 0x63) {
      this.framing = 'newline';
      return data;
    }
    const available = Math.min(data.length - start, CONTENT_LENGTH.length);
    const head = data.toString('latin1', start, start + available).toLowerCase();
    if (!CONTENT_LENGTH.startsWith(head)) {
      this.framing = 'newline';
      return data;
    }
    if (available < CONTENT_LENGTH.length) {
      this.headerCarry = Buffer.from(data);
      return data.subarray(0, 0);
    }
    this.framing = 'content-length';
    return data;
  }

  // ---- newline-delimited JSON ----

  private pushNewline(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      if (this.skipping) {
        this.skipping.size += nl - start;
        this.finishSkip();
      } else if (this.lineOverLimit(chunk, start, nl)) {
        this.beginSkip(chunk.subarray(start, nl));
        this.finishSkip();
      } else if (this.partsSize === 0) {
        // The common case, a whole line in this chunk: decoded in place, with no Buffer view made for it.
        this.emit(chunk, start, nl);
      } else {
        this.parts.push(chunk.subarray(start, nl));
        this.partsSize += nl - start;
        this.emit(this.takeParts());
      }
      start = nl + 1;
    }
    if (start === chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.skipping) {
      this.skipping.size += rest.length;
    } else if (this.partsSize + rest.length - (rest[rest.length - 1] === CR ? 1 : 0) > this.limit) {
      // A last byte \r may be the start of the line's \r\n, which does not count towards the limit.
      this.beginSkip(rest);
    } else {
      this.parts.push(rest);
      this.partsSize += rest.length;
    }
  }

  /** Whether the line ending at `nl` is longer than the limit, not counting a \r before the newline. */
  private lineOverLimit(chunk: Buffer, start: number, nl: number): boolean {
    const length = this.partsSize + (nl - start);
    // The \r is looked for only when it could matter: most lines are far below the limit.
    return length > this.limit && length - this.trailingCr(chunk, start, nl) > this.limit;
  }

  /** 1 when the line ending at `nl` ends with \r (in this chunk or the parts before it): not message bytes. */
  private trailingCr(chunk: Buffer, start: number, nl: number): number {
    const last = nl > start ? chunk[nl - 1] : this.parts[this.parts.length - 1]?.at(-1);
    return last === CR ? 1 : 0;
  }

  /** Delivers bytes[start, end) as a frame, without a \r before the newline; blank lines are skipped. */
  private emit(bytes: Buffer, start = 0, end = bytes.length): void {
    if (end > start && bytes[end - 1] === CR) end--;
    // Blank lines between messages are allowed and ignored.
    let i = start;
    while (i < end && isBlank(bytes[i]!)) i++;
    if (i === end) return;
    const text = bytes.toString('utf8', start, end);
    // Invalid UTF-8 decodes to U+FFFD: looked for in the text (cheap), and only then are the bytes
    // checked, since a message may also carry U+FFFD itself. A message that is not UTF-8 is refused
    // rather than processed with its bad bytes replaced (an id would be echoed as another id).
    if (text.includes('\ufffd') && !isUtf8(bytes.subarray(start, end))) {
      this.events.framingError(
        'the message is not valid UTF-8 (MCP messages are UTF-8 text)',
        text.slice(0, 200),
      );
      return;
    }
    this.events.frame(text);
  }

  // ---- Content-Length ----

  private pushContentLength(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.bodyRemaining < 0) {
        if (this.headerCarry) {
          chunk = Buffer.concat([this.headerCarry, chunk.subarray(pos)]);
          pos = 0;
          this.headerCarry = undefined;
        }
        while (pos < chunk.length && isBlank(chunk[pos]!)) pos++;
        if (pos === chunk.length) return;
        // Bytes that do not start a header (a body cut short or too long, an NDJSON line, junk) are
        // reported and skipped up to the next Content-Length header: one bad frame must not make every
        // later frame unreadable.
        const headerAt = findHeader(chunk, pos);
        if (headerAt !== pos) {
          const junkEnd =
            headerAt === -1 ? Math.max(pos, chunk.length - (CONTENT_LENGTH.length - 1)) : headerAt;
          if (junkEnd > pos) {
            this.events.framingError(
              'bytes outside any frame: a Content-Length header was expected',
              chunk.toString('utf8', pos, Math.min(junkEnd, pos + 200)),
            );
          }
          if (headerAt === -1) {
            // The end may be the start of the next header, cut by the chunk boundary.
            if (junkEnd < chunk.length) this.headerCarry = Buffer.from(chunk.subarray(junkEnd));
            return;
          }
          pos = headerAt;
        }
        const found = headerEnd(chunk, pos);
        if (found === undefined) {
          if (chunk.length - pos > MAX_HEADER_BYTES) {
            this.events.framingError(
              `no end of header (\\r\\n\\r\\n) within ${MAX_HEADER_BYTES} bytes`,
              chunk.toString('utf8', pos, pos + 200),
            );
            // Go on after this header's first line: what follows may hold the next frame.
            pos = chunk.indexOf(NEWLINE, pos) === -1 ? chunk.length : chunk.indexOf(NEWLINE, pos) + 1;
            continue;
          }
          this.headerCarry = Buffer.from(chunk.subarray(pos));
          return;
        }
        const header = chunk.toString('latin1', pos, found.end);
        pos = found.next;
        const length = parseContentLength(header);
        if (typeof length === 'string') {
          this.events.framingError(
            `a header block without a valid Content-Length: ${length}`,
            header.slice(0, 200),
          );
          continue;
        }
        this.bodyRemaining = length;
        if (length > this.limit) this.skipping = { size: 0, head: '' };
        if (length === 0) this.completeBody();
        continue;
      }
      const take = Math.min(this.bodyRemaining, chunk.length - pos);
      const slice = chunk.subarray(pos, pos + take);
      pos += take;
      this.bodyRemaining -= take;
      if (this.skipping) {
        if (this.skipping.head.length < PEEK_BYTES) {
          this.skipping.head += slice.toString('utf8', 0, PEEK_BYTES - this.skipping.head.length);
        }
        this.skipping.size += take;
      } else {
        this.parts.push(slice);
        this.partsSize += take;
      }
      if (this.bodyRemaining === 0) this.completeBody();
    }
  }

  private completeBody(): void {
    this.bodyRemaining = -1;
    if (this.skipping) this.finishSkip();
    else this.emit(this.takeParts());
  }

  // ---- shared ----

  private takeParts(): Buffer {
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partsSize);
    this.parts = [];
    this.partsSize = 0;
    return bytes;
  }

  /** Drops what was gathered of the current frame, keeping only its head to read the id from. */
  private beginSkip(more: Buffer): void {
    const head = this.parts.length > 0 ? Buffer.concat([...this.parts, more.subarray(0, PEEK_BYTES)]) : more;
    this.skipping = { size: this.partsSize + more.length, head: head.toString('utf8', 0, PEEK_BYTES) };
    this.parts = [];
    this.partsSize = 0;
  }

  private finishSkip(): void {
    const { head, size } = this.skipping!;
    this.skipping = undefined;
    this.events.oversize(head, size, this.limit);
  }
}

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** A declared length above this is no frame: a stray number, not a message to skip byte by byte. */
const MAX_DECLARED_LENGTH = 2 ** 32;

/** The length a header block declares, or why it declares none that can be used. */
function parseContentLength(header: string): number | string {
  let length: number | undefined;
  for (const line of header.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    // Digits only: no sign, exponent, hex prefix or fraction (Number() would take "1e2" and "0x30").
    if (!/^\d+$/.test(value)) return `"${value}" is not a length in bytes`;
    const parsed = Number(value);
    if (parsed > MAX_DECLARED_LENGTH) return `${value} bytes is more than any frame can be`;
    if (length !== undefined && length !== parsed) return 'two Content-Length headers disagree';
    length = parsed;
  }
  return length ?? 'there is no Content-Length header';
}

/**
 * Where the next header block starts at or after `from`, or -1: at `from` when a header line ("Name:")
 * starts there (other headers may come before Content-Length), else at the next Content-Length header.
 */
function findHeader(chunk: Buffer, from: number): number {
  const head = chunk.toString('latin1', from, Math.min(chunk.length, from + 80));
  if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/.test(head)) return from;
  // A header name cut by the chunk boundary: the next chunk tells.
  if (from + head.length === chunk.length && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(head)) return from;
  const text = chunk.toString('latin1', from);
  // Resynchronised at the header itself: what came before it on its line is no header (a body cut short,
  // say), and headers other than Content-Length carry nothing mcpwire needs.
  const at = text.search(/content-length:/i);
  return at === -1 ? -1 : from + at;
}

/** The end of the header block that starts at `from` (\r\n\r\n, or \n\n from a tolerant peer). */
function headerEnd(chunk: Buffer, from: number): { end: number; next: number } | undefined {
  const crlf = chunk.indexOf('\r\n\r\n', from, 'latin1');
  const lf = chunk.indexOf('\n\n', from, 'latin1');
  if (crlf === -1 && lf === -1) return undefined;
  if (lf !== -1 && (crlf === -1 || lf < crlf)) return { end: lf, next: lf + 2 };
  return { end: crlf, next: crlf + 4 };
}
