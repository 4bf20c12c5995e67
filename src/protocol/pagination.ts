// Opaque cursors for list methods. A cursor carries the list it was issued for and the lister's own
// position; a cursor from another list, or a forged one, is refused with -32602.

import { invalidParams } from './errors.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** One page of an in-memory list; the cursor's position is an offset. */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number, list: string): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const position = decodeCursor(cursor, list);
    if (
      typeof position !== 'number' ||
      !Number.isInteger(position) ||
      position < 0 ||
      position > items.length
    ) {
      throw invalidParams(`Invalid cursor: it does not point into the ${list} list`);
    }
    start = position;
  }
  const end = Math.min(items.length, start + pageSize);
  const page: Page<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = encodeCursor(end, list);
  return page;
}

export function encodeCursor(position: unknown, list: string): string {
  return Buffer.from(JSON.stringify({ l: list, p: position })).toString('base64url');
}

/** The position a cursor carries; throws -32602 for anything this server did not issue for `list`. */
export function decodeCursor(cursor: unknown, list: string): unknown {
  if (typeof cursor !== 'string') throw invalidParams('Invalid cursor: it must be a string');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { l?: unknown }).l !== list) {
    throw invalidParams(`Invalid cursor: pass the nextCursor of a previous ${list} response, unchanged`);
  }
  return (parsed as { p?: unknown }).p;
}
