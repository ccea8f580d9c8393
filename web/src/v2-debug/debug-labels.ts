/** The Chinese the console shows for the search engine's debug codes (docs/search.md). */

import tables from './debug-labels.json';

type TagType = 'primary' | 'success' | 'warning' | 'info' | 'danger';

// The tables are data (debug-labels.json): the engine's term origins, term kinds, evidence, fields and score
// factors (src/modules/search/engine/ranking-params.ts), the reasons a result is cut, and the verdicts of
// 为什么没有找到 (GET /admin/search/why-not) with the alert type each is shown as.
const ORIGINS = tables.origins as Record<string, { label: string; type: TagType }>;
const WHY_NOT = tables.whyNot as Record<string, { text: string; type: 'success' | 'warning' | 'info' | 'error' }>;

/** A code's Chinese from a table, the code itself when the table does not know it. */
const labelIn = (table: Record<string, string>) => (code: string) => table[code] ?? code;

export const originLabel = (o: string) => ORIGINS[o] ?? { label: o, type: 'info' as const };
export const kindLabel = labelIn(tables.kinds);
export const evidenceLabel = labelIn(tables.evidence);
export const fieldLabel = labelIn(tables.fields);
export const cutLabel = labelIn(tables.cut);
export const whyNotLabel = (v: string) => WHY_NOT[v] ?? { text: v, type: 'info' as const };

/** One sentence saying why the answer is what it is. */
export function verdict(reason: string | null | undefined, subjects: { text: string; explained: number }[]): string {
  const missing = subjects.filter((s) => s.explained < 0.5).map((s) => `「${s.text}」`);
  if (reason === 'nothing') return '没有任何许可事项与问题中的词相符，判定为没有找到。';
  if (reason === 'elsewhere') return '所问的事项在其他区域才有，所选区域的最佳结果远不如它，判定为没有找到（不以本区域字面相近的事项充数）。';
  if (reason === 'unexplained') {
    return missing.length
      ? `最接近的许可事项也没有讲到问题中的${missing.join('、')}，判定为没有找到（不以字面相近的事项充数）。`
      : '最接近的许可事项对问题的解释不足，判定为没有找到。';
  }
  return missing.length ? `已找到；问题中的${missing.join('、')}在第一条结果中没有对应。` : '已找到；第一条结果讲到了问题的全部主题词。';
}

export const percent = (x: number | undefined) => (x === undefined ? '—' : `${Math.round(x * 100)}%`);
