import { crashPoint } from '../../crash-point.js';
import type { BulkInsert } from '../../db/bulk-insert.js';
import type { Executor } from '../../db/database.js';
import { ensureApprovalDepartmentIds } from '../approval-departments/approval-departments.repository.js';
import { insertRegion } from '../regions/regions.repository.js';
import { ensureRegionThemes } from '../themes/region-themes.repository.js';
import type { SearchDoc } from '../search/engine/types.js';
import { createSnapshotBatch } from '../permits/create-snapshot.js';
import type { ImportPlan, PlannedPermit, PlanRef } from './import-plan.types.js';
import { markSessionCommitted, sessionContent, type ImportSessionHead } from './import-sessions.repository.js';
import {
  addThemeLinks,
  deleteRisksOf,
  findArchivedFile,
  insertArchivedFile,
  insertPermits,
  insertRisks,
  insertTheme,
  linkPermitsToFile,
  removeThemeLinks,
  replaceApprovalLinks,
  updatePermit,
} from './commit.repository.js';
import { refKey } from './plan-refs.js';
import { newPermitSearchDocs } from './commit-search-docs.js';

export interface ApplyOptions {
  session: ImportSessionHead;
  editedBy: string;
  changeSummary: string | null;
  now: string;
  /** Every table sheet of the workbook (header row and data) is in the plan, not only some of them. */
  wholeWorkbook: boolean;
}

export interface ApplyOutcome {
  fileId: number;
  snapshotBatchId: number | null;
  regionsCreated: Array<{ id: number; name: string }>;
  themesCreated: Array<{ id: number; name: string }>;
  /** Permits whose searchable content changed (new or changed). */
  touchedPermitIds: number[];
  /** Makes the search documents of the new permits (commit-search-docs.ts). */
  newSearchDocs: () => SearchDoc[];
}

/** Creates the rows a plan refers to but the database lacks, and answers the id of any reference. */
async function createMissing(trx: Executor, plan: ImportPlan, now: string) {
  const ids = new Map<string, number>();
  const regionsCreated: ApplyOutcome['regionsCreated'] = [];
  const themesCreated: ApplyOutcome['themesCreated'] = [];
  for (const name of plan.newRegions) {
    const r = await insertRegion(trx, { name, code: null, created_at: now });
    ids.set(refKey({ id: null, name }), r.id);
    regionsCreated.push({ id: r.id, name });
  }
  for (const name of plan.newThemes) {
    const id = await insertTheme(trx, name, now);
    ids.set(`theme${refKey({ id: null, name })}`, id);
    themesCreated.push({ id, name });
  }
  const regionId = (r: PlanRef) => r.id ?? ids.get(refKey(r))!;
  const themeId = (t: PlanRef) => t.id ?? ids.get(`theme${refKey(t)}`)!;
  return { regionId, themeId, regionsCreated, themesCreated };
}

/**
 * The archived workbook: the same content under the same name is stored once, so re-commits add no
 * file. Its region is recorded only when the whole workbook belongs to one region: users below
 * grade 90 may read a file's content only then (docs/import.md, "File archive").
 */
async function archiveWorkbook(trx: Executor, plan: ImportPlan, o: ApplyOptions, regionId: (r: PlanRef) => number): Promise<number> {
  const existing = await findArchivedFile(trx, o.session.sha256, o.session.filename);
  if (existing !== null) return existing;
  const regions = new Set(plan.permits.map((p) => regionId(p.region)));
  return insertArchivedFile(trx, {
    filename: o.session.filename,
    content_type: o.session.content_type,
    size: o.session.size,
    sha256: o.session.sha256,
    content: await sessionContent(trx, o.session.id),
    uploaded_by: o.session.uploader_name,
    uploader_id: o.session.uploader_id,
    // Sheets left out of the commit may hold other regions' rows.
    region_id: o.wholeWorkbook && regions.size === 1 ? [...regions][0] : null,
    created_at: o.now,
  });
}

/**
 * Writes a checked plan inside the caller's transaction: regions and themes it names, the
 * archived workbook, one snapshot batch of the permits it replaces, then permits, risks and links.
 */
export async function applyImportPlan(trx: Executor, bulk: BulkInsert, plan: ImportPlan, o: ApplyOptions): Promise<ApplyOutcome> {
  const { regionId, themeId, regionsCreated, themesCreated } = await createMissing(trx, plan, o.now);
  const fileId = await archiveWorkbook(trx, plan, o, regionId);

  const fresh = plan.permits.filter((p) => p.status === 'new');
  const changed = plan.permits.filter((p) => p.status === 'changed');
  const unchanged = plan.permits.filter((p) => p.status === 'unchanged');
  const snapshotBatchId = await createSnapshotBatch(trx, {
    reason: 'import',
    editedBy: o.editedBy,
    changeSummary: o.changeSummary,
    permitIds: changed.map((p) => p.existing!.id),
    now: o.now,
  });

  const newIds = await insertPermits(
    bulk,
    fresh.map((p) => ({ key: p.key, regionId: regionId(p.region), fields: p.fields })),
    fileId,
    o.now,
  );
  const idOf = (p: PlannedPermit) => p.existing?.id ?? newIds.get(p.key)!;
  for (const p of changed) await updatePermit(trx, p.existing!.id, p.fields, fileId, o.now);
  await crashPoint('import-commit');
  await linkPermitsToFile(trx, unchanged.map(idOf), fileId);

  const risksReplaced = changed.filter((p) => p.changedFields.includes('risks'));
  await deleteRisksOf(trx, risksReplaced.map(idOf));
  const riskIds = await insertRisks(
    bulk,
    [...fresh, ...risksReplaced].map((p) => ({ permitId: idOf(p), risks: p.risks })),
  );

  const relinked = [...fresh, ...changed.filter((p) => p.changedFields.includes('approval_departments'))];
  const deptIds = await ensureApprovalDepartmentIds(
    trx,
    relinked.flatMap((p) => p.approvalDepartments),
  );
  await replaceApprovalLinks(
    trx,
    relinked.map((p) => ({ permitId: idOf(p), departmentIds: p.approvalDepartments.map((n) => deptIds.get(n)!) })),
    changed.filter((p) => p.changedFields.includes('approval_departments')).map(idOf),
  );

  await addThemeLinks(
    trx,
    plan.permits.flatMap((p) => p.themesAdded.map((t) => ({ permit_id: idOf(p), theme_id: themeId(t) }))),
  );
  for (const p of changed) await removeThemeLinks(trx, idOf(p), p.themeIdsRemoved);
  await ensureRegionThemes(
    trx,
    plan.permits.flatMap((p) => p.themes.map((t) => ({ region_id: regionId(p.region), theme_id: themeId(t) }))),
  );

  await markSessionCommitted(trx, o.session.id, o.now);
  return {
    fileId,
    snapshotBatchId,
    regionsCreated,
    themesCreated,
    touchedPermitIds: [...fresh, ...changed].map(idOf),
    // The new permits' risk lists were inserted first.
    newSearchDocs: () => newPermitSearchDocs(fresh, { permitId: idOf, regionId, themeId }, riskIds.slice(0, fresh.length)),
  };
}
