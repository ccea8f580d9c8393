/** Value rules for single cells: multi-value splitting, 是/否, 高/中/低, the 风险点 cell. */

// The separators of docs/import.md, plus the full-width slash and in-cell line breaks,
// which hand-made sheets use the same way.
const MULTI_SEPARATORS = /[、,;，；/／\n]/;

/** Splits a multi-value cell (主题, 审批部门): trimmed, blanks and duplicates dropped, order kept. */
export function splitMulti(text: string): string[] {
  if (text === '') return [];
  const out: string[] = [];
  for (const part of text.split(MULTI_SEPARATORS)) {
    const item = part.trim();
    if (item !== '' && !out.includes(item)) out.push(item);
  }
  return out;
}

/** 检索可见: true for 是, false for 否, undefined for anything else (blank is handled by the caller). */
export function parseVisible(text: string): boolean | undefined {
  if (text === '是') return true;
  if (text === '否') return false;
  return undefined;
}

const LEVEL_WORDS: Readonly<Record<string, '高' | '中' | '低'>> = {
  高: '高',
  中: '中',
  低: '低',
  中等: '中',
  较高: '高',
  较低: '低',
  high: '高',
  h: '高',
  medium: '中',
  mid: '中',
  m: '中',
  low: '低',
  l: '低',
};

/**
 * 风险等级 reduced to 高/中/低. "高风险", "中等级", "低级", "High" are accepted as the same
 * level; anything else gives null (the caller reports a warning).
 */
export function parseLevel(text: string): '高' | '中' | '低' | null {
  const key = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/(风险|等级|级)$/, '');
  return LEVEL_WORDS[key] ?? null;
}

/** 风险点: the first non-blank line is the title, the remaining lines (trimmed as a block) the description. */
export function splitRiskPoint(text: string): { title: string; description: string | null } {
  const nl = text.indexOf('\n');
  if (nl < 0) return { title: text, description: null };
  const title = text.slice(0, nl).trim();
  const rest = text.slice(nl + 1).trim();
  if (title === '') return splitRiskPoint(rest);
  return { title, description: rest === '' ? null : rest };
}

/** Length in characters (code points), so one CJK extension character counts once. */
export function charCount(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}
