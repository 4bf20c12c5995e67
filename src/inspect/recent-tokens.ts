// A set that keeps only its most recently added members: what the wire monitor remembers of answered
// requests' progress tokens, so that a long-lived trace does not grow without bound.

/**
 * How many answered requests' progress tokens each side remembers. Progress sent after the response
 * comes soon after it in practice; remembering every token ever answered made a long-lived trace grow
 * without bound.
 */
export const FINISHED_TOKENS_KEPT = 1024;

/** A set that keeps only its `limit` most recently added members, forgetting the oldest first. */
export class RecentTokens {
  // A Set iterates in insertion order, so its first member is the oldest.
  private readonly members = new Set<unknown>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.members.size;
  }

  has(token: unknown): boolean {
    return this.members.has(token);
  }

  add(token: unknown): void {
    this.members.delete(token);
    this.members.add(token);
    if (this.members.size > this.limit) this.members.delete(this.members.values().next().value);
  }

  delete(token: unknown): void {
    this.members.delete(token);
  }
}
