import { describe, expect, it } from 'vitest';
import { AdminLexicon, NO_RULES, type LexiconRules } from './admin-lexicon.js';
import { SearchIndex } from './index.js';
import { testDoc } from './test-docs.js';

const docs = [
  testDoc({ permitId: 'food', code: 'F-1', name: '食品经营许可证核发' }, ['未取得食品经营许可从事食品经营']),
  testDoc({ permitId: 'food-b', code: 'F-1', name: '食品经营许可证核发', regionId: 'r2', regionName: '乙区' }, ['未取得食品经营许可从事食品经营']),
  testDoc({ permitId: 'netbar', code: 'N-1', name: '互联网上网服务营业场所经营许可' }, ['接纳未成年人进入营业场所']),
  testDoc({ permitId: 'build', code: 'B-1', name: '建筑工程施工许可证核发' }, ['未取得施工许可擅自施工']),
  testDoc({ permitId: 'shut', code: 'S-1', name: '烟草专卖零售许可证', visible: false }),
];

const rules = (over: Partial<LexiconRules>) => new AdminLexicon({ ...NO_RULES, ...over });
const ids = (index: SearchIndex, q: string, regionIds: string[] | null = null) => index.search(q, { regionIds }).hits.map((h) => h.doc.permitId);

describe('the administrators lexicon in the engine', () => {
  it('an alias by code makes a permit found by a word it never held, in place and undone in place', () => {
    const index = SearchIndex.build(docs);
    expect(ids(index, '咕噜铺子')).toEqual([]);
    index.setLexicon(rules({ aliases: [{ phrases: ['咕噜铺子'], code: 'F-1', pattern: null, regionId: 'r1' }] }));
    expect(ids(index, '开个咕噜铺子要什么证')).toEqual(['food']);
    // The same code in another region is not that region's alias.
    expect(ids(index, '咕噜铺子', ['r2'])).toEqual([]);
    index.setLexicon(AdminLexicon.EMPTY);
    expect(ids(index, '咕噜铺子')).toEqual([]);
    expect(index.size).toBe(5);
  });

  it('an alias by name pattern reaches every region, and an index built with it answers as one changed in place', () => {
    const lexicon = rules({ aliases: [{ phrases: ['嘀嗒嘀嗒'], code: null, pattern: '食品&经营', regionId: null }] });
    const built = SearchIndex.build(docs, lexicon);
    const changed = SearchIndex.build(docs);
    expect(ids(changed, '嘀嗒嘀嗒')).toEqual([]);
    changed.setLexicon(lexicon);
    expect(ids(built, '嘀嗒嘀嗒').sort()).toEqual(['food', 'food-b']);
    expect(built.search('嘀嗒嘀嗒').hits.map((h) => h.score)).toEqual(changed.search('嘀嗒嘀嗒').hits.map((h) => h.score));
  });

  it('a two-way group works both ways; a one-way expansion only from its source', () => {
    const index = SearchIndex.build(docs);
    expect(ids(index, '噗噗')).toEqual([]);
    index.setLexicon(rules({ synonyms: [{ words: ['噗噗', '上网服务'], replace: false, regionId: null }] }));
    expect(ids(index, '噗噗')).toEqual(['netbar']);
    index.setLexicon(rules({ expansions: [{ from: '嗡嗡楼', to: ['建筑工程施工'], regionId: null }] }));
    expect(ids(index, '嗡嗡楼')).toEqual(['build']);
    expect(ids(index, '建筑工程施工')).toEqual(['build']);
    expect(ids(index, '噗噗')).toEqual([]);
  });

  it("a region's synonyms apply only to questions filtered to that region", () => {
    expect(ids(SearchIndex.build(docs), '哐哐馆')).toEqual([]);
    const index = SearchIndex.build(docs, rules({ expansions: [{ from: '哐哐馆', to: ['食品经营'], regionId: 'r2' }] }));
    expect(ids(index, '哐哐馆', ['r2'])).toEqual(['food-b']);
    expect(ids(index, '哐哐馆', ['r1'])).toEqual([]);
  });

  it("a region's aliases leave questions filtered to other regions as they were", () => {
    const plain = SearchIndex.build(docs);
    const aliased = SearchIndex.build(docs, rules({ aliases: [{ phrases: ['食品经营'], code: 'N-1', pattern: null, regionId: 'r1' }] }));
    // The words the question is read as (the alias would join 食品 and 经营 into one), and the answer.
    const read = (index: SearchIndex) => {
      const r = index.search('食品经营许可证快到期了', { regionIds: ['r2'], debug: true });
      return { words: r.debug!.concepts.map((c) => c.text), hits: r.hits.map((h) => h.doc.permitId) };
    };
    expect(read(aliased)).toEqual(read(plain));
    expect(read(plain).words).toContain('食品');
  });

  it('hidden permits leave before ranking: the answer is the one the catalogue without them gives', () => {
    const hides = (permitIds: string[]) => rules({ curations: [{ match: 'contains', phrase: '许可', pins: [], hides: permitIds, regionId: null }] });
    const without = SearchIndex.build(docs.filter((d) => d.permitId !== 'food' && d.permitId !== 'food-b'));
    const curated = SearchIndex.build(docs, hides(['food', 'food-b']));
    // Removed after ranking, they would take with them the hits cut as far below them.
    const q = '食品经营许可证';
    const ids = (index: SearchIndex) => index.search(q).hits.map((h) => h.doc.permitId);
    expect(ids(without).length).toBeGreaterThan(0);
    expect(ids(curated)).toEqual(ids(without));
  });

  it('pins come first in their order, hides leave, pins answer a question that had none, and the region filter still holds', () => {
    const curation = (match: 'exact' | 'contains', phrase: string, pins: string[], hides: string[], regionId: string | null = null) => ({
      match,
      phrase,
      pins,
      hides,
      regionId,
    });
    const index = SearchIndex.build(
      docs,
      rules({ curations: [curation('exact', '办证', ['build', 'netbar'], []), curation('contains', '食品经营', [], ['food'])] }),
    );
    expect(ids(index, '办证')).toEqual(['build', 'netbar']);
    // Pins count against the answer's limit (at most 20, docs/search.md) like any hit.
    expect(index.search('办证', { limit: 1 }).hits.map((h) => h.doc.permitId)).toEqual(['build']);
    expect(ids(index, ' 办证 ')).toEqual(['build', 'netbar']);
    expect(ids(index, '我要食品经营许可')).toEqual(['food-b']);
    expect(ids(index, '办证', ['r2'])).toEqual([]);
    expect(index.whyNot('我要食品经营许可', 'food').verdict).toBe('curated_out');
    expect(index.whyNot('办证', 'netbar')).toMatchObject({ verdict: 'pinned', rank: 2 });
    // A hidden permit stays hidden, pinned or not.
    index.setLexicon(rules({ curations: [curation('exact', '烟草', ['shut'], [])] }));
    expect(ids(index, '烟草')).toEqual([]);
  });
});
