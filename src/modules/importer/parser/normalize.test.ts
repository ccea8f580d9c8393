import { describe, it, expect } from 'vitest';
import { cellText, formatDate, formatNumber } from './cell-text.js';
import { COLUMNS, columnLetter, matchHeader, normalizeHeader } from './columns.js';
import { charCount, parseLevel, parseVisible, splitMulti, splitRiskPoint } from './normalize.js';

describe('column names', () => {
  it('matches every canonical name and alias of the column table', () => {
    for (const spec of COLUMNS) {
      for (const name of [spec.canonical, ...spec.aliases]) expect(matchHeader(name)?.field, name).toBe(spec.field);
    }
    const names = COLUMNS.flatMap((c) => [c.canonical, ...c.aliases].map(normalizeHeader));
    expect(new Set(names).size).toBe(names.length);
  });

  it('ignores width, case, blanks, required-markers and a trailing note in brackets', () => {
    expect(matchHeader(' 许可\u3000事项 ')?.canonical).toBe('许可事项');
    expect(matchHeader('*风险点')?.canonical).toBe('风险点');
    expect(matchHeader('风险等级（高/中/低）')?.canonical).toBe('风险等级');
    expect(matchHeader('检索可见(是/否)')?.canonical).toBe('检索可见');
    expect(normalizeHeader('ＡＢｃ（Ｘ）')).toBe('abc(x)');
    expect(matchHeader('序号')).toBeNull();
    expect(matchHeader('')).toBeNull();
    expect(matchHeader('广安区行政许可事项法律风险清单（区行政审批局）')).toBeNull();
  });

  it('marks 许可事项 and 风险点 as the required columns', () => {
    expect(COLUMNS.filter((c) => c.required).map((c) => c.canonical)).toEqual(['许可事项', '风险点']);
  });

  it('turns column indexes into letters', () => {
    expect([1, 15, 26, 27, 52, 703].map(columnLetter)).toEqual(['A', 'O', 'Z', 'AA', 'AZ', 'AAA']);
  });
});

describe('cell values', () => {
  it('splits multi-value cells', () => {
    expect(splitMulti('甲、乙,丙;丁，戊；己/庚')).toEqual(['甲', '乙', '丙', '丁', '戊', '己', '庚']);
    expect(splitMulti(' 甲 、、甲 ,乙 ')).toEqual(['甲', '乙']);
    expect(splitMulti('')).toEqual([]);
  });

  it('reads 检索可见 strictly as 是/否', () => {
    expect([parseVisible('是'), parseVisible('否'), parseVisible('Y'), parseVisible('可见')]).toEqual([true, false, undefined, undefined]);
  });

  it('normalises 风险等级 to one character', () => {
    const inputs = ['高', '中', '低', '高风险', '中等', '低级', 'High', 'ｍｅｄｉｕｍ', '较高', '严重', '高中'];
    expect(inputs.map(parseLevel)).toEqual(['高', '中', '低', '高', '中', '低', '高', '中', '高', null, null]);
  });

  it('splits 风险点 into title and description', () => {
    expect(splitRiskPoint('标题')).toEqual({ title: '标题', description: null });
    expect(splitRiskPoint('标题\n第一行\n第二行')).toEqual({ title: '标题', description: '第一行\n第二行' });
    expect(splitRiskPoint('\n\n标题  \n  描述  ')).toEqual({ title: '标题', description: '描述' });
  });

  it('counts characters by code point', () => {
    expect(charCount('风险')).toBe(2);
    expect(charCount('𠀀a')).toBe(2);
  });

  it('renders cell values as displayed', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(' a\r\nb ')).toBe('a\nb');
    expect(cellText('\u200b甲\u3000')).toBe('甲');
    expect(cellText("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(cellText("'普通")).toBe("'普通");
    expect(cellText(true)).toBe('TRUE');
    expect(cellText({ error: '#N/A' })).toBe('#N/A');
    expect(cellText({ formula: 'A1', result: { error: '#REF!' } })).toBe('#REF!');
    expect(cellText({ sharedFormula: 'A1', result: 7 })).toBe('7');
    expect(cellText({ text: { richText: [{ text: '链' }, { text: '接' }] }, hyperlink: 'x' } as never)).toBe('链接');
  });

  it('formats numbers and dates', () => {
    expect([0.1 + 0.2, 1 / 3, 511603, -2.5, 1e21, Number.NaN].map(formatNumber)).toEqual(['0.3', '0.333333333333333', '511603', '-2.5', '1e+21', '']);
    expect(formatDate(new Date(Date.UTC(2025, 10, 3)))).toBe('2025-11-03');
    expect(formatDate(new Date(Date.UTC(2025, 10, 3, 9, 5)))).toBe('2025-11-03 09:05');
    expect(formatDate(new Date(Number.NaN))).toBe('');
  });
});
