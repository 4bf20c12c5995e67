// Integer ids beyond 2^53 echoed exactly. JSON.parse turns 9007199254740993 into the double ...992, so a
// peer that numbers its requests that high got answers to ids it never sent. Such an id is kept as the
// digits it was written with, in a string with a mark no JSON text produces by accident, so that it stays
// a `string | number` everywhere above (a Map key, compared by value); and the mark is turned back into
// the bare digits when the message is written. Both sides cost nothing until such an id is seen: the
// check on input is one typeof per message, and output is only searched once a mark was made.

/** The start of a kept id: a NUL and a tag, which no id a peer chose is expected to begin with. */
const MARK = '\u0000exact-id:';
/** The mark as JSON.stringify writes it inside the quotes. */
const WRITTEN_MARK = JSON.stringify(MARK).slice(1, -1);
const WRITTEN = new RegExp(`"${WRITTEN_MARK.replaceAll('\\', '\\\\')}(-?\\d+)"`, 'g');

export class ExactIds {
  /** Whether any id was kept: until then, output is written as it is. */
  private kept = false;

  /** The parsed message (or batch), with every top-level integer id too large for a double kept exact. */
  read(value: unknown, text: string): unknown {
    if (Array.isArray(value)) {
      if (!value.some(hasUnsafeId)) return value;
      // The ids of a batch, in order: each item's own top-level "id".
      const ids = topLevelIds(text, true);
      return value.map((item, i) => (hasUnsafeId(item) && ids[i] ? this.keep(item, ids[i]) : item));
    }
    if (!hasUnsafeId(value)) return value;
    const [digits] = topLevelIds(text, false);
    return digits ? this.keep(value as Record<string, unknown>, digits) : value;
  }

  /** The JSON text of an outgoing message, kept ids written back as the digits they came as. */
  write(text: string): string {
    if (!this.kept || !text.includes(WRITTEN_MARK)) return text;
    return text.replace(WRITTEN, '$1');
  }

  private keep(message: Record<string, unknown>, digits: string): Record<string, unknown> {
    this.kept = true;
    return { ...message, id: `${MARK}${digits}` };
  }
}

/**
 * The one instance the HTTP endpoint and its transports share: a body is read by the endpoint and its
 * answer written by a session or stateless transport, so they meet here (what it keeps is only a flag).
 */
export const httpExactIds = new ExactIds();

function hasUnsafeId(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id);
}

/**
 * The text of the integer "id" of each top-level object (of the value, or of each item of a batch),
 * found by following strings and brackets, so that an "id" inside params is never taken for it. An
 * object whose id is not an integer literal gives undefined.
 */
function topLevelIds(text: string, batch: boolean): Array<string | undefined> {
  const ids: Array<string | undefined> = [];
  const objectDepth = batch ? 2 : 1;
  let depth = 0;
  let current: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      if (depth === objectDepth) {
        // A key at the top of the object: is it "id", and is its value an integer?
        let j = end + 1;
        while (/\s/.test(text[j] ?? '')) j++;
        if (text[j] === ':' && text.slice(i, end + 1) === '"id"') {
          j++;
          while (/\s/.test(text[j] ?? '')) j++;
          const number = /^-?\d+(?![.eE\d])/.exec(text.slice(j, j + 40))?.[0];
          current = number;
        }
      }
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === objectDepth && c === '{') current = undefined;
    } else if (c === '}' || c === ']') {
      if (depth === objectDepth && c === '}') ids.push(current);
      depth--;
    }
  }
  return ids;
}

/** The index of the quote that ends the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}
