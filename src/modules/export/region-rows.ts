import type { RiskSheetRow } from '../importer/template/build-template.js';
import { splitMulti } from '../importer/parser/normalize.js';
import type { PermitPayload, RiskPayload } from '../permits/permits.presenter.js';

/** How a list is written into one 主题 or 审批部门 cell (the first separator the import reads: docs/import.md). */
const LIST_SEPARATOR = '、';

/** The 风险点 cell: the title, then the description after an in-cell line break. */
function riskPoint(r: RiskPayload): string {
  return r.description ? `${r.title}\n${r.description}` : r.title;
}

/**
 * The rows of one permit in the import template layout: one per risk (a permit without risks
 * gets one row of permit cells only). Every row repeats the permit cells, so no carry-down rule
 * is needed to read them back.
 */
export function permitRows(regionName: string, p: PermitPayload): RiskSheetRow[] {
  const permit: RiskSheetRow = {
    region: regionName,
    themes: p.themes.map((t) => t.name).join(LIST_SEPARATOR),
    permitName: p.name,
    permitCode: p.code ?? '',
    implementationLevel: p.implementation_level ?? '',
    approvalDepartments: p.approval_departments.join(LIST_SEPARATOR),
    internalContact: p.internal_contact ?? '',
    contactInfo: p.contact_info ?? '',
    visible: p.visible ? '是' : '否',
  };
  const risks = p.risks ?? [];
  if (risks.length === 0) return [permit];
  return risks.map((r) => ({
    ...permit,
    riskType: r.risk_type ?? '',
    riskPoint: riskPoint(r),
    legalBasis: r.legal_basis ?? '',
    consequence: r.consequence ?? '',
    prevention: r.prevention ?? '',
    level: r.level ?? '',
  }));
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * What the workbook layout cannot carry back unchanged, in words an operator can act on: a theme
 * or department name holding a list separator (it would be read as several), and permits without
 * a code sharing a name (the import would take them for one permit).
 */
export function unrepresentable(permits: PermitPayload[]): string[] {
  const problems: string[] = [];
  for (const p of permits) {
    const themes = p.themes.map((t) => t.name);
    if (!sameList(splitMulti(themes.join(LIST_SEPARATOR)), themes)) {
      problems.push(`许可事项“${p.name}”的主题名称含分隔符，重新导入时会被拆分：${themes.join('；')}`);
    }
    if (!sameList(splitMulti(p.approval_departments.join(LIST_SEPARATOR)), p.approval_departments)) {
      problems.push(`许可事项“${p.name}”的审批部门名称含分隔符，重新导入时会被拆分：${p.approval_departments.join('；')}`);
    }
  }
  const uncoded = new Map<string, number>();
  for (const p of permits) if (!p.code) uncoded.set(p.name, (uncoded.get(p.name) ?? 0) + 1);
  for (const [name, n] of uncoded) {
    if (n > 1) problems.push(`${n} 个许可事项同名“${name}”且没有事项编码，重新导入时会合并为一个`);
  }
  return problems;
}
