// With McpClientOptions.cacheLists: each list as fetched, shared by every caller until the server says
// it changed, and then fetched again so that onListChanged can be handed the fresh items.

import type { ListName } from './call-options.js';

export class ListCache {
  private readonly lists = new Map<ListName, Promise<unknown[]>>();

  constructor(
    private readonly enabled: boolean,
    private readonly onListChanged: ((list: ListName, items?: unknown[]) => void) | undefined,
  ) {}

  /** The one fetch of a list that every caller shares (or a fresh fetch each time, when not caching). */
  get<T>(name: ListName, fetch: () => Promise<T[]>): Promise<T[]> {
    if (!this.enabled) return fetch();
    let cached = this.lists.get(name) as Promise<T[]> | undefined;
    if (!cached) {
      const fetching = fetch();
      cached = fetching;
      this.lists.set(name, fetching);
      // A failed fetch is not kept: the next call tries again.
      fetching.catch(() => {
        if (this.lists.get(name) === fetching) this.lists.delete(name);
      });
    }
    return cached;
  }

  /** The server said a list changed: drop it, fetch it again if it was cached, tell the user. */
  changed(name: ListName, refetch: () => Promise<unknown[]>): void {
    if (!this.lists.delete(name)) {
      this.onListChanged?.(name);
      return;
    }
    refetch().then(
      (items) => this.onListChanged?.(name, items),
      () => this.onListChanged?.(name),
    );
  }
}
