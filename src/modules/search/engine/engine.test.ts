import { describe, expect, it } from 'vitest';
import { SearchIndex } from './index.js';
import { testDoc } from './test-docs.js';

const docs = [
  testDoc({ permitId: 'food', name: '食品经营许可证核发', approvalDepartments: ['区市场监管局'], themes: [{ id: 'T01', name: '开办餐饮店' }] }, [
    '未取得食品经营许可从事食品经营\n超范围经营食品，货值金额不足一万元的处以罚款',
  ]),
  testDoc({ permitId: 'pharmacy', name: '药店开办备案', approvalDepartments: ['区市场监管局'] }, ['药品储存不符合要求']),
  testDoc({ permitId: 'pending', name: '行政事项待处理登记', approvalDepartments: ['区政务服务中心'] }, ['材料不全']),
  testDoc({ permitId: 'netbar', name: '互联网上网服务营业场所经营许可', approvalDepartments: ['区文广旅局'], regionId: 'r2', regionName: '乙区' }, [
    '接纳未成年人进入营业场所\n违反规定接纳未成年人',
  ]),
  testDoc({ permitId: 'hidden', name: '食品经营许可证延续', visible: false }),
  testDoc({ permitId: 'build', name: '建筑工程施工许可证核发', approvalDepartments: ['区住建局'] }, ['未取得施工许可擅自施工']),
  testDoc({ permitId: 'hotel', name: '旅馆业特种行业许可证核发', approvalDepartments: ['区公安分局'] }, ['未按规定登记住宿旅客信息']),
];

const ids = (index: SearchIndex, q: string, opts = {}) => index.search(q, opts).hits.map((h) => h.doc.permitId);

describe('SearchIndex', () => {
  const index = SearchIndex.build(docs);

  it('finds a word inside a longer one (处理 in 待处理)', () => {
    expect(ids(index, '处理')[0]).toBe('pending');
  });

  it('finds two-character words (药店)', () => {
    expect(ids(index, '药店')[0]).toBe('pharmacy');
  });

  it('finds the simplified permit for a traditional query', () => {
    expect(ids(index, '食品經營許可')[0]).toBe('food');
  });

  it('finds permits by full pinyin and by initials', () => {
    expect(ids(index, 'shipinjingying')[0]).toBe('food');
    expect(ids(index, 'shipin jingying xuke')[0]).toBe('food');
    expect(ids(index, 'spjy')[0]).toBe('food');
    expect(ids(index, 'lgy')[0]).toBe('hotel');
  });

  it('tolerates homophone typos', () => {
    expect(ids(index, '食品经营许可正')[0]).toBe('food');
    expect(ids(index, '旅馆业特种形业许可证')[0]).toBe('hotel');
    expect(ids(index, '建筑施工许可症')[0]).toBe('build');
  });

  it('finds permits by what people call them and by what they want to do (the knowledge files)', () => {
    expect(ids(index, '饭店')).toContain('food');
    expect(ids(index, '网吧')[0]).toBe('netbar');
    expect(ids(index, '网咖')[0]).toBe('netbar');
    expect(ids(index, '开宾馆')[0]).toBe('hotel');
  });

  it('weighs intent words down instead of matching on them', () => {
    expect(ids(index, '我想开网吧需要办什么证')[0]).toBe('netbar');
    expect(ids(index, '网吧要办什么手续')[0]).toBe('netbar');
  });

  it('filters by region inside the index; [] and unknown regions match nothing', () => {
    expect(ids(index, '经营许可', { regionIds: ['r2'] })).toEqual(['netbar']);
    expect(ids(index, '经营许可', { regionIds: ['r1', 'r2'] })).toContain('netbar');
    expect(ids(index, '经营许可', { regionIds: [] })).toEqual([]);
    expect(ids(index, '经营许可', { regionIds: ['nowhere'] })).toEqual([]);
  });

  it('never returns hidden permits', () => {
    expect(ids(index, '食品经营许可证延续')).not.toContain('hidden');
  });

  it('returns nothing for queries the catalogue cannot answer', () => {
    for (const q of ['红烧肉的家常做法', 'asdfghjkl', '！！！？？？', '世界杯小组赛赛程', '']) expect(ids(index, q)).toEqual([]);
  });

  it('caps the hits at the limit and at 20', () => {
    expect(index.search('许可', { limit: 2 }).hits.length).toBeLessThanOrEqual(2);
    expect(index.search('许可', { limit: 500 }).hits.length).toBeLessThanOrEqual(20);
  });

  it('reports matched text as substrings of the document', () => {
    const hit = index.search('食品经营许可 罚款').hits[0];
    expect(hit.doc.permitId).toBe('food');
    expect(hit.matched.length).toBeGreaterThan(0);
    const text = [hit.doc.name, ...hit.doc.risks.flatMap((r) => [r.title, r.description ?? ''])].join('\n');
    for (const m of hit.matched) expect(text).toContain(m);
    expect(hit.matched).toContain('食品经营许可');
  });

  it('explains itself in debug mode: terms, concepts, what matched each, and why the answer is empty', () => {
    const res = index.search('食品經營許可症 spjy 饭店 到期', { debug: true });
    expect(res.debug?.normalizedQuery).toBe('食品经营许可症 spjy 饭店 到期');
    const origins = new Set(res.debug?.concepts.flatMap((c) => c.alternatives.map((a) => a.origin)));
    for (const o of ['word', 'initials', 'synonym', 'correction']) expect(origins).toContain(o);
    expect(new Set(res.debug?.terms.map((t) => t.origin))).toContain('bigram');
    expect(res.debug?.timingsUs.total).toBeGreaterThanOrEqual(0);
    expect(res.debug?.noMatch).toBeNull();
    expect(Object.keys(res.hits[0].breakdown ?? {})).toContain('name');
    // 饭店 is a restaurant: the food permit's knowledge, not its text, holds it.
    expect(res.hits[0].explain?.concepts).toContainEqual(expect.objectContaining({ concept: '饭店', evidence: 'activity' }));
    expect(index.search('食品').hits[0].breakdown).toBeUndefined();
    const none = index.search('公积金怎么提取', { debug: true });
    expect(none.hits).toEqual([]);
    expect(none.debug?.noMatch).not.toBeNull();
    expect(none.debug?.subjects).toContainEqual({ text: '公积金', explained: 0 });
    // Something matches (食品), but not what the question is about.
    const unexplained = index.search('食品公积金怎么提取', { debug: true });
    expect(unexplained.hits).toEqual([]);
    expect(unexplained.debug?.noMatch).toBe('unexplained');
  });
});

