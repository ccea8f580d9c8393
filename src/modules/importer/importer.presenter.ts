import type { Static } from '@sinclair/typebox';
import { recordIdText } from '../../http/record-id.js';
import { presentThemeRef, type ThemeRef } from '../themes/themes.presenter.js';
import type { ApplyOutcome } from './apply-plan.js';
import type { ImportPlan, PlannedPermit, SheetPlan } from './import-plan.types.js';
import type { ImportSessionHead } from './import-sessions.repository.js';
import type { CommitResult as CommitResultSchema } from './import.openapi.js';
import { allFindings, countBy } from './plan-findings.js';
import type { BindingMode } from './session-binding.js';

export interface ThemeOptions {
  catalog: ThemeRef[];
  regions: Record<string, Array<{ id: string; name: string; option_id: string }>>;
}

/** The department a session is bound to, with its region. */
export interface BoundDepartment {
  id: string;
  name: string;
  region_id: string | null;
  region_name: string | null;
}

export type CommitResult = Static<typeof CommitResultSchema>;

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
    themes: s.themesNamed.map((t) => ({ id: recordIdText(t.id), name: t.name, exists: t.id !== null })),
    permits: s.entries.map((e) => presentEntry(e.permit, e.rows)),
  };
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

/** A bound department's row as the session description names it. */
export function presentBoundDepartment(d: { id: number; name: string; region_id: number | null }, region: { name: string } | undefined): BoundDepartment {
  return { id: String(d.id), name: d.name, region_id: recordIdText(d.region_id), region_name: region?.name ?? null };
}

/** The theme options a preview offers: the catalog, and each region's options by region name. */
export function presentThemeOptions(
  catalog: Array<{ id: number; name: string }>,
  regions: Map<string, number | null>,
  options: Array<{ region_id: number; option_id: number; id: number; name: string }>,
): ThemeOptions {
  const out: ThemeOptions['regions'] = {};
  for (const [name, id] of regions) {
    out[name] = options.filter((o) => o.region_id === id).map((o) => ({ ...presentThemeRef(o), option_id: String(o.option_id) }));
  }
  return { catalog: catalog.map(presentThemeRef), regions: out };
}

/** The session part of a session description. */
export function presentSession(s: ImportSessionHead, department: BoundDepartment | null) {
  return {
    session_id: s.id,
    filename: s.filename,
    content_type: s.content_type,
    size: s.size,
    sha256: s.sha256,
    uploaded_by: s.uploader_name,
    created_at: s.created_at,
    expires_at: s.expires_at,
    committed_at: s.committed_at,
    binding_mode: s.binding_mode as BindingMode, // written by session-binding.ts only
    department,
  };
}

/** Each sheet's counts, named by its sheet. */
export const presentSheetCounts = (plan: ImportPlan) => plan.sheets.map((s) => ({ sheet: s.sheet.name, ...s.counts }));

/** A record created by name (a region), in short. */
const presentNamed = (r: { id: number; name: string }) => ({ id: String(r.id), name: r.name });

/** What a commit did: the archived file, the snapshot batch of what it replaced, the counts and what it created. */
export function presentCommit(session: ImportSessionHead, plan: ImportPlan, outcome: ApplyOutcome): CommitResult {
  return {
    session_id: session.id,
    filename: session.filename,
    file_id: String(outcome.fileId),
    snapshot_batch_id: recordIdText(outcome.snapshotBatchId),
    sheets: presentSheetCounts(plan),
    totals: plan.totals,
    regions_created: outcome.regionsCreated.map(presentNamed),
    themes_created: outcome.themesCreated.map(presentThemeRef),
  };
}
