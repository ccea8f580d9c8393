import type { LexiconKind as Kind } from '../../api/lexicon';

/** The four kinds of entry, with what each does in a sentence. */
export const KINDS: { value: Kind; label: string; hint: string }[] = [
  { value: 'synonym', label: '同义词组', hint: '组内的词互相等同：问到其中一个词，也按组内其他词检索。' },
  { value: 'expansion', label: '单向扩展', hint: '问到源词（群众的说法）时，也按扩展词（正式名称）检索；反过来不成立。' },
  { value: 'alias', label: '许可别名', hint: '给许可起的别名：问到别名就能找到该许可。许可按编码或名称模式指定。' },
  { value: 'curation', label: '置顶与隐藏', hint: '针对某个问题，把指定许可排在最前面，或从结果中去掉指定许可。' },
];
export const isKind = (k: unknown): k is Kind => KINDS.some((x) => x.value === k);
export const MATCH_LABELS = { exact: '问题完全相同', contains: '问题包含此词' };
/** The region choice of a global entry. */
export const GLOBAL = 'global';