describe('SearchIndex updates', () => {
  it('finds an upserted permit and forgets a removed one', () => {
    const index = SearchIndex.build(docs);
    expect(ids(index, '犬类准养证')).toEqual([]);
    index.upsert(testDoc({ permitId: 'dog', name: '犬类准养证核发' }));
    expect(ids(index, '犬类准养证')[0]).toBe('dog');
    expect(index.size).toBe(docs.length + 1);
    index.remove('dog');
    expect(ids(index, '犬类准养证')).toEqual([]);
    expect(index.size).toBe(docs.length);
  });

  it('replaces a permit on upsert (old text gone, new text found, hiding honoured)', () => {
    const index = SearchIndex.build(docs);
    index.upsert(testDoc({ permitId: 'pharmacy', name: '兽药经营许可证核发' }));
    expect(ids(index, '药店')).not.toContain('pharmacy');
    expect(ids(index, '兽药经营')[0]).toBe('pharmacy');
    index.upsert(testDoc({ permitId: 'pharmacy', name: '兽药经营许可证核发', visible: false }));
    expect(ids(index, '兽药经营')).not.toContain('pharmacy');
  });

  it('stays correct across many updates (delta lists folded into the base)', () => {
    const index = SearchIndex.build(docs);
    for (let i = 0; i < 1500; i++) index.upsert(testDoc({ permitId: `p${i % 700}`, name: `第${i}号测试事项审批` }, ['测试风险']));
    for (let i = 0; i < 300; i++) index.remove(`p${i}`);
    expect(index.size).toBe(docs.length + 400);
    expect(ids(index, '处理')[0]).toBe('pending');
    expect(ids(index, '第1399号测试事项')[0]).toBe('p699');
    expect(ids(index, '第1299号测试事项')[0]).toBe('p599');
    // p99 was removed; p699's earlier name was replaced.
    expect(ids(index, '第1499号测试事项')).not.toContain('p99');
    expect(ids(index, '第699号测试事项')).not.toContain('p699');
  });
});
