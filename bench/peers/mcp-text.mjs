// The resource text every MCP server of the benchmarks serves at bench://text/BYTES: ASCII (like base64
// content, so no JSON escapes), made on the first read and kept, so that a timed read measures the server
// and not the making of its data. Imported by every server alike; no imports of its own.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const texts = new Map();

export const resourceUri = (bytes) => `bench://text/${bytes}`;

/** The text of `bytes` characters; the same text every time. */
export function resourceText(bytes) {
  let text = texts.get(bytes);
  if (text === undefined) {
    text = ALPHABET.repeat(Math.ceil(bytes / ALPHABET.length)).slice(0, bytes);
    // A flat string, not a rope of repeats: serialising it is then the same work for every server.
    text = Buffer.from(text, 'latin1').toString('latin1');
    texts.set(bytes, text);
  }
  return text;
}

/** What a client checks a read against, without comparing every byte: the length and both ends. */
export function checkResourceText(text, bytes) {
  const expected = (from, to) =>
    ALPHABET.repeat(2).slice(from % ALPHABET.length, (from % ALPHABET.length) + to - from);
  const tail = Math.max(0, bytes - 64);
  if (typeof text !== 'string' || text.length !== bytes)
    return `got ${typeof text === 'string' ? `${text.length} characters` : typeof text}, expected ${bytes}`;
  if (text.slice(0, 64) !== expected(0, Math.min(64, bytes)) || text.slice(tail) !== expected(tail, bytes))
    return 'the text differs';
  return undefined;
}
