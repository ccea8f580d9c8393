import { describe, expect, it } from 'vitest';
import { SearchIndex } from './index.js';
import { testDoc } from './test-docs.js';

const docs = [
  testDoc({ permitId: 'food', name: '食品经营许可证核发', approvalDepartments: ['区市场监管局'] }, ['未取得食品经营许可从事食品经营']),
  testDoc({ permitId: 'food2', name: '食品生产许可证核发', approvalDepartments: ['区市场监管局'] }, ['未取得食品生产许可从事食品生产']),
  testDoc({ permitId: 'hidden', name: '食品经营许可证延续', visible: false }),
  testDoc({ permitId: 'netbar', name: '互联网上网服务营业场所经营许可', regionId: 'r2', regionName: '乙区' }, ['接纳未成年人进入营业场所']),
  testDoc({ permitId: 'build', name: '建筑工程施工许可证核发', approvalDepartments: ['区住建局'] }, ['未取得施工许可擅自施工，食品安全不涉及']),
];

describe('why a permit is or is not in the answer', () => {
  const index = SearchIndex.build(docs);

  it('finds the permit in the answer at its rank, with its own score and what matched', () => {
    const why = index.whyNot('食品经营许可', 'food');
    expect(why).toMatchObject({ verdict: 'found', rank: 1, reason: null });
    expect(why.score).toBe(index.search('食品经营许可').hits[0].score);
    expect(why.bestScore).toBe(why.score);
    expect(why.breakdown.name).toBeGreaterThan(0);
    expect(why.concepts.map((c) => c.concept)).toContain('食品');
  });

  it('says the permit does not exist, is hidden, or is outside the region filter, before scoring anything', () => {
    expect(index.whyNot('食品经营许可', 'nope').verdict).toBe('unknown');
    expect(index.whyNot('食品经营许可', 'hidden')).toMatchObject({ verdict: 'hidden', score: null });
    expect(index.whyNot('上网服务', 'netbar', ['r1']).verdict).toBe('region');
    expect(index.whyNot('上网服务', 'netbar', ['r2'])).toMatchObject({ verdict: 'found', rank: 1 });
  });

  it('says no word of the question is in the permit', () => {
    expect(index.whyNot('律师事务所', 'food')).toMatchObject({ verdict: 'no_terms', score: null, breakdown: {} });
  });

  it('gives the reason of a permit scored and cut, with its score below the best', () => {
    const why = index.whyNot('食品经营许可', 'netbar');
    expect(why).toMatchObject({ verdict: 'cut', reason: 'relative' });
    expect(why.score!).toBeLessThan(why.bestScore!);
    expect(why.concepts.map((c) => c.concept)).toContain('经营');
    expect(index.search('食品经营许可').hits.map((h) => h.doc.permitId)).not.toContain('netbar');
  });

  it('says when a permit scored too far below the best to be kept as a candidate', () => {
    const why = index.whyNot('食品经营许可', 'build');
    expect(why.verdict).toBe('not_retrieved');
    expect(why.score!).toBeGreaterThan(0);
    expect(why.score!).toBeLessThan(why.bestScore!);
    expect(why.breakdown.risk_title).toBeGreaterThan(0);
  });

  it('says when the whole question is answered with nothing, and why', () => {
    const why = index.whyNot('红烧肉食品做法', 'food');
    const answer = index.search('红烧肉食品做法', { debug: true });
    expect(answer.hits).toEqual([]);
    expect(why).toMatchObject({ verdict: 'no_answer', reason: answer.debug!.noMatch });
  });
});
