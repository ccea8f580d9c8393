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
  const concept = (q: string, text: string) => analyzeQuery(q, vocab).concepts.find((c) => c.text === text);
  const origins = (q: string) => new Map(analyzeQuery(q, vocab).terms.map((t) => [t.display, t.origin]));

  it('reads a question as words of kinds: subject, stage, intent — weighing intent words down without dropping them', () => {
    expect(concept('我想开网吧需要办什么证', '网吧')).toMatchObject({ kind: 'content', weight: 1 });
    expect(concept('我想开网吧需要办什么证', '开')).toMatchObject({ kind: 'stage' });
    const need = concept('我想开网吧需要办什么证', '需要');
    expect(need?.kind).toBe('intent');
    expect(need?.weight).toBeGreaterThan(0);
    expect(need?.weight).toBeLessThan(0.3);
    expect(analyzeQuery('食品证丢了怎么补', vocab).stages).toContain('补办');
  });

  it('offers general synonyms, pinyin and initials as alternatives', () => {
    expect(concept('许可变更', '变更')?.alternatives.map((a) => `${a.text}:${a.origin}`)).toContain('更改:synonym');
    expect(origins('shipin jingying').get('shi pin')).toBe('pinyin');
    expect(origins('spjy').get('spj')).toBe('initials');
  });

  it('marks the words of public services that are not permits of the catalogue', () => {
    expect(concept('社保卡丢了怎么办', '社保卡')?.outside).toBe(true);
    expect(concept('网吧搬家', '网吧')?.outside).toBe(false);
  });
});
