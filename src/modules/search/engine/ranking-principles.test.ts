import { describe, expect, it } from 'vitest';
import { corpusDocs, loadCorpus, loadQueries } from '../../../../bench/search/corpus.js';
import { SearchIndex } from './index.js';
import { matchesPattern, nameKey } from './knowledge.js';
import { getLexicon } from './lexicon.js';
import { permitPhrases, stageOfName, wordUnits } from './permit-knowledge.js';
import { tagWords } from './segmenter.js';
import { testDoc } from './test-docs.js';

const ids = (index: SearchIndex, q: string) => index.search(q).hits.map((h) => h.doc.permitId);
const scoreOf = (index: SearchIndex, q: string, id: string) => index.search(q).hits.find((h) => h.doc.permitId === id)?.score ?? 0;

/** Names the knowledge files say nothing of: these tests are about the engine's rules alone. */
const PLAIN_NAMES = [
  '渔船船名变更登记',
  '渔船船名更改登记',
  '渔船船名变更更改修改登记',
  '宠物诊所登记',
  '物美价廉商店备案',
  '民办非企业性质协会登记',
  '企业分支机构设立登记',
  '非煤矿山建设项目安全设施设计审查',
  '渔业捕捞审查',
];

/** Filler documents, so that document frequencies behave as in a catalogue. */
const filler = Array.from({ length: 40 }, (_, i) => testDoc({ permitId: `f${i}`, name: `第${i}类登记审批` }, ['材料不全\n申请材料不齐全']));

let built: { index: SearchIndex; principal: Map<string, Set<string>> } | null = null;

/** The real catalogue's index, and for each activity of the knowledge the names of the permits it is the principal activity of. */
function catalogue(): NonNullable<typeof built> {
  if (built) return built;
  const corpus = loadCorpus();
  const names = [...new Set(corpus.permits.filter((p) => p.visible).map((p) => p.name))];
  const principal = new Map<string, Set<string>>();
  for (const f of getLexicon().knowledge.permitFacts) {
    if (f.relation !== 'principal') continue;
    const family = names.filter((n) => matchesPattern(f.pattern, nameKey(n)));
    for (const p of f.phrases) for (const n of family) principal.set(p, (principal.get(p) ?? new Set()).add(n));
  }
  built = { index: SearchIndex.build(corpusDocs(corpus)), principal };
  return built;
}

const topName = (index: SearchIndex, q: string) => index.search(q).hits[0]?.doc.name ?? '';

