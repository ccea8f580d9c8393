import { FIELD_B, FIELD_COUNT, FIELD_NAMES, FIELD_WEIGHT } from './ranking-params.js';
import type { DocAnalyzer } from './doc-analyzer.js';
import type { Ranked } from './rank.js';
import type { SearchDoc } from './types.js';

/**
 * Debug breakdown of one hit's score by field: each matched term's BM25F score is shared among
 * the fields in proportion to what each field put into the term's weighted frequency; the
 * name-match bonus is its own entry.
 */
export function fieldBreakdown(doc: SearchDoc, ranked: Ranked, analyzer: DocAnalyzer, avgLength: (f: number) => number): Record<string, number> {
  const wanted = new Map<number, Float64Array>();
  for (const m of ranked.matched) wanted.set(m.rt.id, new Float64Array(FIELD_COUNT));
  analyzer.analyze(doc);
  const { pairs, pairCount, lengths } = analyzer;
  for (let i = 0; i < pairCount; i++) {
    const tf = wanted.get(pairs[i] >> 3);
    if (tf) tf[pairs[i] & 7]++;
  }
  const out: Record<string, number> = {};
  for (const m of ranked.matched) {
    const tf = wanted.get(m.rt.id)!;
    const parts = tf.map((n, f) => (n * FIELD_WEIGHT[f]) / (1 - FIELD_B[f] + (FIELD_B[f] * lengths[f]) / avgLength(f)));
    const sum = parts.reduce((a, b) => a + b, 0);
    if (sum <= 0) continue;
    const score = m.rt.scoreWeight * m.impact;
    parts.forEach((p, f) => {
      if (p > 0) out[FIELD_NAMES[f]] = (out[FIELD_NAMES[f]] ?? 0) + (score * p) / sum;
    });
  }
  if (ranked.score > ranked.bm25) out.name_phrase = ranked.score - ranked.bm25;
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] * 10000) / 10000;
  return out;
}
