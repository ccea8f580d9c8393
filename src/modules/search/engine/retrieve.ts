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
  acc = new Float64Array(0);
  touched = new Int32Array(0);
  values = new Float64Array(0);
}

/** Seeds: strong postings of the best lists, scored on the best lists only (a lower bound). */
const SEED_LISTS = 2;
const SEED_PROBE_LISTS = 8;
const SEEDS = 64;

/**
 * Top-k documents by summed term scores. Lists are taken term-at-a-time, strongest bound
 * first, adding into dense accumulators; as soon as the lists left cannot lift a document that
 * is not yet a candidate over the threshold, the rest is only probed for the surviving
 * candidates (galloping search), pruning candidates that can no longer make it. The threshold
 * starts from seeds (documents with the strongest postings of the most valuable terms) and rises
 * with the k-th best score and with `relative` × the best (hits under that share are cut later
 * anyway). Only documents set in `allowed` are scored: region and visibility filtering happen
 * here, not after ranking.
 */
export function retrieveTopK(lists: ScoredList[], allowed: Uint32Array, k: number, relative: number, scratch: Scratch, capacity: number): Candidate[] {
  const n = lists.length;
  if (n === 0) return [];
  lists.sort((a, b) => b.bound - a.bound);
  const rest = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) rest[i] = rest[i + 1] + lists[i].bound;
  let { threshold, best } = seedThreshold(lists, allowed, k, relative);

  scratch.acc = ensureCapacity(scratch.acc, capacity);
  scratch.touched = ensureCapacity(scratch.touched, capacity);
  const acc = scratch.acc;
  const touched = scratch.touched;
  let count = 0;
  let i = 0;
  try {
    for (; i < n; i++) {
      if (rest[i] < threshold) break;
      const { docs, impacts, weight, start, end } = lists[i];
      for (let p = start; p < end; p++) {
        const d = docs[p];
        if (((allowed[d >>> 5] >>> (d & 31)) & 1) === 0) continue;
        const before = acc[d];
        if (before === 0) touched[count++] = d;
        const s = before + weight * impacts[p];
        acc[d] = s;
        if (s > best) best = s;
      }
      threshold = Math.max(threshold, relative * best);
      // The k-th best score can only end the scan when the lists left are worth less than the best.
      if (i + 1 < n && rest[i + 1] >= threshold && rest[i + 1] < best && count >= k) {
        threshold = Math.max(threshold, kthLargest(acc, touched, count, k, scratch));
      }
    }
    let cands = survivors(touched, count, acc, threshold - rest[i]);
    for (; i < n && cands.length > 0; i++) {
      const { docs, impacts, weight, start, end } = lists[i];
      let p = start;
      for (const d of cands) {
        p = seek(docs, p, end, d);
        if (p < end && docs[p] === d) acc[d] += weight * impacts[p];
      }
      if (i + 1 < n) cands = cands.filter((d) => acc[d] + rest[i + 1] >= threshold);
    }
    const ranked = Array.from(cands.filter((d) => acc[d] >= threshold && acc[d] > 0))
      .sort((a, b) => acc[b] - acc[a] || a - b)
      .slice(0, k);
    return ranked.map((doc) => ({ doc, score: acc[doc], hits: hitsOf(lists, doc) }));
  } finally {
    for (let t = 0; t < count; t++) acc[touched[t]] = 0;
  }
}

/** Touched documents whose score is at least `min`, ascending by id (for merge-probing). */
function survivors(touched: Int32Array, count: number, acc: Float64Array, min: number): Int32Array {
  let m = 0;
  for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) m++;
  const out = new Int32Array(m);
  m = 0;
  for (let t = 0; t < count; t++) if (acc[touched[t]] >= min) out[m++] = touched[t];
  return out.sort();
}

/** The k-th largest accumulated score among the touched documents (quickselect). */
function kthLargest(acc: Float64Array, touched: Int32Array, count: number, k: number, scratch: Scratch): number {
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

function hitsOf(lists: ScoredList[], doc: number): Candidate['hits'] {
  const hits: Candidate['hits'] = [];
  for (const l of lists) {
    const at = seek(l.docs, l.start, l.end, doc);
    if (at < l.end && l.docs[at] === doc) hits.push({ term: l.term, impact: l.impacts[at] });
  }
  return hits;
}

/**
 * A starting threshold no final top-k member can be under: seeds' scores on the best lists are
 * lower bounds of their true scores, so the k-th best of them (when there are k) and `relative`
 * × the best of them are safe.
 */
function seedThreshold(lists: ScoredList[], allowed: Uint32Array, k: number, relative: number): { threshold: number; best: number } {
  const n = lists.length;
  const seeds = new Set<number>();
  for (let i = 0; i < Math.min(n, SEED_LISTS) && seeds.size < SEEDS; i++) {
    const l = lists[i];
    const strong = Math.ceil((0.9 * l.bound) / l.weight);
    for (let p = l.start; p < l.end && seeds.size < SEEDS; p++) {
      const d = l.docs[p];
      if (l.impacts[p] >= strong && ((allowed[d >>> 5] >>> (d & 31)) & 1) === 1) seeds.add(d);
    }
  }
  const scores: number[] = [];
  for (const d of seeds) {
    let s = 0;
    for (let i = 0; i < Math.min(n, SEED_PROBE_LISTS); i++) {
      const l = lists[i];
      const at = seek(l.docs, l.start, l.end, d);
      if (at < l.end && l.docs[at] === d) s += l.weight * l.impacts[at];
    }
    scores.push(s);
  }
  scores.sort((a, b) => b - a);
  const best = scores[0] ?? 0;
  return { threshold: Math.max(relative * best, scores.length >= k ? scores[k - 1] : 0), best };
}
