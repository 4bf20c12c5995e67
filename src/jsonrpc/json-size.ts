// How many bytes a string takes inside the JSON of a message, counted without building that JSON: what a
// server needs to know before it builds an answer that might not fit in one message.

/** The UTF-8 bytes of `text` inside a JSON string, escaped once, or twice (JSON inside a JSON string). */
export function escapedBytes(text: string, times: 1 | 2): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) bytes += times === 1 ? 2 : 4;
    else if (code < 0x20) {
      const short = code === 8 || code === 9 || code === 10 || code === 12 || code === 13;
      bytes += short ? (times === 1 ? 2 : 3) : times === 1 ? 6 : 7;
    } else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLow(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) bytes += times === 1 ? 6 : 7;
    else bytes += 3;
  }
  return bytes;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
