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
 * The k best documents by score. Which of documents tied at the k-th score are kept follows the
 * stable order given (region, then permit code: never the internal id, which depends on the order
 * documents were indexed in); only that tied group is sorted by it, as the stable order costs
 * string comparisons and a large catalogue holds the same permit in many regions.
 */
export function topK(docs: number[], acc: Float32Array, k: number, tieOrder: (a: number, b: number) => number): number[] {
  const sorted = docs.slice().sort((a, b) => acc[b] - acc[a] || a - b);
  if (sorted.length <= k) return sorted;
  const kth = acc[sorted[k - 1]];
  if (acc[sorted[k]] !== kth) return sorted.slice(0, k);
  let from = k - 1;
  while (from > 0 && acc[sorted[from - 1]] === kth) from--;
  let to = k;
  while (to < sorted.length && acc[sorted[to]] === kth) to++;
  const tied = sorted.slice(from, to).sort(tieOrder);
  return [...sorted.slice(0, from), ...tied.slice(0, k - from)];
}
