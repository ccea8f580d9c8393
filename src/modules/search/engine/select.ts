import type { Scratch } from './retrieve.js';
import { ensureCapacity } from './typed-arrays.js';

/** Picking the best documents out of the accumulators without sorting them all. */

/** At most this many candidates are carried from the scan into probing. */
export const SURVIVORS = 2000;

const BUCKETS = 1024;

/**
 * A score floor leaving about SURVIVORS touched documents above it (0 when there are fewer):
 * a histogram of the scores, one pass and no sorting. A bucket's lower edge is used, so a few
 * more may pass.
 */
export function survivorFloor(acc: Float32Array, touched: Int32Array, count: number, best: number, scratch: Scratch): number {
  if (count <= SURVIVORS || best <= 0) return 0;
  const hist = (scratch.histogram = scratch.histogram.length === BUCKETS ? scratch.histogram.fill(0) : new Int32Array(BUCKETS));
  const scale = (BUCKETS - 1) / best;
  for (let t = 0; t < count; t++) hist[Math.min(BUCKETS - 1, Math.floor(acc[touched[t]] * scale))]++;
  let above = 0;
  for (let b = BUCKETS - 1; b >= 0; b--) {
    above += hist[b];
    if (above >= SURVIVORS) return b / scale;
  }
  return 0;
}

/** The k-th largest accumulated score among the touched documents (quickselect). */
export function kthLargest(acc: Float32Array, touched: Int32Array, count: number, k: number, scratch: Scratch): number {
  const v = (scratch.values = ensureCapacity(scratch.values, count));
  for (let t = 0; t < count; t++) v[t] = acc[touched[t]];
  let lo = 0;
  let hi = count - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = v[(lo + hi) >>> 1];
    let a = lo;
    let b = hi;
    while (a <= b) {
      while (v[a] > pivot) a++;
      while (v[b] < pivot) b--;
      if (a <= b) {
        const x = v[a];
        v[a++] = v[b];
        v[b--] = x;
      }
    }
    if (want <= b) hi = b;
    else if (want >= a) lo = a;
    else break;
  }
  return v[want];
}

/**
 * The first k of documents sorted by score, and any after them that tie with the k-th: which of
 * tied documents are kept must not depend on their internal ids (an index's history), so the
 * ranking stage sees them all and orders them by a stable key.
 */
export function topWithTies(sorted: number[], acc: Float32Array, k: number): number[] {
  if (sorted.length <= k) return sorted;
  let end = k;
  const kth = acc[sorted[k - 1]];
  while (end < sorted.length && end < k * MAX_TIE_SPREAD && acc[sorted[end]] === kth) end++;
  return sorted.slice(0, end);
}

/** Most candidates ties may add, as a multiple of the k asked for. */
const MAX_TIE_SPREAD = 50;

/** Documents by descending score, then ascending id (stable across runs). */
export function byScore(docs: number[], acc: Float32Array): number[] {
  const keyed = docs.map((d) => ({ d, s: acc[d] }));
  keyed.sort(compareScored);
  return keyed.map((x) => x.d);
}

function compareScored(a: { d: number; s: number }, b: { d: number; s: number }): number {
  return b.s - a.s || a.d - b.d;
}
