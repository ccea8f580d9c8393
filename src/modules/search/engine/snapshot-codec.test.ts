import { describe, expect, it } from 'vitest';
import { corpusDocs, loadCorpus } from '../../../../bench/search/corpus.js';
import { AdminLexicon, NO_RULES } from './admin-lexicon.js';
import { SearchIndex } from './index.js';
import { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import { testDoc } from './test-docs.js';

const QUESTIONS = ['开奶茶店要办什么证', '建筑施工许可 风险', '食品经营', 'ypjy', 'yaopin jingying', '消防安全检查', '网吧', '不存在的事项名称'];

const answers = (index: SearchIndex, regionIds: string[] | null = null) =>
  QUESTIONS.map((q) => index.search(q, { regionIds }).hits.map((h) => `${h.doc.permitId} ${h.score} ${h.matched.join('|')}`));

async function roundTrip(index: SearchIndex): Promise<SearchIndex> {
  const w = new SnapshotWriter();
  await index.save(w);
  return SearchIndex.load(SnapshotReader.of(Buffer.concat(await w.finish())));
}

describe('index snapshot', () => {
  const docs = corpusDocs(loadCorpus());
  const lexicon = new AdminLexicon({ ...NO_RULES, aliases: [{ phrases: ['小吃店'], code: null, pattern: '食品经营', regionId: null }] });

  it('loads an index that answers exactly as the one saved: every question, region filter, alias and later change', async () => {
    const index = SearchIndex.build(docs, lexicon);
    // Documents added, replaced and removed since the build: delta lists and dead slots are saved too.
    index.upsert(testDoc({ permitId: 'new', name: '奶茶饮品店食品经营备案试点', regionId: docs[0].regionId }, ['未经许可从事食品经营活动']));
    index.upsert({ ...docs[1], name: `${docs[1].name}（变更）` });
    index.remove(docs[2].permitId);
    const loaded = await roundTrip(index);

    expect(loaded.size).toBe(index.size);
    expect(loaded.documents()).toEqual(index.documents());
    expect(answers(loaded)).toEqual(answers(index));
    expect(answers(loaded, [docs[0].regionId])).toEqual(answers(index, [docs[0].regionId]));
    expect(loaded.search('小吃店').hits.length).toBeGreaterThan(0);
    expect(loaded.adminLexicon.rules).toEqual(lexicon.rules);

    // Both go on changing the same way.
    for (const i of [index, loaded]) {
      i.upsert(testDoc({ permitId: 'later', name: '临时占用城市道路许可', regionId: docs[3].regionId }));
      i.remove(docs[4].permitId);
      i.setLexicon(AdminLexicon.EMPTY);
    }
    expect(answers(loaded)).toEqual(answers(index));
    expect(loaded.whyNot('食品经营', docs[5].permitId)).toEqual(index.whyNot('食品经营', docs[5].permitId));
  });

  it('takes the index as it is when the save starts, whatever changes while the documents are encoded', async () => {
    const index = SearchIndex.build(docs.slice(0, 300));
    const before = answers(index);
    const w = new SnapshotWriter();
    let changed = false;
    await index.save(w, async () => {
      if (changed) return;
      changed = true;
      index.upsert(testDoc({ permitId: 'meanwhile', name: '食品经营许可（新增）' }));
      index.remove(docs[0].permitId);
    });
    expect(changed).toBe(true);
    const loaded = SearchIndex.load(SnapshotReader.of(Buffer.concat(await w.finish())));
    expect(answers(loaded)).toEqual(before);
    expect(loaded.document('meanwhile')).toBeUndefined();
  });

  it('refuses a payload cut short or read as something else', async () => {
    const w = new SnapshotWriter();
    await SearchIndex.build(docs.slice(0, 50)).save(w);
    const payload = Buffer.concat(await w.finish());
    expect(() => SearchIndex.load(SnapshotReader.of(payload.subarray(0, payload.length - 100)))).toThrow(/ends early/);
    expect(() => SearchIndex.load(SnapshotReader.of(payload.subarray(0, 40)))).toThrow();
    const other = new SnapshotWriter();
    other.int(7);
    other.str('x');
    const foreign = Buffer.concat(await other.finish());
    expect(() => SearchIndex.load(SnapshotReader.of(foreign))).toThrow();
  });

  it('keeps a string that is null, empty or long apart from its neighbours', async () => {
    const w = new SnapshotWriter();
    const long = '许'.repeat((1 << 24) + 5);
    for (const s of ['', null, '甲', long, '甲', 'ascii']) w.str(s);
    const r = SnapshotReader.of(Buffer.concat(await w.finish()));
    expect([r.str(), r.str(), r.str(), r.str()?.length, r.str(), r.str()]).toEqual(['', null, '甲', long.length, '甲', 'ascii']);
    expect(r.complete).toBe(true);
  });
});
