// File names are bytes on Linux and macOS, and not always UTF-8. Read as strings, two names that differ
// in a byte that is not UTF-8 became the same name with U+FFFD, and neither could be read back. So names
// have three forms here:
//   on disk      the bytes (a Buffer is given to every fs call whose path holds such a byte);
//   in the code  a string in which each byte that is not part of valid UTF-8 is the lone surrogate
//                U+DC80..U+DCFF (valid UTF-8 never decodes to a lone surrogate, so this is exact);
//   on the wire  that string with each such byte written \xHH and a backslash written \\, which the
//                tools accept back; resource URIs percent-encode the bytes instead.
// Windows names are UTF-16 and its separator is the backslash: there every form is the plain string.

import { pathToFileURL } from 'node:url';
import { decodeUtf8Exactly } from '../../server/exact-utf8.js';

const POSIX = process.platform !== 'win32';
/** A byte that is not UTF-8, as the code holds it. */
const ESCAPED_BYTE = /[\udc80-\udcff]/u;

/** The code's form of a name read from disk. */
export function nameFromBytes(bytes: Buffer): string {
  return decodeUtf8Exactly(bytes);
}

/** The bytes of a name in the code's form. */
export function bytesOf(name: string): Buffer {
  if (!ESCAPED_BYTE.test(name)) return Buffer.from(name, 'utf8');
  const parts: Buffer[] = [];
  // for..of walks code points: a surrogate pair is one character, never taken for an escaped byte.
  for (const char of name) {
    const code = char.codePointAt(0)!;
    parts.push(code >= 0xdc80 && code <= 0xdcff ? Buffer.from([code - 0xdc00]) : Buffer.from(char, 'utf8'));
  }
  return Buffer.concat(parts);
}

/** What an fs call takes for a path in the code's form: the string, or its bytes when it must. */
export function fsPath(name: string): string | Buffer {
  return ESCAPED_BYTE.test(name) ? bytesOf(name) : name;
}

/** A name as the tools show it: bytes that are not UTF-8 as \xHH, a backslash as \\. */
export function showName(name: string): string {
  if (!POSIX) return name;
  return name.replace(/\\|[\udc80-\udcff]/gu, (c) =>
    c === '\\' ? '\\\\' : `\\x${(c.charCodeAt(0) - 0xdc00).toString(16)}`,
  );
}

/**
 * A name from a tool's arguments in the code's form: the inverse of showName. Returns an Error for a
 * string that no listing shows: a lone surrogate, or a backslash that starts no escape (a Windows
 * separator, most likely).
 */
export function readName(shown: string): string | Error {
  if (!POSIX) return shown;
  if (/[\ud800-\udfff]/u.test(shown)) return new Error('the path is not valid Unicode (a lone surrogate)');
  if (!shown.includes('\\')) return shown;
  let name = '';
  for (let i = 0; i < shown.length; i++) {
    const char = shown[i]!;
    if (char !== '\\') {
      name += char;
    } else if (shown[i + 1] === '\\') {
      name += '\\';
      i += 1;
    } else if (/^x[89a-f][0-9a-f]$/i.test(shown.slice(i + 1, i + 4))) {
      // Only bytes 0x80..0xFF: an escape never spells a separator, a dot or a NUL.
      name += String.fromCharCode(0xdc00 + Number.parseInt(shown.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      return new Error(
        `"${shown}" contains a backslash; separate directories with "/" (a backslash in a name is written \\\\, a byte that is not UTF-8 \\xHH)`,
      );
    }
  }
  // Escaped bytes that happen to form valid UTF-8 name the same file as the characters they encode.
  return nameFromBytes(bytesOf(name));
}

/** The file:// URI of a path in the code's form; bytes that are not UTF-8 are percent-encoded as bytes. */
export function fileUri(name: string): string {
  if (!ESCAPED_BYTE.test(name)) return pathToFileURL(name).href;
  let encoded = '';
  for (const byte of bytesOf(name)) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9/._~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `file://${encoded}`;
}

/**
 * The path of a file:// URI in the code's form, its percent-escapes taken as bytes (fileURLToPath
 * decodes them as UTF-8, and refuses a byte that is not). Undefined for anything else.
 */
export function pathOfFileUri(uri: string): string | undefined {
  if (!POSIX) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'file:' || (url.hostname !== '' && url.hostname !== 'localhost')) return undefined;
  // An encoded "/" would make a separator out of part of a name.
  if (/%2f/i.test(url.pathname)) return undefined;
  // The parser left only ASCII in the path: every other character is percent-encoded.
  const { pathname } = url;
  const decoded: number[] = [];
  for (let i = 0; i < pathname.length; i++) {
    const hex = pathname.slice(i + 1, i + 3);
    if (pathname[i] === '%' && /^[0-9a-f]{2}$/i.test(hex)) {
      decoded.push(Number.parseInt(hex, 16));
      i += 2;
    } else decoded.push(pathname.charCodeAt(i));
  }
  return nameFromBytes(Buffer.from(decoded));
}
