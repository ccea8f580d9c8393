import { describe, expect, it } from 'vitest';
import { corpusDocs, loadCorpus, loadQueries } from '../../../../bench/search/corpus.js';
import { halves, runQueries } from '../../../../bench/search/relevance-run.js';
import { SearchIndex } from './index.js';
import { summarise } from './relevance-metrics.js';

/** The relevance bar on the labelled dev queries (deterministic, so a floor test is stable). */
describe('relevance on the dev queries', () => {
  const corpus = loadCorpus();
  const index = SearchIndex.build(corpusDocs(corpus));
  const outcomes = runQueries(corpus, loadQueries(), (q, regionIds) => index.search(q, { regionIds }).hits.map((h) => h.doc.permitId));

  it('meets the targets overall', () => {
    const { overall: m, negatives } = summarise(outcomes);
    expect(m.mrr10).toBeGreaterThanOrEqual(0.85);
    expect(m.recall5).toBeGreaterThanOrEqual(0.85);
    expect(m.ndcg10).toBeGreaterThanOrEqual(0.85);
    expect(m.zeroRate).toBeLessThanOrEqual(0.02);
    expect(negatives.noMatchRate).toBeGreaterThanOrEqual(0.9);
  });

  it('holds on both halves of the set (by id parity)', () => {
    for (const half of Object.values(halves(outcomes))) {
      const m = summarise(half).overall;
      expect(m.mrr10).toBeGreaterThanOrEqual(0.85);
      expect(m.ndcg10).toBeGreaterThanOrEqual(0.83);
    }
  });

  it('never returns more than 20 hits or a hidden permit', () => {
    const hidden = new Set(corpus.permits.filter((p) => !p.visible).map((p) => p.key));
    for (const o of outcomes) {
      expect(o.ranked.length).toBeLessThanOrEqual(20);
      for (const key of o.ranked) expect(hidden.has(key)).toBe(false);
    }
  });
});
