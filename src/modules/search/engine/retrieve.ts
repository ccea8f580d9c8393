import { ensureCapacity } from './typed-arrays.js';
import { accumulate, accumulateDense, ImpactCursor, keepAbove, lastBest, probe, survivors } from './kernels.js';
import { kthLargest, survivorFloor, topK } from './select.js';
import { seedThreshold } from './seeds.js';
import type { Slice } from './postings.js';

/** One posting slice of a looked-up query key with its score multiplier and upper bound. */
export interface ScoredList extends Slice {
  /** Score of a posting = weight × impact. */
  weight: number;
  /** weight × the term's largest impact: no posting of the list scores more. */
  bound: number;
  /** Index of the looked-up key (query term × key space) the list belongs to. */
  term: number;
}

export interface Candidate {
  doc: number;
  score: number;
  /** Looked-up key index and impact of every key the document holds, ascending by key. */
  hits: { term: number; impact: number }[];
}

/** Per-index scratch memory, reused by every search (searches never overlap). */
export class Scratch {
  acc = new Float32Array(0);
  touched = new Int32Array(0);
  values = new Float64Array(0);
  histogram = new Int32Array(0);
}

/**
 * Work bounds. Scanning stops after this many postings (dense lists count their length), and
 * the lists left are probed for at most the SURVIVORS (select.ts) best candidates so far: exact for
 * queries with a clear winner, an approximation only for flat ones (common words alone), whose
 * many best hits score alike anyway (bench/RESULTS.md, "Search", has how often the top 20 equal an
 * unbounded scan's at this budget).
 */
const SCAN_BUDGET = 150_000;
/** A region filter this selective is served by probing its documents instead of scanning lists. */
const SELECTIVE = 1 / 16;
/** Lists this short are simply added up in full: pruning would cost more than it saves. */
const EXHAUSTIVE = 20_000;

/** One retrieval: the query's lists, the documents it may return, how many, and where it works. */
export interface Retrieval {
  lists: ScoredList[];
  /** A bit per document: set for those the region and visibility filters let through. */
  allowed: Uint32Array;
  allowedCount: number;
  k: number;
  /** Share of the best score under which a hit is cut anyway. */
  relative: number;
  scratch: Scratch;
  capacity: number;
  tieOrder: (a: number, b: number) => number;
}

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
export function retrieveTopK(r: Retrieval): Candidate[] {
  const { lists, allowed, allowedCount, k, relative, scratch, capacity, tieOrder } = r;
  const n = lists.length;
  if (n === 0 || allowedCount === 0) return [];
  // By weight, not by bound: the bounds of an index updated in place are looser than those of a
  // rebuilt one, and the order lists are added in must not depend on that (float sums).
  lists.sort((a, b) => b.weight - a.weight || a.term - b.term || a.base - b.base || a.start - b.start);
  // What the lists from i on can still add to a document: a document is in one slice of a term
  // at most, so a term's slices (adjacent in this order) count its bound once.
  const rest = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--)
    rest[i] = lists[i].bound + (i + 1 < n && lists[i + 1].term === lists[i].term ? rest[i + 1] - lists[i + 1].bound : rest[i + 1]);
  let postings = 0;
  for (const l of lists) postings += l.dense ? l.dense.length : l.end - l.start;
  if (allowedCount * n <= postings * SELECTIVE) return probeAllowed(r);
  if (postings <= EXHAUSTIVE) return scanAll(r);
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
      best = Math.max(best, lastBest.value);
      threshold = Math.max(threshold, relative * best);
    }
    // Candidates: the SURVIVORS best so far (a superset of the k best, so the k-th best of them
    // is a safe threshold), and of those only the ones the lists left can still lift over it.
    const floor = Math.max(threshold - rest[i], survivorFloor(acc, touched, count, best, scratch));
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
    return withHits(lists, topK(Array.from(kept), acc, k, tieOrder), acc);
  } finally {
    for (let t = 0; t < count; t++) acc[touched[t]] = 0;
  }
}

/** Adds every list up in full (short lists, a small catalogue), then keeps the k best. */
function scanAll({ lists, allowed, k, relative, scratch, capacity, tieOrder }: Retrieval): Candidate[] {
  scratch.acc = ensureCapacity(scratch.acc, capacity);
  scratch.touched = ensureCapacity(scratch.touched, capacity);
  const { acc, touched } = scratch;
  let count = 0;
  let best = 0;
  try {
    for (const l of lists) {
      count = l.dense ? accumulateDense(l, allowed, acc, touched, count) : accumulate(l, allowed, acc, touched, count);
      best = Math.max(best, lastBest.value);
    }
    const min = Math.max(relative * best, Number.MIN_VALUE);
    let kept: number[] = [];
    for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) kept.push(touched[t]);
    if (kept.length > k) {
      const kth = kthLargest(acc, Int32Array.from(kept), kept.length, k, scratch);
      kept = kept.filter((d) => acc[d] >= kth);
    }
    return withHits(lists, topK(kept, acc, k, tieOrder), acc);
  } finally {
    for (let t = 0; t < count; t++) acc[touched[t]] = 0;
  }
}

/** Scores every allowed document by probing each list (a selective region filter). */
function probeAllowed({ lists, allowed, k, relative, scratch, capacity, tieOrder }: Retrieval): Candidate[] {
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
    return withHits(lists, topK(kept, acc, k, tieOrder), acc);
  } finally {
    for (const d of docs) acc[d] = 0;
  }
}

/**
 * The candidates with the keys each holds, in ascending key order (so that what is summed from
 * them is summed in one order), found by one ascending pass per list.
 */
function withHits(lists: ScoredList[], ranked: number[], acc: Float32Array): Candidate[] {
  const out: Candidate[] = ranked.map((doc) => ({ doc, score: acc[doc], hits: [] }));
  const order = out.map((_, j) => j).sort((a, b) => out[a].doc - out[b].doc);
  for (const l of lists.slice().sort((a, b) => a.term - b.term || a.base - b.base)) {
    const cursor = new ImpactCursor(l);
    for (const j of order) {
      const impact = cursor.at(out[j].doc);
      if (impact > 0) out[j].hits.push({ term: l.term, impact });
    }
  }
  return out;
}
