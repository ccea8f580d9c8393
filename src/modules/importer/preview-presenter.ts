import type { ImportPlan, PlannedPermit, SheetPlan } from './import-plan.types.js';
import type { Finding } from './parser/types.js';
import { countBy } from './plan-findings.js';

export interface ThemeOptions {
  catalog: Array<{ id: string; name: string }>;
  regions: Record<string, Array<{ id: string; name: string; option_id: string }>>;
}

function presentEntry(permit: PlannedPermit, rows: number[]) {
  return {
    rows,
    name: permit.fields.name,
    code: permit.fields.code,
    region: permit.region.name,
    status: permit.status,
    changed_fields: permit.changedFields,
    risks_added: permit.risksAdded,
    risks_removed: permit.risksRemoved,
    themes: permit.themes.map((t) => t.name),
  };
}

function presentSheet(s: SheetPlan) {
  const { sheet } = s;
  return {
    name: sheet.name,
    index: sheet.index,
    header_row: sheet.headerRow,
    first_data_row: sheet.firstDataRow,
    data_rows: sheet.dataRows,
    columns: sheet.columns.map((c) => ({ letter: c.letter, header: c.header, field: c.field, canonical: c.canonical })),
    findings: s.findings,
    error_count: countBy(s.findings, 'error'),
    warning_count: countBy(s.findings, 'warning'),
    counts: s.counts,
    themes: s.themesNamed.map((t) => ({ id: t.id === null ? null : String(t.id), name: t.name, exists: t.id !== null })),
    permits: s.entries.map((e) => presentEntry(e.permit, e.rows)),
  };
}

/** Every finding of a plan: the workbook's own and each sheet's. */
export function allFindings(plan: ImportPlan): Finding[] {
  return [...plan.workbookFindings, ...plan.sheets.flatMap((s) => s.findings)];
}

/** The preview part of a session description (layout documented in docs/import.md). */
export function presentPreview(plan: ImportPlan, themeOptions: ThemeOptions) {
  const findings = allFindings(plan);
  return {
    findings: plan.workbookFindings,
    error_count: countBy(findings, 'error'),
    warning_count: countBy(findings, 'warning'),
    sheets: plan.sheets.map(presentSheet),
    totals: plan.totals,
    regions_to_create: plan.newRegions,
    themes_to_create: plan.newThemes,
    theme_options: themeOptions,
  };
}
