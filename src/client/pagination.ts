// Following nextCursor to the end of a list, in either era.

import { McpwireError } from '../jsonrpc/local-errors.js';

export type Page<K extends string, T> = { [key in K]: T[] } & { nextCursor?: string };

/** Every item of a paginated list; a server that hands out the same cursor twice is stopped, not followed. */
export async function collectPages<K extends string, T>(
  page: (cursor: string | undefined) => Promise<Page<K, T>>,
  key: K,
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    all.push(...(result[key] ?? []));
    cursor = result.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor)) {
        throw new McpwireError(
          'PAGINATION_LOOP',
          `the server repeated a ${key} cursor; stopping to avoid a loop`,
        );
      }
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return all;
}
