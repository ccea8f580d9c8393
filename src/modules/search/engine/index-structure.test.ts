import { describe, expect, it } from 'vitest';
import { corpusDocs, loadCorpus } from '../../../../bench/search/corpus.js';
import { SearchIndex } from './index.js';
import { testDoc } from './test-docs.js';

const ids = (index: SearchIndex, q: string, regionIds: string[] | null = null) => index.search(q, { regionIds }).hits.map((h) => h.doc.permitId);

/** The paths a small hand-made index never takes: dense postings, selective region filters, an index grown from empty. */
describe('index structure', () => {
  it('grows from an empty index by upserts alone', () => {
    const index = SearchIndex.build([]);
    expect(index.search('食品').hits).toEqual([]);
    index.upsert(testDoc({ permitId: 'a', name: '食品经营许可证核发' }));
    index.upsert(testDoc({ permitId: 'b', name: '药品经营许可证核发' }));
    expect(ids(index, '食品经营')[0]).toBe('a');
    expect(ids(index, 'ypjy')[0]).toBe('b');
  });

  it('updates terms stored dense (held by most documents)', () => {
    const docs = corpusDocs(loadCorpus());
    const index = SearchIndex.build(docs);
    index.upsert(testDoc({ permitId: 'new', name: '许可经营审批登记变更试点', regionId: '511602' }));
    expect(ids(index, '许可经营审批登记变更试点')[0]).toBe('new');
    index.remove('new');
    expect(ids(index, '许可经营审批登记变更试点')).not.toContain('new');
    expect(index.size).toBe(docs.length);
  });

  it('serves a selective region filter by probing the region documents', () => {
    const docs = [];
    for (let r = 0; r < 200; r++) {
      for (let i = 0; i < 10; i++) docs.push(testDoc({ permitId: `r${r}-${i}`, name: i === 3 ? '食品经营许可证核发' : `第${i}类登记审批`, regionId: `r${r}` }));
    }
    const index = SearchIndex.build(docs);
    expect(ids(index, '食品经营许可', ['r42'])).toEqual(['r42-3']);
    expect(ids(index, '登记审批', ['r7']).every((id) => id.startsWith('r7-'))).toBe(true);
    expect(ids(index, '食品经营许可', ['r1', 'r2']).sort()).toEqual(['r1-3', 'r2-3']);
  });
});
