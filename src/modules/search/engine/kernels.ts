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
  const { docs, impacts, weight, start, end } = l;
  let best = 0;
  for (let p = start; p < end; p++) {
    const d = docs[p];
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
  const { docs, impacts, weight, end, dense } = l;
  if (dense) {
    const size = dense.length;
    for (let j = 0; j < live; j++) {
      const d = cands[j];
      if (d < size) acc[d] += weight * dense[d];
    }
    return;
  }
  let p = l.start;
  for (let j = 0; j < live; j++) {
    const d = cands[j];
    p = seek(docs, p, end, d);
    if (p < end && docs[p] === d) acc[d] += weight * impacts[p];
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
