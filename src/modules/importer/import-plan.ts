import { inScope } from '../auth/data-scope.js';
import type { RiskFields } from '../permits/risk.schema.js';
import type { ParsedPermit, ParsedSheet, ParsedWorkbook } from './parser/types.js';
import type { ImportPlan, ImportState, PermitFields, PlanActor, PlannedPermit, PlanOptions, PlanRef, SheetPlan } from './import-plan.types.js';
import { departmentsOf, diffContent, permitFieldsOf, riskFieldsOf, sameContent, text } from './plan-diff.js';
import { SheetFindings } from './plan-findings.js';
import { ExistingIndex, permitKey } from './plan-identity.js';
import { RefIndex, refKey, uniqueRefs } from './plan-refs.js';
import { sheetCounts, totalCounts } from './plan-counts.js';

/** One appearance of a permit on a sheet. */
interface Occurrence {
  sheet: string;
  rows: number[];
  fields: PermitFields;
  departments: string[];
  risks: RiskFields[];
  /** Themes this occurrence names: cells ∪ sheet binding, or the sheet's override. */
  themes: PlanRef[];
  overridesThemes: boolean;
}

interface Merged {
  key: string;
  region: PlanRef;
  occurrences: Occurrence[];
}

const MISSING_REGION = '缺少区域：请在“区域”列填写或绑定部门';

/**
 * What committing the chosen sheets would do to the database. Pure: the same workbook, state,
 * actor and options always give the same plan, so the preview and the commit (which recomputes
 * it inside its transaction) never disagree.
 */
export function buildImportPlan(workbook: ParsedWorkbook, state: ImportState, actor: PlanActor, options: PlanOptions): ImportPlan {
  const regions = new RefIndex(state.regions);
  const themes = new RefIndex(state.themes);
  const merged = new Map<string, Merged>();
  const chosen = options.sheets === null ? workbook.sheets : workbook.sheets.filter((s) => options.sheets!.includes(s.name));

  const sheetWork = chosen.map((sheet) => {
    const findings = new SheetFindings(sheet, [...sheet.findings]);
    const occurrences: Array<{ key: string; occurrence: Occurrence }> = [];
    const override = options.overrides[sheet.name] ?? {};
    const sheetThemes = (tokens: string[] | undefined) => {
      const refs = (tokens ?? []).map((t) => themes.resolve(t, true));
      for (const r of refs) if (r.id === null) findings.add('warning', 'new_theme', null, null, `将新建主题：${r.name}`);
      return refs;
    };
    const bound = sheetThemes(options.themeBindings[sheet.name]);
    const overrideThemes = override.themes ? sheetThemes(override.themes) : null;
    const overrideRegion = override.region !== undefined ? regions.resolve(override.region, true) : null;

    const regionOf = (p: ParsedPermit, row: number | null): PlanRef | null => {
      const cell = text(p.region);
      const ref = overrideRegion ?? (cell !== null ? regions.resolve(cell, false) : actor.bindingRegion);
      const [field, at] = overrideRegion ? [null, null] : (['region', row] as const);
      if (!ref) {
        const noColumn = !sheet.columns.some((c) => c.field === 'region');
        if (noColumn) findings.add('error', 'missing_region', null, sheet.headerRow, MISSING_REGION);
        else findings.add('error', 'missing_region', 'region', row, MISSING_REGION, false);
        return null;
      }
      if (ref.id === null) {
        findings.add(actor.canCreateRegions ? 'warning' : 'error', 'new_region', field, at, `将新建区域：${ref.name}`);
        return actor.canCreateRegions ? ref : null;
      }
      if (!inScope(actor.scope, ref.id)) {
        findings.add('error', 'region_out_of_scope', field, at, `无权导入区域：${ref.name}（只能导入本账号所属区域）`);
        return null;
      }
      return ref;
    };

    for (const p of sheet.permits) {
      const row = p.rows[0] ?? null;
      const cellThemes = p.themes.map((name) => themes.resolve(name, false));
      for (const r of cellThemes) if (r.id === null) findings.add('warning', 'new_theme', 'themes', row, `将新建主题：${r.name}`);
      const region = regionOf(p, row);
      const fields = permitFieldsOf(p, override.visible ?? p.visible !== false);
      if (!region || fields.name === '') continue;
      const occurrence: Occurrence = {
        sheet: sheet.name,
        rows: p.rows,
        fields,
        departments: departmentsOf(p),
        risks: p.risks.map(riskFieldsOf),
        themes: overrideThemes ?? uniqueRefs([...cellThemes, ...bound]),
        overridesThemes: overrideThemes !== null,
      };
      const key = permitKey(region, fields.code, fields.name);
      let m = merged.get(key);
      if (!m) merged.set(key, (m = { key, region, occurrences: [] }));
      const prev = m.occurrences.at(-1);
      if (prev && !sameContent(prev, occurrence)) {
        const where = prev.sheet === sheet.name ? '本表' : `工作表“${prev.sheet}”`;
        findings.add(
          'warning',
          'duplicate_permit',
          'permitName',
          row,
          `许可事项“${fields.name}”在${where}第 ${prev.rows[0]} 行也出现且内容不同，以最后一次出现为准`,
          false,
        );
      }
      m.occurrences.push(occurrence);
      occurrences.push({ key, occurrence });
    }
    return { sheet, findings: findings.list, occurrences };
  });

  const existing = new ExistingIndex(state.existing);
  const permits = new Map<string, PlannedPermit>();
  for (const m of merged.values()) permits.set(m.key, finalizePermit(m, existing, themes));

  const sheets = sheetWork.map((w) => planOfSheet(w.sheet, w.findings, w.occurrences, permits));
  const list = [...permits.values()];
  const newOf = (refs: PlanRef[]) => uniqueRefs(refs.filter((r) => r.id === null)).map((r) => r.name);
  return {
    sheets,
    permits: list,
    workbookFindings: [...workbook.findings],
    newRegions: newOf(list.map((p) => p.region)),
    newThemes: newOf(list.flatMap((p) => p.themes)),
    totals: totalCounts(list),
  };
}

