// A string of a message whose bytes come from a source (a file) as the message is written, instead of
// being built as one string first (issue 21: a 100 MiB resource was read, decoded, escaped by
// JSON.stringify into a second string, then encoded again). A handler puts a StreamedString where a
// string goes (a resource's `text` or `blob`); a transport that declares `splicing` writes the message's
// JSON around it and the value's escaped bytes in between, chunk by chunk; for any other transport the
// connection reads it into an ordinary string first (`materialize`), so nothing else needs to know.
//
// Text is escaped without decoding: the source's UTF-8 bytes are read as latin1 (one char per byte) and
// escaped by JSON.stringify, which escapes only quotes, backslashes and bytes below 0x20 (and lone
// surrogates, which a latin1 string has none of); written back as latin1, the bytes at and above 0x80 are
// the source's own. For valid UTF-8 this is byte for byte what JSON.stringify of the decoded text writes,
// at any chunk boundary.

/** Where a StreamedString's bytes come from: chunks in order, then null. Closed once, whatever happens. */
export interface ByteSource {
  read(): Promise<Uint8Array | null>;
  close(): void;
}

/** `text`: the bytes are UTF-8 text, written as a JSON string; `base64`: any bytes, written in base64. */
export type StreamedEncoding = 'text' | 'base64';

/** StreamedStrings made and not yet written, read or released: while none is, nothing looks for one. */
let live = 0;

/** A source that is never written or released (its message was dropped) is closed when collected. */
const unreleased = new FinalizationRegistry<ByteSource>((source) => {
  live--;
  source.close();
});

export class StreamedString {
  private source: ByteSource | undefined;

  /**
   * `byteLength` is the source's size (for a file, what stat said): the size limits are checked on it
   * before anything is written, and a text's producer has made sure its escapes fit.
   */
  constructor(
    source: ByteSource,
    readonly encoding: StreamedEncoding,
    readonly byteLength: number,
  ) {
    this.source = source;
    live++;
    unreleased.register(this, source, this);
  }

  /** The source, to be read once; a second taker gets an error. */
  take(): ByteSource {
    const source = this.source;
    if (!source) throw new Error('a streamed value is written once: this one was written or released');
    this.source = undefined;
    live--;
    unreleased.unregister(this);
    return source;
  }

  /** Closes the source unread (its message is not going to be written). */
  release(): void {
    if (this.source) this.take().close();
  }

  /** Bytes it takes in the message at least (text: its own, more with escapes; base64: exactly). */
  get encodedLength(): number {
    return this.encoding === 'base64' ? Math.ceil(this.byteLength / 3) * 4 : this.byteLength;
  }

  /** The bytes of the JSON string it stands for, without the quotes, chunk by chunk. */
  async *escapedChunks(): AsyncGenerator<Buffer> {
    const source = this.take();
    try {
      if (this.encoding === 'text') {
        for (let chunk = await source.read(); chunk; chunk = await source.read()) {
          const escaped = JSON.stringify(asBuffer(chunk).toString('latin1'));
          yield Buffer.from(escaped.slice(1, -1), 'latin1');
        }
        return;
      }
      // base64 in whole groups of 3 bytes, the rest carried to the next chunk.
      let carry = Buffer.alloc(0);
      for (let chunk = await source.read(); chunk; chunk = await source.read()) {
        const bytes = carry.length ? Buffer.concat([carry, chunk]) : asBuffer(chunk);
        const whole = bytes.length - (bytes.length % 3);
        carry = Buffer.from(bytes.subarray(whole));
        if (whole > 0) yield Buffer.from(bytes.subarray(0, whole).toString('base64'), 'latin1');
      }
      if (carry.length) yield Buffer.from(carry.toString('base64'), 'latin1');
    } finally {
      source.close();
    }
  }

  /** The whole value as an ordinary string (for a transport that cannot splice). */
  async materialize(): Promise<string> {
    const source = this.take();
    try {
      // Into one buffer of the announced size, each chunk let go once copied (a source that gives more
      // than it announced is still read whole).
      let bytes = Buffer.allocUnsafe(this.byteLength);
      let length = 0;
      for (let chunk = await source.read(); chunk; chunk = await source.read()) {
        if (length + chunk.length > bytes.length) {
          bytes = Buffer.concat(
            [bytes.subarray(0, length)],
            Math.max(bytes.length * 2, length + chunk.length),
          );
        }
        bytes.set(chunk, length);
        length += chunk.length;
      }
      const whole = bytes.subarray(0, length);
      return this.encoding === 'text' ? whole.toString('utf8') : whole.toString('base64');
    } finally {
      source.close();
    }
  }

  /**
   * What JSON.stringify writes for it: inside `serialize`, a placeholder that is split out again;
   * anywhere else (a log, a trace), a description, never the bytes.
   */
  toJSON(): string {
    if (collecting) {
      collecting.push(this);
      return `${MARK}${collecting.length - 1}`;
    }
    return `[${this.encoding === 'text' ? 'text' : 'base64'} of ${this.byteLength} bytes, streamed]`;
  }
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}

