import type { SearchOutcome } from './search.service.js';

/**
 * Answers to recent searches, as the bytes of the answer (v2-answer.ts), keyed by query and region
 * filter. Popular questions repeat all day at a service centre; an answer is reused only while
 * the index it came from is still the live one (any data change bumps the index version).
 */
export class SearchCache {
  private readonly entries = new Map<string, { version: number; outcome: SearchOutcome }>();

  constructor(private readonly capacity = 2000) {}

  static key(query: string, regionIds: string[] | null): string {
    return `${regionIds === null ? '*' : [...regionIds].sort().join(',')}\u0000${query}`;
  }

  get(key: string, version: number): SearchOutcome | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks the entry as most recently used.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.outcome;
  }

  set(key: string, version: number, outcome: SearchOutcome): void {
    this.entries.delete(key);
    this.entries.set(key, { version, outcome });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
