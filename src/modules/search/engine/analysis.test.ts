import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize.js';
import { syllabify } from './pinyin.js';
import { coreName } from './name-forms.js';
import { analyzeQuery } from './query-analyzer.js';
import { PinyinVocab } from './pinyin-vocab.js';

describe('normalizeText', () => {
  it('folds width and case, converts traditional, blanks punctuation, keeps the length', () => {
    expect(normalizeText('ＫＴＶ營業（縣級）')).toBe('ktv营业 县级 ');
    const s = '食品(含保健食品)經營許可，ＡＢＣ';
    expect(normalizeText(s)).toHaveLength(s.length);
  });
});

describe('syllabify', () => {
  it('splits pinyin into the fewest syllables and rejects non-pinyin', () => {
    expect(syllabify('shipinjingying')).toEqual(['shi', 'pin', 'jing', 'ying']);
    expect(syllabify('xian')).toEqual(['xian']);
    expect(syllabify('fangan')).toEqual(['fan', 'gan']);
    expect(syllabify('gaoweixian')).toEqual(['gao', 'wei', 'xian']);
    expect(syllabify('lvguan')).toEqual(['lv', 'guan']);
    expect(syllabify('spjy')).toBeNull();
  });
});

describe('coreName', () => {
  it('drops bracketed qualifiers and punctuation', () => {
    expect(coreName('食品(含保健食品)经营许可核发')).toBe('食品经营许可核发');
    expect(coreName('公共场所卫生许可新办审批（县级）')).toBe('公共场所卫生许可新办审批');
  });
});

describe('analyzeQuery', () => {
  const vocab = new PinyinVocab();
  const origins = (q: string) => new Map(analyzeQuery(q, vocab).terms.map((t) => [t.display, t.origin]));

  it('weighs intent words down without dropping them', () => {
    const plan = analyzeQuery('我想开网吧需要办什么证', vocab);
    const weight = (key: string) => plan.terms.find((t) => t.key === key)?.weight ?? 0;
    expect(weight('网吧')).toBe(1);
    expect(weight('需要')).toBeGreaterThan(0);
    expect(weight('需要')).toBeLessThan(0.3);
  });

  it('adds synonyms, pinyin and initials terms', () => {
    expect(origins('网吧').get('网咖')).toBe('synonym');
    expect(origins('shipin jingying').get('shi pin')).toBe('pinyin');
    expect(origins('spjy').get('spj')).toBe('initials');
  });
});
