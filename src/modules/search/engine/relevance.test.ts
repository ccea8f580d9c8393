import { describe, expect, it } from 'vitest';
import { corpusDocs, loadCorpus } from '../../../../bench/search/corpus.js';
import { runEvalSets } from '../../../../bench/search/eval-sets.js';
import { SearchIndex } from './index.js';
import { summarise } from './relevance-metrics.js';

/**
 * The relevance bar on the labelled queries (deterministic, so floors are stable). The sets tuned
 * on must meet the targets; the checking sets, never tuned on, must not fall below what they
 * measured when the ranking was last changed (bench/search/README.md), so that a change that
 * helps what it was tuned on and hurts the rest shows here.
 */
describe('relevance on the labelled queries', () => {
  const corpus = loadCorpus();
  const index = SearchIndex.build(corpusDocs(corpus));
  const sets = runEvalSets(corpus, (q, regionIds) => index.search(q, { regionIds }).hits.map((h) => h.doc.permitId));
  const figures = (name: string) => {
    const set = sets.find((s) => s.name.startsWith(name));
    if (!set) throw new Error(`no query set ${name}`);
    return summarise(set.outcomes);
  };

  /** Floors of one set: the least MRR@10, Recall@5, nDCG@10 and negatives' no_match rate, the most zero-result rate. */
  interface Floors {
    mrr10: number;
    recall5: number;
    ndcg10: number;
    zeroRate?: number;
    noMatch: number;
  }
  const holds = (name: string, f: Floors) => {
    const { overall, negatives } = figures(name);
    expect(overall.mrr10, name).toBeGreaterThanOrEqual(f.mrr10);
    expect(overall.recall5, name).toBeGreaterThanOrEqual(f.recall5);
    expect(overall.ndcg10, name).toBeGreaterThanOrEqual(f.ndcg10);
    if (f.zeroRate !== undefined) expect(overall.zeroRate, name).toBeLessThanOrEqual(f.zeroRate);
    expect(negatives.noMatchRate, name).toBeGreaterThanOrEqual(f.noMatch);
  };

  it('meets the targets on the queries tuned on', () => {
    for (const name of ['dev tuning half', 'own tuning set']) holds(name, { mrr10: 0.93, recall5: 0.9, ndcg10: 0.89, zeroRate: 0.04, noMatch: 0.9 });
  });

  it('holds on the checking queries, never tuned on', () => {
    holds('dev checking half', { mrr10: 0.95, recall5: 0.92, ndcg10: 0.9, noMatch: 1 });
    holds('own frozen checking set', { mrr10: 0.98, recall5: 0.97, ndcg10: 0.95, zeroRate: 0.01, noMatch: 0.9 });
    holds('second frozen checking set', { mrr10: 0.93, recall5: 0.91, ndcg10: 0.87, zeroRate: 0.025, noMatch: 0.85 });
  });

  it('never returns more than 20 hits or a hidden permit', () => {
    const hidden = new Set(corpus.permits.filter((p) => !p.visible).map((p) => p.key));
    for (const o of sets.flatMap((s) => s.outcomes)) {
      expect(o.ranked.length).toBeLessThanOrEqual(20);
      for (const key of o.ranked) expect(hidden.has(key)).toBe(false);
    }
  });
});
