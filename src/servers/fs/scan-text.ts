// One pass over a large file before it is written into an answer as it is read (issue 21): whether it is
// UTF-8, and how many bytes its text takes inside a JSON string, so that a streamed answer is the one a
// whole read gave and is refused by the same size limit, before a byte of it is sent.

import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';

/** A file at least this large is written into the answer as it is read, not read whole first. */
export const STREAM_FROM = 1024 * 1024;

/**
 * One pass over a file: whether it is valid UTF-8 (a character cut by a chunk's end is checked with the
 * next chunk) and, when asked, how many bytes its text takes inside a JSON string.
 */
export async function scanText(
  handle: FileHandle,
  size: number,
  countEscapes: boolean,
): Promise<{ utf8: boolean; escapedBytes?: number }> {
  const chunk = Buffer.allocUnsafe(Math.min(size, 1024 * 1024) + 3);
  let carried = 0;
  let escapedBytes = 0;
  for (let position = 0; position < size; ) {
    const { bytesRead } = await handle.read(
      chunk,
      carried,
      Math.min(chunk.length - carried, size - position),
      position,
    );
    if (bytesRead === 0) break;
    position += bytesRead;
    const filled = carried + bytesRead;
    const whole = position >= size ? filled : wholeCharacters(chunk, filled);
    if (!isUtf8(chunk.subarray(0, whole))) return { utf8: false };
    if (countEscapes) escapedBytes += escapedLength(chunk, whole);
    chunk.copy(chunk, 0, whole, filled);
    carried = filled - whole;
  }
  return carried === 0 ? { utf8: true, ...(countEscapes ? { escapedBytes } : {}) } : { utf8: false };
}

/** What JSON escaping adds to each byte of UTF-8 text: \" \\ \b \t \n \f \r add one, other controls five. */
const ESCAPE_EXTRA = (() => {
  const extra = new Uint8Array(256);
  for (let byte = 0; byte < 0x20; byte++) extra[byte] = 5;
  for (const byte of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) extra[byte] = 1;
  return extra;
})();

/**
 * The bytes the first `length` bytes take inside a JSON string. Escaping goes byte by byte (bytes of
 * multi-byte characters are never escaped), so a chunk's count needs no whole characters; a table loop
 * measured twice as fast as JSON.stringify of the chunk read as latin1.
 */
function escapedLength(bytes: Buffer, length: number): number {
  let extra = 0;
  for (let i = 0; i < length; i++) extra += ESCAPE_EXTRA[bytes[i]!]!;
  return length + extra;
}

/** How many of the first `length` bytes are whole UTF-8 characters (a sequence cut at the end is not). */
function wholeCharacters(bytes: Buffer, length: number): number {
  let lead = length - 1;
  while (lead >= 0 && length - lead < 4 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return length;
  const first = bytes[lead]!;
  const needs = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return length - lead >= needs ? length : lead;
}
