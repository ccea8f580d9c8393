import type { ScoredList } from './retrieve.js';
import { ImpactCursor } from './kernels.js';

/** Seeds: strong postings of the best terms' lists, scored on the best terms' lists only (a lower bound). */
const SEED_TERMS = 3;
const SEED_PROBE_TERMS = 6;
const SEEDS_PER_TERM = 128;
const SEED_STRENGTH = 0.7;
/** A hair under 1, for thresholds compared with float32 sums. */
const FLOAT32_MARGIN = 1 - 1e-6;
/** Postings of a term looked through for seeds. */
const SEED_SCAN = 8192;

/**
 * A starting threshold no final top-k member can be under: seeds' scores on the best lists are
 * lower bounds of their true scores, so the k-th best of them (when there are k) and `relative`
 * × the best of them are safe.
 */
export function seedThreshold(lists: ScoredList[], allowed: Uint32Array, k: number, relative: number): { threshold: number; best: number } {
  const found: number[] = [];
  // A term's quota of seeds and of postings looked through is shared by its slices.
  let taken = 0;
  let looked = 0;
  for (let i = 0, n = listsOfFirstTerms(lists, SEED_TERMS); i < n; i++) {
    const l = lists[i];
    if (i === 0 || l.term !== lists[i - 1].term) taken = looked = 0;
    if (l.dense) continue; // a term most documents hold says little about which are best
    const strong = Math.ceil((SEED_STRENGTH * l.bound) / l.weight);
    const end = Math.min(l.end, l.start + SEED_SCAN - looked);
    looked += Math.max(0, end - l.start);
    for (let p = l.start; p < end && taken < SEEDS_PER_TERM; p++) {
      const d = l.base + l.docs[p];
      if (l.impacts[p] >= strong && ((allowed[d >>> 5] >>> (d & 31)) & 1) === 1) {
        found.push(d);
        taken++;
      }
    }
  }
  const sorted = Int32Array.from(found).sort();
  const seeds = sorted.filter((d, j) => j === 0 || sorted[j - 1] !== d);
  const scores = new Float64Array(seeds.length);
  for (let i = 0, n = listsOfFirstTerms(lists, SEED_PROBE_TERMS); i < n; i++) {
    const l = lists[i];
    const cursor = new ImpactCursor(l);
    for (let j = 0; j < seeds.length; j++) scores[j] += l.weight * cursor.at(seeds[j]);
  }
  scores.sort().reverse();
  const best = scores[0] ?? 0;
  // Seeds are scored in float64, documents accumulate in float32: a document tied with the k-th
  // seed may sum to a hair less, and must not be dropped for it (which documents tie at the
  // boundary would then depend on the order an index was built in).
  return { threshold: Math.max(relative * best, scores.length >= k ? scores[k - 1] : 0) * FLOAT32_MARGIN, best };
}

/** How many of the first lists are those of the first `terms` terms (a term's slices are adjacent). */
function listsOfFirstTerms(lists: ScoredList[], terms: number): number {
  let seen = 0;
  for (let i = 0; i < lists.length; i++) {
    if (i > 0 && lists[i].term === lists[i - 1].term) continue;
    if (seen === terms) return i;
    seen++;
  }
  return lists.length;
}
