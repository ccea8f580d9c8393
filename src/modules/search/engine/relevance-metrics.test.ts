import { describe, expect, it } from 'vitest';
import { aggregate, evaluate, negativeNoMatchRate, scoreQuery, type LabelledQuery } from './relevance-metrics.js';

const q = (id: string, type: string, relevant: [string, number][]): LabelledQuery => ({
  id,
  type,
  query: id,
  region: null,
  relevant: relevant.map(([key, grade]) => ({ key, grade })),
});

describe('relevance metrics', () => {
  it('scores one query', () => {
    const s = scoreQuery({ query: q('a', 'exact', [['x', 2], ['y', 1]]), ranked: ['z', 'x', 'y'] });
    expect(s.rr10).toBe(0.5);
    expect(s.recall5).toBe(1);
    const dcg = 3 / Math.log2(3) + 1 / Math.log2(4);
    const idcg = 3 + 1 / Math.log2(3);
    expect(s.ndcg10).toBeCloseTo(dcg / idcg, 10);
  });

  it('caps recall at five relevant items', () => {
    const rel: [string, number][] = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => [k, 1]);
    expect(scoreQuery({ query: q('a', 'partial', rel), ranked: ['a', 'b', 'c', 'd', 'e'] }).recall5).toBe(1);
  });

  it('aggregates zero results, no-match rates and types', () => {
    const outcomes = [
      { query: q('1', 'exact', [['x', 2]]), ranked: ['x'] },
      { query: q('2', 'exact', [['x', 2]]), ranked: [] },
      { query: q('3', 'negative', []), ranked: [] },
      { query: q('4', 'negative', []), ranked: ['x'] },
    ];
    const m = aggregate(outcomes);
    expect(m.positives).toBe(2);
    expect(m.mrr10).toBe(0.5);
    expect(m.zeroResultRate).toBe(0.5);
    expect(m.noMatchRate).toBe(0.5);
    expect(negativeNoMatchRate(outcomes)).toBe(0.5);
    expect(Object.keys(evaluate(outcomes).byType)).toEqual(['exact', 'negative']);
  });
});
