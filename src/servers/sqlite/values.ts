// SQLite values as JSON can carry them. SQLite has five storage classes; JSON has no 64-bit integers and no
// bytes, so integers outside JavaScript's safe range become decimal strings (exact, not rounded) and blobs
// become {"base64": ...}. The same conversion runs in the query process, before rows cross to the server.

export type Cell = string | number | null | { base64: string };

/** The JSON Schema of one cell, for outputSchemas. */
export const CELL_SCHEMA = {
  anyOf: [
    { type: ['string', 'number', 'null'] },
    {
      type: 'object',
      properties: { base64: { type: 'string' } },
      required: ['base64'],
      additionalProperties: false,
    },
  ],
  description:
    'A value: text, a number, null, or a blob as {"base64": ...}. Integers beyond 2^53 are strings.',
};

export function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    const safe = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER);
    return safe ? Number(value) : value.toString();
  }
  // SQLite can hold an infinite REAL (9e999); JSON cannot.
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return { base64: Buffer.from(value).toString('base64') };
  return String(value);
}

/** How a cell reads in a text table. */
export function cellText(cell: Cell): string {
  if (cell === null) return 'NULL';
  if (typeof cell === 'object') return `<blob, ${Buffer.from(cell.base64, 'base64').length} bytes>`;
  return String(cell);
}

/** A bound parameter as better-sqlite3 takes it: it has no booleans, so they become 1 and 0. */
export function toParameter(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** Column names as object keys: SELECT a.id, b.id has two "id" columns, and neither may be lost. */
export function uniqueKeys(columns: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}:${count}`;
  });
}
