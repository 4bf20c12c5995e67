// Bytes to frames, in either stdio framing: newline-delimited JSON (what MCP specifies) or LSP-style
// `Content-Length: N\r\n\r\n` headers (what the seed calls the advanced framing). The framing is detected
// from the first bytes of the stream.
//
// Linear in the input: each chunk is scanned once for delimiters and copied at most once, when a frame
// that spans several chunks is joined. Chunk boundaries may fall anywhere, inside a UTF-8 character too,
// because frames are decoded to text only once they are complete.

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
    this.events.frame(bytes.toString('utf8', start, end));
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
        const end = chunk.indexOf('\r\n\r\n', pos, 'latin1');
        if (end === -1) {
          if (chunk.length - pos > MAX_HEADER_BYTES) {
            this.events.framingError(
              `no end of header (\\r\\n\\r\\n) within ${MAX_HEADER_BYTES} bytes`,
              chunk.toString('utf8', pos, pos + 200),
            );
            return;
          }
          this.headerCarry = Buffer.from(chunk.subarray(pos));
          return;
        }
        const header = chunk.toString('latin1', pos, end);
        pos = end + 4;
        const length = parseContentLength(header);
        if (length === undefined) {
          this.events.framingError('a header block without a valid Content-Length', header.slice(0, 200));
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

function parseContentLength(header: string): number | undefined {
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d+$/.test(value)) return undefined;
    return Number(value);
  }
  return undefined;
}