describe('ranking principles', () => {
  it('(the test permits carry no knowledge phrases)', () => {
    for (const name of PLAIN_NAMES) expect(Object.values(permitPhrases(name)).flat(), name).toEqual([]);
  });

  it('a word of the question counts once, by its best evidence: the word typed, never its synonyms, decides', () => {
    const index = SearchIndex.build([
      ...filler,
      testDoc({ permitId: 'typed', name: '渔船船名变更登记' }),
      testDoc({ permitId: 'synonym', name: '渔船船名更改登记' }),
      testDoc({ permitId: 'both', name: '渔船船名变更更改修改登记' }),
    ]);
    expect(ids(index, '渔船船名变更')[0]).toBe('typed');
    // Holding the word and two of its synonyms is not worth more than holding the word.
    expect(scoreOf(index, '渔船船名变更', 'both')).toBeLessThanOrEqual(scoreOf(index, '渔船船名变更', 'typed'));
    expect(scoreOf(index, '渔船船名变更', 'synonym')).toBeLessThan(scoreOf(index, '渔船船名变更', 'typed'));
  });

  it('a bigram straddling two words of the question is weak evidence', () => {
    const index = SearchIndex.build([
      ...filler,
      testDoc({ permitId: 'word', name: '宠物诊所登记' }),
      testDoc({ permitId: 'straddle', name: '物美价廉商店备案' }),
    ]);
    // 宠物美容 is 宠物 + 美容; 物美 is only what a tokenizer invents between them.
    const hits = ids(index, '宠物美容');
    expect(hits[0]).toBe('word');
    expect(hits).not.toContain('straddle');
  });

  it('a word inside a longer word that turns its meaning around does not count (非企业, 非煤, 不予许可)', () => {
    const index = SearchIndex.build([
      ...filler,
      testDoc({ permitId: 'private-nonprofit', name: '民办非企业性质协会登记' }),
      testDoc({ permitId: 'enterprise', name: '企业分支机构设立登记' }),
      testDoc({ permitId: 'non-coal', name: '非煤矿山建设项目安全设施设计审查' }),
      testDoc({ permitId: 'refusal', name: '渔业捕捞审查' }, ['材料不实\n不予许可并给予警告']),
    ]);
    expect(ids(index, '企业登记')).not.toContain('private-nonprofit');
    expect(ids(index, '民办非企业')[0]).toBe('private-nonprofit');
    expect(ids(index, '煤矿')).not.toContain('non-coal');
    expect(ids(index, '非煤矿山')[0]).toBe('non-coal');
    const debug = index.search('予许', { debug: true });
    expect(debug.hits.map((h) => h.doc.permitId)).not.toContain('refusal');
  });

  it('homophone corrections apply only to what is not an ordinary word with a match as written', () => {
    const index = SearchIndex.build([
      ...filler,
      testDoc({ permitId: 'hotel', name: '旅馆业特种行业许可证核发' }),
      testDoc({ permitId: 'swim', name: '经营游泳许可' }),
    ]);
    const origins = (q: string) =>
      index.search(q, { debug: true }).debug!.concepts.flatMap((c) => c.alternatives.map((a) => `${c.text}:${a.origin}:${a.text}`));
    // 形业 is no word and names no permit: it may be the 行业 it sounds like.
    expect(origins('旅馆业特种形业许可证').filter((o) => o.endsWith(':correction:行业')).length).toBeGreaterThan(0);
    expect(ids(index, '旅馆业特种形业许可证')[0]).toBe('hotel');
    // 技巧 is an ordinary word; 游泳 matches as written: neither is corrected.
    expect(origins('游泳技巧').filter((o) => o.includes(':correction:'))).toEqual([]);
  });

  it('for an activity, the principal permit ranks above the permits also needed for it (every activity of the knowledge)', () => {
    const { index } = catalogue();
    const names = [
      ...new Set(
        loadCorpus()
          .permits.filter((p) => p.visible)
          .map((p) => p.name),
      ),
    ];
    const facts = getLexicon().knowledge.permitFacts;
    const principalOf = new Map<string, Set<string>>();
    const supportingOf = new Map<string, Set<string>>();
    for (const f of facts) {
      if (f.relation !== 'principal' && f.relation !== 'supporting') continue;
      const family = names.filter((n) => matchesPattern(f.pattern, nameKey(n)) && stageOfName(n) === '新办');
      const map = f.relation === 'principal' ? principalOf : supportingOf;
      for (const p of f.phrases) for (const n of family) map.set(p, (map.get(p) ?? new Set()).add(n));
    }
    let checked = 0;
    const violations: string[] = [];
    for (const [phrase, supporting] of supportingOf) {
      const principal = principalOf.get(phrase);
      if (!principal || [...principal].some((n) => supporting.has(n))) continue;
      const hits = index.search(phrase).hits.map((h) => h.doc.name);
      const p = hits.findIndex((n) => principal.has(n));
      const s = hits.findIndex((n) => supporting.has(n));
      checked++;
      if (s >= 0 && (p < 0 || s < p)) violations.push(`${phrase}: ${hits[s]} above ${p < 0 ? 'nothing' : hits[p]}`);
    }
    expect(checked).toBeGreaterThan(20);
    expect(violations).toEqual([]);
  });

  it('a verb and its object said apart find what the phrase they form finds (every verb–object activity of the knowledge)', () => {
    const { index, principal } = catalogue();
    const misses: string[] = [];
    let checked = 0;
    for (const [phrase, family] of principal) {
      const verb = tagWords(phrase[0]);
      const object = /^[\u4e00-\u9fff]{3,}$/.test(phrase) ? tagWords(phrase.slice(1)) : [];
      if (object.length !== 1 || !verb[0].tag.startsWith('v') || !object[0].tag.startsWith('n') || !family.has(topName(index, phrase))) continue;
      checked++;
      const apart = `${phrase[0]}了几个${phrase.slice(1)}`;
      if (!family.has(topName(index, apart))) misses.push(`${apart}: ${topName(index, apart) || 'nothing'}`);
    }
    expect(checked).toBeGreaterThan(300);
    // Some verbs bind a different object apart than together; nearly all keep their meaning.
    expect(misses.length / checked, misses.join('\n')).toBeLessThan(0.05);
  });

  it('two words of a knowledge phrase said apart, in either order, find the phrase’s permit (every such activity)', () => {
    const { index, principal } = catalogue();
    const misses: string[] = [];
    let checked = 0;
    for (const [phrase, family] of principal) {
      const units = wordUnits(phrase, false);
      if (units.length !== 2 || units.join('').length === phrase.length || !family.has(topName(index, phrase))) continue;
      checked++;
      const apart = `${units[1]}和${units[0]}`;
      if (
        !index
          .search(apart)
          .hits.slice(0, 5)
          .some((h) => family.has(h.doc.name))
      )
        misses.push(`${apart} (${phrase})`);
    }
    expect(checked).toBeGreaterThan(300);
    // Two words can belong to several activities: the phrase's permit among the first five.
    expect(misses.length / checked, misses.join('\n')).toBeLessThan(0.08);
  });

  it('a region filter chooses among the answers, it does not lower the bar: a permit the region lacks is no answer there', () => {
    const index = SearchIndex.build([
      ...filler,
      testDoc({ permitId: 'r1-food', regionId: 'r1', name: '食品经营许可核发' }),
      testDoc({ permitId: 'r2-food', regionId: 'r2', name: '食品经营许可核发' }),
      testDoc({ permitId: 'r3-shop', regionId: 'r3', name: '经营场所登记' }),
    ]);
    expect(index.search('食品经营许可', { regionIds: ['r2'] }).hits.map((h) => h.doc.permitId)).toEqual(['r2-food']);
    const elsewhere = index.search('食品经营许可', { regionIds: ['r3'], debug: true });
    expect(elsewhere.hits).toEqual([]);
    expect(elsewhere.debug!.noMatch).toBe('elsewhere');
    // Without the filter, the region's weaker permit is still an answer of its own.
    expect(ids(index, '经营场所')).toContain('r3-shop');
  });

  it('no answer is an answer: questions outside the catalogue get nothing, not what shares their words', () => {
    const index = SearchIndex.build(corpusDocs(loadCorpus()));
    for (const q of ['社保卡丢了怎么补办', '公积金怎么提取', '红烧肉的家常做法', '明天会下雨吗', 'qwertyuiop', '？？？']) {
      const res = index.search(q, { debug: true });
      expect(res.hits, q).toEqual([]);
      expect(res.debug!.noMatch, q).not.toBeNull();
    }
  });

  it('letters read as initials explain a name only together: in order, as a run or an abbreviation, not as scattered pairs', () => {
    const docs = [testDoc({ permitId: 'sports', name: '经营高危险性体育项目许可' }), testDoc({ permitId: 'doctor', name: '乡村医生执业再注册' }), ...filler];
    const index = SearchIndex.build(docs);
    // An abbreviation drops a character (高危险体育项目 without 性); the whole run finds the name.
    expect(ids(index, 'gwxtyxm')[0]).toBe('sports');
    expect(ids(index, 'xcys')[0]).toBe('doctor');
    // yz, zz and zy are all in xcyszyzzc, but xyzzy is no run or abbreviation of it.
    expect(ids(index, 'xyzzy')).toEqual([]);
  });
});