/** Whether any StreamedString is waiting to be written: the one check on paths that carry none. */
export function streamedPending(): boolean {
  return live > 0;
}

/**
 * A private-use character and a random nonce that never leaves the process: no text a peer or a handler
 * sends contains it. (Math.random, not node:crypto, which a stdio server's start-up does not load.)
 */
const MARK = `\u{E000}mcpwire-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}-`;
let collecting: StreamedString[] | undefined;

/** A message as the JSON around its streamed values: text, value, text, …, text. */
export interface SplicedJson {
  texts: string[];
  values: StreamedString[];
}

/** JSON.stringify of `payload`, split around the StreamedStrings in it (none: one text). */
export function serializeSpliced(payload: unknown): SplicedJson {
  const found: StreamedString[] = [];
  collecting = found;
  let text: string;
  try {
    text = JSON.stringify(payload);
  } finally {
    collecting = undefined;
  }
  if (found.length === 0) return { texts: [text], values: found };
  const texts: string[] = [];
  let from = 0;
  for (let i = 0; i < found.length; i++) {
    const placeholder = `${MARK}${i}"`;
    const at = text.indexOf(placeholder, from);
    // The placeholder's opening quote stays with the text before it, its closing quote with the text after.
    texts.push(text.slice(from, at));
    from = at + placeholder.length - 1;
  }
  texts.push(text.slice(from));
  return { texts, values: found };
}

/**
 * Writes a spliced message in order through `put`, each piece awaited (a transport's write that waits for
 * drain): `head` with the first text, each value's escaped bytes, each text after it, the last with `tail`.
 */
export async function writeSplicedParts(
  { texts, values }: SplicedJson,
  head: string,
  tail: string,
  put: (data: string | Uint8Array) => Promise<void>,
): Promise<void> {
  await put(head + texts[0]!);
  for (let i = 0; i < values.length; i++) {
    for await (const chunk of values[i]!.escapedChunks()) await put(chunk);
    await put(i + 1 === values.length ? texts[i + 1]! + tail : texts[i + 1]!);
  }
}

/** Calls `visit` on every StreamedString in a message (a handler's result: plain objects and arrays). */
export function forEachStreamed(
  value: unknown,
  visit: (streamed: StreamedString, set: (text: string) => void) => void,
): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item instanceof StreamedString) visit(item, (text) => (value[i] = text));
      else forEachStreamed(item, visit);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (item instanceof StreamedString) visit(item, (text) => (record[key] = text));
    else forEachStreamed(item, visit);
  }
}

/** Whether a message carries a StreamedString. */
export function hasStreamed(value: unknown): boolean {
  let found = false;
  forEachStreamed(value, () => {
    found = true;
  });
  return found;
}

/**
 * A copy of a value with every StreamedString in it as an empty string: what a schema checks of a value
 * that is not read before it is written (its type, not its text). Containers without one are shared.
 */
export function streamedAsEmpty(value: unknown): unknown {
  if (value instanceof StreamedString) return '';
  if (typeof value !== 'object' || value === null || !hasStreamed(value)) return value;
  if (Array.isArray(value)) return value.map(streamedAsEmpty);
  const copy: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) {
    copy[key] = streamedAsEmpty((value as Record<string, unknown>)[key]);
  }
  return copy;
}

/**
 * Where the StreamedStrings of `value` are, as the dotted paths schema checks name them ("files.0.text"),
 * and whether one of them is there twice, or also in `beside` (a value can be written only once). One walk
 * of each.
 */
export function streamedPlaces(value: unknown, beside?: unknown): { paths: string[]; repeated: boolean } {
  const paths: string[] = [];
  const seen = new Set<StreamedString>();
  let repeated = false;
  /** `path` is undefined beside the value: there only repeats are looked for. */
  const visit = (item: unknown, path: string | undefined): void => {
    if (item instanceof StreamedString) {
      if (path !== undefined) paths.push(path);
      if (seen.has(item)) repeated = true;
      seen.add(item);
      return;
    }
    if (typeof item !== 'object' || item === null) return;
    for (const key in item as Record<string, unknown>) {
      const inner = path === undefined ? undefined : path === '' ? key : `${path}.${key}`;
      visit((item as Record<string, unknown>)[key], inner);
    }
  };
  visit(value, '');
  visit(beside, undefined);
  return { paths, repeated };
}

/** Replaces every StreamedString in a message by its string (for a transport that cannot splice). */
export async function materializeStreamed(value: unknown): Promise<void> {
  const pending: Promise<void>[] = [];
  forEachStreamed(value, (streamed, set) => {
    pending.push(streamed.materialize().then(set));
  });
  await Promise.all(pending);
}

/** Closes the sources of every StreamedString in a message that is not going to be written. */
export function releaseStreamed(value: unknown): void {
  forEachStreamed(value, (streamed) => streamed.release());
}
