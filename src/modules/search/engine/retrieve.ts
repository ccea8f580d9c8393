import { ensureCapacity, seek as seekImported } from './typed-arrays.js';
import type { Slice } from './postings.js';

// Local binding for the hot loops (imported bindings are slower to read in optimised code).
const seek = seekImported;

/** One posting slice of a query term with its score multiplier and upper bound. */
export interface ScoredList extends Slice {
  /** Score of a posting = weight × impact. */
  weight: number;
  /** weight × the term's largest impact: no posting of the list scores more. */
  bound: number;
  /** Index of the query term the list belongs to. */
  term: number;
}

export interface Candidate {
  doc: number;
  score: number;
  /** Query term index and impact of every term the document holds. */
  hits: { term: number; impact: number }[];
}

/** Per-index scratch memory, reused by every search (searches never overlap). */
export class Scratch {
  acc = new Float32Array(0);
  touched = new Int32Array(0);
  values = new Float64Array(0);
}

/**
 * Work bounds. Scanning stops after this many postings (dense lists count their length), and
 * the lists left are probed for at most the SURVIVORS best candidates so far: exact for
 * queries with a clear winner, an approximation only for flat ones (common words alone), whose
 * many best hits score alike anyway.
 */
const SCAN_BUDGET = 200_000;
const SURVIVORS = 2000;
/** A region filter this selective is served by probing its documents instead of scanning lists. */
const SELECTIVE = 1 / 16;

/** Seeds: strong postings of the best lists, scored on the best lists only (a lower bound). */
const SEED_LISTS = 3;
const SEED_PROBE_LISTS = 6;
const SEEDS_PER_LIST = 128;
const SEED_STRENGTH = 0.7;
/** Postings of a list looked through for seeds. */
const SEED_SCAN = 8192;

/**
 * Top-k documents by summed term scores. Lists are taken term-at-a-time, strongest bound
 * first, adding into dense accumulators; as soon as the lists left cannot lift a document that
 * is not yet a candidate over the threshold, the rest is only probed for the surviving
 * candidates, pruning those that can no longer make it. The threshold starts from seeds
 * (documents with the strongest postings of the most valuable terms) and rises with the k-th
 * best score and with `relative` × the best (hits under that share are cut later anyway).
 * Only documents set in `allowed` are scored: region and visibility filtering happen here,
 * not after ranking.
 */
export function retrieveTopK(lists: ScoredList[], allowed: Uint32Array, allowedCount: number, k: number, relative: number, scratch: Scratch, capacity: number): Candidate[] {
  const n = lists.length;
  if (n === 0 || allowedCount === 0) return [];
  lists.sort((a, b) => b.bound - a.bound);
  const rest = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) rest[i] = rest[i + 1] + lists[i].bound;
  let postings = 0;
  for (const l of lists) postings += l.dense ? l.dense.length : l.end - l.start;
  if (allowedCount * n <= postings * SELECTIVE) return probeAllowed(lists, allowed, k, relative, scratch, capacity);
  let { threshold, best } = seedThreshold(lists, allowed, k, relative);

  scratch.acc = ensureCapacity(scratch.acc, capacity);
  scratch.touched = ensureCapacity(scratch.touched, capacity);
  const acc = scratch.acc;
  const touched = scratch.touched;
  let count = 0;
  let i = 0;
  let scanned = 0;
  try {
    for (; i < n; i++) {
      if (rest[i] < threshold) break;
      const l = lists[i];
      const size = l.dense ? l.dense.length : l.end - l.start;
      if (i > 0 && scanned + size > SCAN_BUDGET) break;
      scanned += size;
      count = l.dense ? accumulateDense(l, allowed, acc, touched, count) : accumulate(l, allowed, acc, touched, count);
      best = Math.max(best, bestOfLastList);
      threshold = Math.max(threshold, relative * best);
    }
    // Candidates: the SURVIVORS best so far (a superset of the k best, so the k-th best of them
    // is a safe threshold), and of those only the ones the lists left can still lift over it.
    let floor = threshold - rest[i];
    if (countAbove(touched, count, acc, floor) > SURVIVORS) floor = Math.max(floor, kthLargest(acc, touched, count, SURVIVORS, scratch));
    const cands = survivors(touched, count, acc, floor);
    if (cands.length >= k) threshold = Math.max(threshold, kthLargest(acc, cands, cands.length, k, scratch));
    let live = keepAbove(cands, cands.length, acc, threshold - rest[i]);
    for (; i < n && live > 0; i++) {
      probe(lists[i], cands, live, acc);
      live = keepAbove(cands, live, acc, threshold - rest[i + 1]);
    }
    let kept = cands.subarray(0, keepAbove(cands, live, acc, Math.max(threshold, Number.MIN_VALUE)));
    if (kept.length > k) {
      const kth = kthLargest(acc, kept, kept.length, k, scratch);
      kept = kept.filter((d) => acc[d] >= kth);
    }
    const ranked = byScore(Array.from(kept), acc).slice(0, k);
    return withHits(lists, ranked, acc);
  } finally {
    for (let t = 0; t < count; t++) acc[touched[t]] = 0;
  }
}

