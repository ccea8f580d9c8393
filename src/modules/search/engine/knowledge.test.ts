import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../../bench/search/corpus.js';
import { auditKnowledge } from '../../../../bench/search/knowledge-audit.js';
import { loadKnowledgeFiles, parseKnowledge } from './knowledge.js';
import { pairKey, permitPhrases, phraseKeys, stageOfName, wordUnits } from './permit-knowledge.js';

describe('the knowledge files', () => {
  it('parse without a problem, cover every visible permit of the catalogue, and name no permit as another service', () => {
    const audit = auditKnowledge(loadCorpus(), loadKnowledgeFiles());
    expect(audit.problems).toEqual([]);
    expect(audit.names.filter((n) => !audit.covered.has(n))).toEqual([]);
  });

  it('refuses lines out of order, repeated, with an unknown relation or without a source note', () => {
    // Keys sort by code point: 乙 (U+4E59) before 戊 (U+620A) before 甲 (U+7532).
    const text = [
      '甲许可 | 主要 | 甲 | 依据',
      '乙许可 | 主要 | 乙 | 依据',
      '乙许可 | 主要 | 丙 | 依据',
      '丁许可 | 其它 | 戊 | 依据',
      '戊许可 | 俗称 | 己、己 | ',
      '庚许可 | 俗称 | 辛',
    ].join('\n');
    const order = 'out of order or repeated (sorted by key, then relation: 俗称, 主要, 相关, 问法, 其他服务)';
    expect(parseKnowledge(text, 'x.txt').errors).toEqual([
      `x.txt:2: ${order}`,
      `x.txt:3: ${order}`,
      'x.txt:3: key and relation already given',
      'x.txt:4: relation "其它" is not one of 俗称, 主要, 相关, 问法',
      'x.txt:5: the source note is empty',
      'x.txt:5: phrase "己" appears twice',
      'x.txt:6: expected 4 cells (键 | 关系 | 词语 | 依据), found 3',
    ]);
  });

  it('attaches a fact to every permit whose name holds its key, across stages and regions', () => {
    for (const name of ['食品(含保健食品)经营许可核发', '食品(含保健食品)经营许可注销']) expect(permitPhrases(name).principal.length).toBeGreaterThan(10);
    expect(permitPhrases('不在目录中的事项').principal).toEqual([]);
  });

  it('finds a phrase by itself and by the words inside it, each for its share of the phrase', () => {
    const keys = phraseKeys('宠物医院');
    expect(keys.get('宠物医院')).toBe(1);
    expect(keys.get('宠物')).toBe(0.5);
    expect(keys.has('物医')).toBe(false);
    expect(keys.has('医')).toBe(false);
    // A three-character verb phrase by its object, a name of a kind by its stem.
    expect([...phraseKeys('修码头').keys()]).toEqual(['修码头', '码头']);
    expect([...phraseKeys('卖期房').keys()]).toEqual(['卖期房', '期房']);
    expect([...phraseKeys('兽药店').keys()]).toEqual(['兽药店', '兽药']);
  });

  it('finds a phrase by each two of its words, in either order, for their share of the phrase', () => {
    expect(wordUnits('国道边广告牌', false)).toEqual(['国道', '广告牌']);
    expect(wordUnits('押运员工时', false)).toEqual(['押运员', '工时']);
    // A word for permits in general covers its characters but is no unit.
    expect(wordUnits('证书信息变更', false)).toEqual(['信息', '变更']);
    const keys = phraseKeys('国道边广告牌');
    expect(keys.get(pairKey('国道', '广告牌'))).toBeCloseTo(5 / 6);
    expect(pairKey('广告牌', '国道')).toBe(pairKey('国道', '广告牌'));
    expect([...phraseKeys('修庙').keys()]).toEqual(['修庙']);
  });

  it("tells a permit's stage from its name", () => {
    expect(stageOfName('食品(含保健食品)经营许可核发')).toBe('新办');
    expect(stageOfName('食品(含保健食品)经营许可变更住所')).toBe('变更');
    expect(stageOfName('烟草专卖零售许可证延续')).toBe('延续');
    expect(stageOfName('医疗机构执业许可证遗失补办（县级）')).toBe('补办');
    expect(stageOfName('个体工商户注销登记')).toBe('注销');
  });
});
