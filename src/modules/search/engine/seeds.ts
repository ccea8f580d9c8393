import type { ScoredList } from './retrieve.js';
import { seek as seekImported } from './typed-arrays.js';

const seek = seekImported;

/** Seeds: strong postings of the best lists, scored on the best lists only (a lower bound). */
const SEED_LISTS = 3;
const SEED_PROBE_LISTS = 6;
const SEEDS_PER_LIST = 128;
const SEED_STRENGTH = 0.7;
/** A hair under 1, for thresholds compared with float32 sums. */
const FLOAT32_MARGIN = 1 - 1e-6;
/** Postings of a list looked through for seeds. */
const SEED_SCAN = 8192;

/**
 * A starting threshold no final top-k member can be under: seeds' scores on the best lists are
 * lower bounds of their true scores, so the k-th best of them (when there are k) and `relative`
 * × the best of them are safe.
 */
export function seedThreshold(lists: ScoredList[], allowed: Uint32Array, k: number, relative: number): { threshold: number; best: number } {
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
  // Seeds are scored in float64, documents accumulate in float32: a document tied with the k-th
  // seed may sum to a hair less, and must not be dropped for it (which documents tie at the
  // boundary would then depend on the order an index was built in).
  return { threshold: Math.max(relative * best, scores.length >= k ? scores[k - 1] : 0) * FLOAT32_MARGIN, best };
}