/** Scores every allowed document by probing each list (a selective region filter). */
function probeAllowed(lists: ScoredList[], allowed: Uint32Array, k: number, relative: number, scratch: Scratch, capacity: number): Candidate[] {
  scratch.acc = ensureCapacity(scratch.acc, capacity);
  const acc = scratch.acc;
  const docs: number[] = [];
  for (let w = 0; w < allowed.length; w++) {
    for (let bits = allowed[w]; bits !== 0; bits &= bits - 1) docs.push(w * 32 + (31 - Math.clz32(bits & -bits)));
  }
  const cands = Int32Array.from(docs);
  try {
    for (const l of lists) probe(l, cands, cands.length, acc);
    let best = 0;
    for (const d of cands) best = Math.max(best, acc[d]);
    const kept = Array.from(cands.subarray(0, keepAbove(cands, cands.length, acc, Math.max(relative * best, Number.MIN_VALUE))));
    const ranked = byScore(kept, acc).slice(0, k);
    return withHits(lists, ranked, acc);
  } finally {
    for (const d of docs) acc[d] = 0;
  }
}

let bestOfLastList = 0;

/** Documents by descending score, then ascending id (stable across runs). */
function byScore(docs: number[], acc: Float32Array): number[] {
  const keyed = docs.map((d) => ({ d, s: acc[d] }));
  keyed.sort(compareScored);
  return keyed.map((x) => x.d);
}

function compareScored(a: { d: number; s: number }, b: { d: number; s: number }): number {
  return b.s - a.s || a.d - b.d;
}

/**
 * Adds one list into the accumulators (allowed documents only), recording first touches.
 * Returns the new touched count; the list's best accumulated score goes to `bestOfLastList`.
 * Small and separate so that the engine optimises each loop on its own.
 */
function accumulate(l: ScoredList, allowed: Uint32Array, acc: Float32Array, touched: Int32Array, count: number): number {
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
  bestOfLastList = best;
  return count;
}

function accumulateDense(l: ScoredList, allowed: Uint32Array, acc: Float32Array, touched: Int32Array, count: number): number {
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
  bestOfLastList = best;
  return count;
}

/** Adds the list's postings of the first `live` (ascending) candidates: galloping through sparse lists. */
function probe(l: ScoredList, cands: Int32Array, live: number, acc: Float32Array): void {
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
function keepAbove(cands: Int32Array, live: number, acc: Float32Array, min: number): number {
  let m = 0;
  for (let j = 0; j < live; j++) if (acc[cands[j]] >= min) cands[m++] = cands[j];
  return m;
}

function countAbove(touched: Int32Array, count: number, acc: Float32Array, min: number): number {
  let m = 0;
  for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) m++;
  return m;
}

/** Touched documents whose score is at least `min`, ascending by id (for merge-probing). */
function survivors(touched: Int32Array, count: number, acc: Float32Array, min: number): Int32Array {
  let m = 0;
  for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) m++;
  const out = new Int32Array(m);
  m = 0;
  for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) out[m++] = touched[t];
  return out.sort();
}

/** The k-th largest accumulated score among the touched documents (quickselect). */
function kthLargest(acc: Float32Array, touched: Int32Array, count: number, k: number, scratch: Scratch): number {
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

/** The candidates with the terms each holds, found by one ascending pass per list. */
function withHits(lists: ScoredList[], ranked: number[], acc: Float32Array): Candidate[] {
  const out: Candidate[] = ranked.map((doc) => ({ doc, score: acc[doc], hits: [] }));
  const order = out.map((_, j) => j).sort((a, b) => out[a].doc - out[b].doc);
  for (const l of lists) {
    let p = l.start;
    for (const j of order) {
      const c = out[j];
      if (l.dense) {
        if (c.doc < l.dense.length && l.dense[c.doc] > 0) c.hits.push({ term: l.term, impact: l.dense[c.doc] });
        continue;
      }
      p = seek(l.docs, p, l.end, c.doc);
      if (p < l.end && l.docs[p] === c.doc) c.hits.push({ term: l.term, impact: l.impacts[p] });
    }
  }
  return out;
}

/**
 * A starting threshold no final top-k member can be under: seeds' scores on the best lists are
 * lower bounds of their true scores, so the k-th best of them (when there are k) and `relative`
 * × the best of them are safe.
 */
function seedThreshold(lists: ScoredList[], allowed: Uint32Array, k: number, relative: number): { threshold: number; best: number } {
  const n = lists.length;
  const found: number[] = [];
  for (let i = 0; i < Math.min(n, SEED_LISTS); i++) {
    const l = lists[i];
    if (l.dense) continue; // a term most documents hold says little about which are best
    const strong = Math.ceil((SEED_STRENGTH * l.bound) / l.weight);
    let taken = 0;
    const end = Math.min(l.end, l.start + SEED_SCAN);
    for (let p = l.start; p < end && taken < SEEDS_PER_LIST; p++) {
      const d = l.docs[p];
      if (l.impacts[p] >= strong && ((allowed[d >>> 5] >>> (d & 31)) & 1) === 1) {
        found.push(d);
        taken++;
      }
    }
  }
  const sorted = Int32Array.from(found).sort();
  const seeds = sorted.filter((d, j) => j === 0 || sorted[j - 1] !== d);
  const scores = new Float64Array(seeds.length);
  for (let i = 0; i < Math.min(n, SEED_PROBE_LISTS); i++) {
    const l = lists[i];
    let p = l.start;
    for (let j = 0; j < seeds.length; j++) {
      const d = seeds[j];
      if (l.dense) {
        if (d < l.dense.length) scores[j] += l.weight * l.dense[d];
        continue;
      }
      p = seek(l.docs, p, l.end, d);
      if (p < l.end && l.docs[p] === d) scores[j] += l.weight * l.impacts[p];
    }
  }
  scores.sort().reverse();
  const best = scores[0] ?? 0;
  return { threshold: Math.max(relative * best, scores.length >= k ? scores[k - 1] : 0), best };
}
