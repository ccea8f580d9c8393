import type { TermOrigin } from './types.js';

export interface QueryTerm {
  /** Index key. */
  key: string;
  /** What the debug output shows. */
  display: string;
  origin: TermOrigin;
  weight: number;
  /** Pairs [start, end) of normalised query positions the term stands for (coverage). */
  spans: number[];
}

export interface QueryPlan {
  normalized: string;
  terms: QueryTerm[];
  /** Weight of each normalised query position for coverage; 0 for separators. */
  posWeight: Float32Array;
  /** CJK runs of the query, for the contiguous-match bonus on names. */
  runs: string[];
  /** Pinyin syllables of the query's latin runs, and its runs read as initials (same bonus). */
  syllables: string[];
  initials: { text: string; start: number }[];
}

/** Collects query terms; a key produced twice keeps its highest weight and all its spans. */
export class TermCollector {
  private readonly byKey = new Map<string, QueryTerm>();

  add(key: string, display: string, origin: TermOrigin, weight: number, start: number, end: number): void {
    if (weight <= 0 || key === '') return;
    const t = this.byKey.get(key);
    if (!t) {
      this.byKey.set(key, { key, display, origin, weight, spans: [start, end] });
      return;
    }
    if (weight > t.weight) {
      t.weight = weight;
      t.origin = origin;
      t.display = display;
    }
    t.spans.push(start, end);
  }

  terms(): QueryTerm[] {
    return [...this.byKey.values()];
  }
}
