import { describe, expect, it } from 'vitest';
import { corpusDocs, loadCorpus } from '../../../../bench/search/corpus.js';
import { SearchIndex } from './index.js';
import { BLOCK_SIZE } from './postings.js';
import { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
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

  it('spans several blocks of document ids: every path finds the documents on both sides of a block edge, after updates and a snapshot too', async () => {
    // Names from a few words, so that their terms are neither rare nor held by most documents;
    // one name only on the documents just before and after the edge and near the end.
    const words = ['登记', '审批', '备案', '核准', '变更', '注销', '年检'];
    const count = BLOCK_SIZE + 4_000;
    const marked = [BLOCK_SIZE - 1, BLOCK_SIZE, count - 1];
    const docs = Array.from({ length: count }, (_, i) =>
      testDoc({ permitId: `d${i}`, name: marked.includes(i) ? '食品经营许可证核发' : `${words[i % 7]}${words[(i >> 3) % 7]}事项`, regionId: `r${i % 100}` }),
    );
    const index = SearchIndex.build(docs.slice(0, count - 2_000));
    for (const doc of docs.slice(count - 2_000)) index.upsert(doc);
    index.upsert(testDoc({ permitId: 'd0', name: '食品经营许可证核发', regionId: 'r0' }));

    const check = (i: SearchIndex) => {
      expect(ids(i, '食品经营许可').sort()).toEqual(['d0', ...marked.map((n) => `d${n}`)].sort());
      expect(ids(i, '食品经营许可', ['r36'])).toEqual([`d${BLOCK_SIZE}`]);
      expect(ids(i, '食品经营许可', ['r35', 'r99']).sort()).toEqual([`d${BLOCK_SIZE - 1}`, `d${count - 1}`].sort());
      // A common word: its best documents hold it twice, and each of them is one that does.
      const hits = i.search('登记登记事项', { limit: 20 }).hits.map((h) => Number(h.doc.permitId.slice(1)));
      expect(hits).toHaveLength(20);
      for (const n of hits) expect(docs[n].name).toBe('登记登记事项');
    };
    check(index);
    const w = new SnapshotWriter();
    await index.save(w);
    check(SearchIndex.load(SnapshotReader.of(Buffer.concat(await w.finish()))));
  });
});