/** Fields and risks from the last occurrence; themes the union of every occurrence and the stored links. */
function finalizePermit(m: Merged, index: ExistingIndex, themes: RefIndex): PlannedPermit {
  const last = m.occurrences.at(-1)!;
  const existing = index.match(m.region.id, last.fields.code, last.fields.name);
  const overridden = m.occurrences.some((o) => o.overridesThemes);
  const stored = existing && !overridden ? existing.themeIds.map((id) => themes.byIdOf(id) ?? { id, name: String(id) }) : [];
  const finalThemes = uniqueRefs([...stored, ...m.occurrences.flatMap((o) => o.themes)]);
  const had = new Set(existing?.themeIds ?? []);
  const themesAdded = finalThemes.filter((t) => t.id === null || !had.has(t.id));
  const keep = new Set(finalThemes.map(refKey));
  const themeIdsRemoved = (existing?.themeIds ?? []).filter((id) => !keep.has(`#${id}`));
  const diff = diffContent(last.fields, last.departments, last.risks, existing);
  if (existing && (themesAdded.length > 0 || themeIdsRemoved.length > 0)) diff.changedFields.push('themes');
  return {
    key: m.key,
    region: m.region,
    existing,
    fields: last.fields,
    approvalDepartments: last.departments,
    risks: last.risks,
    themes: finalThemes,
    themesAdded,
    themeIdsRemoved,
    status: !existing ? 'new' : diff.changedFields.length > 0 ? 'changed' : 'unchanged',
    changedFields: diff.changedFields,
    risksAdded: diff.risksAdded,
    risksRemoved: diff.risksRemoved,
    lastSheet: last.sheet,
  };
}

function planOfSheet(
  sheet: ParsedSheet,
  findings: SheetPlan['findings'],
  occurrences: Array<{ key: string; occurrence: Occurrence }>,
  permits: Map<string, PlannedPermit>,
): SheetPlan {
  const entries = new Map<string, { permit: PlannedPermit; rows: number[]; themes: PlanRef[] }>();
  let risks = 0;
  for (const { key, occurrence } of occurrences) {
    risks += occurrence.risks.length;
    const e = entries.get(key);
    if (e) {
      e.rows.push(...occurrence.rows);
      e.themes = uniqueRefs([...e.themes, ...occurrence.themes]);
    } else entries.set(key, { permit: permits.get(key)!, rows: [...occurrence.rows], themes: occurrence.themes });
  }
  const list = [...entries.values()];
  return {
    sheet,
    findings,
    entries: list.map(({ permit, rows }) => ({ permit, rows })),
    themesNamed: uniqueRefs(list.flatMap((e) => e.themes)),
    counts: sheetCounts(sheet.name, list, risks),
  };
}
