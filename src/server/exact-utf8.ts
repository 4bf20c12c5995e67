// Bytes that are mostly, but not always, UTF-8 (a file name on Linux, a percent-encoded URI) read as a
// string without losing any of them: each byte that is not part of a valid UTF-8 sequence becomes the lone
// surrogate U+DC80..U+DCFF (the "surrogateescape" convention). Valid UTF-8 never decodes to a lone
// surrogate, so the string maps back to exactly the bytes it came from, where U+FFFD would merge them.

import { isUtf8 } from '../transport/platform/builtins.js';

/** The string of `bytes`, each byte outside valid UTF-8 as U+DC80..U+DCFF. */
export function decodeUtf8Exactly(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return buffer.toString('utf8');
  let text = '';
  for (let i = 0; i < buffer.length; ) {
    const lead = buffer[i]!;
    const length =
      lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
    // isUtf8 of one sequence applies every rule (continuation bytes, overlong forms, surrogates, range).
    if (length > 0 && i + length <= buffer.length && isUtf8(buffer.subarray(i, i + length))) {
      text += buffer.toString('utf8', i, i + length);
      i += length;
    } else {
      text += String.fromCharCode(0xdc00 + lead);
      i += 1;
    }
  }
  return text;
}