describe('the same answer everywhere', () => {
  it('scores are equal to the last digit whether the index was built at once or updated one permit at a time', () => {
    const docs = corpusDocs(loadCorpus());
    const rebuilt = SearchIndex.build(docs);
    const updated = SearchIndex.build(docs.slice(0, 100));
    for (const d of docs.slice(100).reverse()) updated.upsert(d);
    for (const d of docs.slice(0, 300)) updated.remove(d.permitId);
    for (const d of docs.slice(0, 300)) updated.upsert(d);
    const answer = (index: SearchIndex, q: string) => index.search(q).hits.map((h) => `${h.doc.permitId} ${h.score}`);
    for (const q of [...loadQueries().map((x) => x.query), '许可', '经营许可', '登记']) expect(answer(updated, q), q).toEqual(answer(rebuilt, q));
  });

  it('ties are broken by region, then permit code', () => {
    const docs = ['r3', 'r1', 'r2'].flatMap((regionId) =>
      ['C', 'A', 'B'].map((code) => testDoc({ permitId: `${regionId}-${code}`, regionId, code, name: '犬类准养证核发' })),
    );
    const index = SearchIndex.build(docs);
    expect(ids(index, '犬类准养证')).toEqual(['r1-A', 'r1-B', 'r1-C', 'r2-A', 'r2-B', 'r2-C', 'r3-A', 'r3-B', 'r3-C']);
  });
});
