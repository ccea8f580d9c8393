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

  it('meets the targets on the queries tuned on', () => {
    for (const name of ['dev tuning half', 'own tuning set']) {
      const { overall, negatives } = figures(name);
      expect(overall.mrr10, name).toBeGreaterThanOrEqual(0.93);
      expect(overall.recall5, name).toBeGreaterThanOrEqual(0.9);
      expect(overall.ndcg10, name).toBeGreaterThanOrEqual(0.89);
      expect(overall.zeroRate, name).toBeLessThanOrEqual(0.04);
      expect(negatives.noMatchRate, name).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('holds on the checking queries, never tuned on', () => {
    const devCheck = figures('dev checking half');
    expect(devCheck.overall.mrr10).toBeGreaterThanOrEqual(0.95);
    expect(devCheck.overall.recall5).toBeGreaterThanOrEqual(0.92);
    expect(devCheck.overall.ndcg10).toBeGreaterThanOrEqual(0.9);
    expect(devCheck.negatives.noMatchRate).toBe(1);
    const own = figures('own frozen checking set');
    expect(own.overall.mrr10).toBeGreaterThanOrEqual(0.98);
    expect(own.overall.recall5).toBeGreaterThanOrEqual(0.97);
    expect(own.overall.ndcg10).toBeGreaterThanOrEqual(0.95);
    expect(own.overall.zeroRate).toBeLessThanOrEqual(0.01);
    expect(own.negatives.noMatchRate).toBeGreaterThanOrEqual(0.9);
    const second = figures('second frozen checking set');
    expect(second.overall.mrr10).toBeGreaterThanOrEqual(0.93);
    expect(second.overall.recall5).toBeGreaterThanOrEqual(0.91);
    expect(second.overall.ndcg10).toBeGreaterThanOrEqual(0.87);
    expect(second.overall.zeroRate).toBeLessThanOrEqual(0.025);
    expect(second.negatives.noMatchRate).toBeGreaterThanOrEqual(0.85);
  });

  it('never returns more than 20 hits or a hidden permit', () => {
    const hidden = new Set(corpus.permits.filter((p) => !p.visible).map((p) => p.key));
    for (const o of sets.flatMap((s) => s.outcomes)) {
      expect(o.ranked.length).toBeLessThanOrEqual(20);
      for (const key of o.ranked) expect(hidden.has(key)).toBe(false);
    }
  });
});
