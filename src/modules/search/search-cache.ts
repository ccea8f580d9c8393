import type { AnswerParts } from './v2-answer.js';

/**
 * Answers to recent searches, as the bytes of the answer (v2-answer.ts), keyed by query and region
 * filter. Popular questions repeat all day at a service centre; an answer is reused only while
 * the index it came from is still the live one (any data change bumps the index version).
 */
export class SearchCache {
  private readonly entries = new Map<string, { version: number; answer: AnswerParts }>();

  constructor(private readonly capacity = 2000) {}

  static key(query: string, regionIds: string[] | null): string {
    return `${regionIds === null ? '*' : [...regionIds].sort().join(',')}\u0000${query}`;
  }

  get(key: string, version: number): AnswerParts | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks the entry as most recently used.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.answer;
  }

  set(key: string, version: number, answer: AnswerParts): void {
    this.entries.delete(key);
    this.entries.set(key, { version, answer });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
