import { BLOCK_SIZE } from './postings.js';
import type { ScoredList } from './retrieve.js';
import { seek as seekImported } from './typed-arrays.js';

// Local binding for the hot loops (imported bindings are slower to read in optimised code).
const seek = seekImported;

/**
 * The inner loops of retrieval over posting lists and accumulators, each small and separate so
 * that the engine optimises it on its own. Scores live in a Float32Array indexed by document.
 */

/** What the last accumulate call saw as its best accumulated score. */
export const lastBest = { value: 0 };

/**
 * Adds one list into the accumulators (allowed documents only), recording first touches.
 * Returns the new touched count; the list's best accumulated score goes to `lastBest`.
 */
export function accumulate(l: ScoredList, allowed: Uint32Array, acc: Float32Array, touched: Int32Array, count: number): number {
  const { docs, impacts, weight, start, end, base } = l;
  let best = 0;
  for (let p = start; p < end; p++) {
    const d = base + docs[p];
    if (((allowed[d >>> 5] >>> (d & 31)) & 1) === 0) continue;
    const before = acc[d];
    if (before === 0) touched[count++] = d;
    const s = before + weight * impacts[p];
    acc[d] = s;
    if (s > best) best = s;
  }
  lastBest.value = best;
  return count;
}

export function accumulateDense(l: ScoredList, allowed: Uint32Array, acc: Float32Array, touched: Int32Array, count: number): number {
  const dense = l.dense!;
  const weight = l.weight;
  let best = 0;
  for (let d = 0; d < dense.length; d++) {
    const impact = dense[d];
    if (impact === 0 || ((allowed[d >>> 5] >>> (d & 31)) & 1) === 0) continue;
    const before = acc[d];
    if (before === 0) touched[count++] = d;
    const s = before + weight * impact;
    acc[d] = s;
    if (s > best) best = s;
  }
  lastBest.value = best;
  return count;
}

/** Adds the list's postings of the first `live` (ascending) candidates: galloping through sparse lists. */
export function probe(l: ScoredList, cands: Int32Array, live: number, acc: Float32Array): void {
  const { docs, impacts, weight, end, dense, base } = l;
  if (dense) {
    const size = dense.length;
    for (let j = 0; j < live; j++) {
      const d = cands[j];
      if (d < size) acc[d] += weight * dense[d];
    }
    return;
  }
  // Only the candidates in the list's block of ids: from the first at or above its base.
  let lo = 0;
  let hi = base > 0 ? live : 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cands[mid] < base) lo = mid + 1;
    else hi = mid;
  }
  let p = l.start;
  for (let j = lo; j < live; j++) {
    const d = cands[j];
    const offset = d - base;
    if (offset >= BLOCK_SIZE) break;
    p = seek(docs, p, end, offset);
    if (p < end && docs[p] === offset) acc[d] += weight * impacts[p];
  }
}

/** The impacts a list gives documents asked in ascending order, galloping from where the previous one was. */
export class ImpactCursor {
  private p: number;

  constructor(private readonly l: ScoredList) {
    this.p = l.start;
  }

  /** The list's impact for document d (0 when it lacks it). */
  at(d: number): number {
    const { dense, docs, base, end } = this.l;
    if (dense) return d < dense.length ? dense[d] : 0;
    const offset = d - base;
    if (offset < 0 || offset >= BLOCK_SIZE) return 0;
    const p = (this.p = seek(docs, this.p, end, offset));
    return p < end && docs[p] === offset ? this.l.impacts[p] : 0;
  }
}

/** Compacts the first `live` candidates to those scoring at least `min`, in order; returns their count. */
export function keepAbove(cands: Int32Array, live: number, acc: Float32Array, min: number): number {
  let m = 0;
  for (let j = 0; j < live; j++) if (acc[cands[j]] >= min) cands[m++] = cands[j];
  return m;
}

/** Touched documents whose score is at least `min`, ascending by id (for merge-probing). */
export function survivors(touched: Int32Array, count: number, acc: Float32Array, min: number): Int32Array {
  let m = 0;
  for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) m++;
  const out = new Int32Array(m);
  m = 0;
  for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) out[m++] = touched[t];
  return out.sort();
}
