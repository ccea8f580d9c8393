import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusDocs, loadCorpus, loadQueries } from '../../../../bench/search/corpus.js';
import { runQueries } from '../../../../bench/search/relevance-run.js';
import { SearchIndex } from './index.js';
import { scoreQuery, summarise, type LabelledQuery } from './relevance-metrics.js';

const q = (id: string, type: string, relevant: [string, number][]): LabelledQuery => ({
  id,
  type,
  query: id,
  region: null,
  relevant: relevant.map(([key, grade]) => ({ key, grade })),
});

describe('relevance metrics', () => {
  it('scores one query: MRR on any relevant item, nDCG on the grades', () => {
    const s = scoreQuery(
      q('a', 'exact', [
        ['x', 2],
        ['y', 1],
      ]),
      ['z', 'y', 'x'],
    );
    if (s.negative) throw new Error('positive expected');
    expect(s.rr).toBe(0.5);
    expect(s.ndcg).toBeCloseTo((1 / Math.log2(3) + 3 / Math.log2(4)) / (3 + 1 / Math.log2(3)), 10);
  });

  it('counts Recall@5 on the grade-2 items when a query has any, over at most five', () => {
    const s = scoreQuery(
      q('a', 'exact', [
        ['x', 2],
        ['y', 1],
      ]),
      ['y', 'z'],
    );
    expect(s.negative === false && s.recall5).toBe(0);
    const many = q(
      'b',
      'partial',
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => [k, 1]),
    );
    const all = scoreQuery(many, ['a', 'b', 'c', 'd', 'e']);
    expect(all.negative === false && all.recall5).toBe(1);
  });

  it('treats every query without relevant items as a no-answer query, whatever its type', () => {
    const s = summarise([
      { query: q('1', 'exact', [['x', 2]]), ranked: ['x'] },
      { query: q('2', 'exact', [['x', 2]]), ranked: [] },
      { query: q('3', 'negative', []), ranked: [] },
      { query: q('4', 'region', []), ranked: ['x'] },
    ]);
    expect(s.overall).toMatchObject({ n: 2, mrr10: 0.5, zeroRate: 0.5 });
    expect(s.negatives).toEqual({ n: 2, noMatchRate: 0.5 });
    expect(Object.keys(s.byType)).toEqual(['exact']);
  });

  // The definition the project is judged by, when the checkout sits next to it.
  const reference = fileURLToPath(new URL('../../../../../shared/eval/metrics.mjs', import.meta.url));
  it.runIf(existsSync(reference))('computes exactly the reference figures on the dev queries', async () => {
    const ref = (await import(reference)) as {
      scoreQuery(q: LabelledQuery, ranked: string[]): unknown;
      summarise(rows: { q: LabelledQuery; s: unknown }[]): unknown;
    };
    const corpus = loadCorpus();
    const index = SearchIndex.build(corpusDocs(corpus));
    const outcomes = runQueries(corpus, loadQueries(), (text, regionIds) => index.search(text, { regionIds }).hits.map((h) => h.doc.permitId));
    for (const o of outcomes) expect(scoreQuery(o.query, o.ranked)).toEqual(ref.scoreQuery(o.query, o.ranked));
    expect(summarise(outcomes)).toEqual(ref.summarise(outcomes.map((o) => ({ q: o.query, s: ref.scoreQuery(o.query, o.ranked) }))));
  });
});
