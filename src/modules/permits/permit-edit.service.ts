import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { conflict, notFound } from '../../http/errors.js';
import { inScope, type RegionScope } from '../auth/data-scope.js';
import { ensureApprovalDepartmentIds } from '../approval-departments/approval-departments.repository.js';
import { writeChange } from '../changes/change-transaction.js';
import { createSnapshotBatch } from './create-snapshot.js';
import { ensureRegionThemes } from '../themes/region-themes.repository.js';
import { refuseIfAny, type FieldProblem, type PermitEdit, type RiskInput } from './permit-edit.input.js';
import { describePermitEdit, type PermitState } from './permit-edit.summary.js';
import { loadPermitPayloads } from './permit-payload.js';
import type { PermitPayload } from './permits.presenter.js';
import { findCodeHolder, findPermitById, replaceDepartmentLinks, replaceThemeLinks, type PermitRow } from './permits.repository.js';
import type { PermitsTable } from './permits.table.js';
import { parseRecordId } from '../../http/record-id.js';
import { RISK_FIELD_NAMES } from './risk.schema.js';
import { deleteRisks, insertRisk, listPermitRisks, updateRisk, type RiskRow } from './risks.repository.js';
import { recordIdText } from '../../http/record-id.js';

export const EDIT_NOT_FOUND = '许可事项不存在';

export interface PermitEditResult {
  permit: PermitPayload;
  /** The batch holding the permit as it was before (null when nothing changed). */
  snapshot_batch_id: string | null;
  /** What changed, in words (the operation log's summary); empty when nothing did. */
  changes: string;
}

/** A version strictly after the one read: two edits in the same millisecond still differ. */
function nextVersion(now: string, previous: string): string {
  return now > previous ? now : new Date(Date.parse(previous) + 1).toISOString();
}

async function stateOf(trx: Executor, permit: PermitRow): Promise<PermitState> {
  const [themes, departments, risks] = await Promise.all([
    trx
      .selectFrom('permit_themes as pt')
      .innerJoin('themes as t', 't.id', 'pt.theme_id')
      .select(['t.id', 't.name'])
      .where('pt.permit_id', '=', permit.id)
      .orderBy('t.id')
      .execute(),
    trx
      .selectFrom('permit_approval_departments as pa')
      .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
      .select('a.name')
      .where('pa.permit_id', '=', permit.id)
      .orderBy('pa.position')
      .execute(),
    listPermitRisks(trx, permit.id),
  ]);
  return { permit, themes, departments: departments.map((d) => d.name), risks };
}

/** A risk as the list wants it: an existing one with the fields given replaced, a new one with the rest blank. */
function riskFields(row: RiskRow | undefined, r: RiskInput, position: number) {
  const out = { position } as Omit<RiskRow, 'id' | 'permit_id'>;
  for (const k of RISK_FIELD_NAMES) out[k] = (r[k] !== undefined ? r[k] : (row?.[k] ?? null)) as never;
  return out;
}

/**
 * PATCH /admin/permits/<id> (docs/maintenance.md, "Editing a permit"): one transaction that
 * checks the version read, saves the permit as it was as a snapshot batch (so that restoring it
 * undoes the edit), writes what was given, and tells every instance's search index.
 */
export async function editPermit(ctx: AppContext, scope: RegionScope, rawId: string, edit: PermitEdit, editedBy: string): Promise<PermitEditResult> {
  return writeChange(
    ctx,
    async (trx) => {
      const id = parseRecordId(rawId);
      const permit = id === null ? undefined : await findPermitById(trx, id);
      // Outside the editor's regions the permit does not exist for it, as for its reads.
      if (!permit || !inScope(scope, permit.region_id)) throw notFound(EDIT_NOT_FOUND);
      if (permit.updated_at !== edit.version) {
        throw conflict(`该许可事项已在 ${permit.updated_at} 被修改，您看到的不是最新内容；请刷新后重新编辑`, { data: { updated_at: permit.updated_at } });
      }
      const before = await stateOf(trx, permit);
      const themeNames = await assertEditFits(trx, permit, before, edit);

      const changes = describePermitEdit(before, edit, themeNames);
      if (changes === '') return { permitId: permit.id, snapshot: null, changes };
      const now = nowIso(ctx.now);
      const snapshot = await createSnapshotBatch(trx, { reason: 'edit', editedBy, changeSummary: edit.changeSummary, permitIds: [permit.id], now });

      const record: Updateable<PermitsTable> = { updated_at: nextVersion(now, permit.updated_at) };
      const f = edit.fields;
      if (f.name !== undefined) record.name = f.name;
      for (const key of ['code', 'implementation_level', 'internal_contact', 'contact_info'] as const) if (f[key] !== undefined) record[key] = f[key];
      if (f.visible !== undefined) record.visible = f.visible ? 1 : 0;
      await trx.updateTable('permits').set(record).where('id', '=', permit.id).execute();

      if (edit.themeIds !== undefined) {
        await replaceThemeLinks(trx, permit.id, edit.themeIds);
        await ensureRegionThemes(
          trx,
          edit.themeIds.map((theme_id) => ({ region_id: permit.region_id, theme_id })),
        );
      }
      if (edit.approvalDepartments !== undefined) {
        const ids = await ensureApprovalDepartmentIds(trx, edit.approvalDepartments);
        await replaceDepartmentLinks(
          trx,
          permit.id,
          edit.approvalDepartments.flatMap((n) => ids.get(n) ?? []),
        );
      }
      if (edit.risks !== undefined) await writeRisks(trx, permit.id, before.risks, edit.risks);
      return { permitId: permit.id, snapshot, changes };
    },
    (r) => (r.changes === '' ? null : { kind: 'permits', permitIds: [r.permitId] }),
    { catalogueLock: true },
  ).then(async (r) => ({
    permit: (await loadPermitPayloads(ctx.db, [r.permitId], { withRisks: true }))[0],
    snapshot_batch_id: recordIdText(r.snapshot),
    changes: r.changes,
  }));
}

/**
 * What can only be checked against the database: a code free in the region, themes that exist,
 * risks of this permit. Answers the names of the themes given.
 */
async function assertEditFits(trx: Executor, permit: PermitRow, before: PermitState, edit: PermitEdit): Promise<Map<number, string>> {
  const problems: FieldProblem[] = [];
  const code = edit.fields.code;
  if (code) {
    const holder = await findCodeHolder(trx, permit.region_id, code, permit.id);
    if (holder) problems.push({ field: 'code', message: `该区域已有事项编码为 ${code} 的许可事项“${holder.name}”` });
  }
  const themeNames = new Map<number, string>();
  if (edit.themeIds && edit.themeIds.length > 0) {
    for (const t of await trx.selectFrom('themes').select(['id', 'name']).where('id', 'in', edit.themeIds).execute()) themeNames.set(t.id, t.name);
    edit.themeIds.forEach((t, i) => {
      if (!themeNames.has(t)) problems.push({ field: `theme_ids[${i}]`, message: `主题不存在：${t}` });
    });
  }
  if (edit.risks) {
    const own = new Set(before.risks.map((r) => r.id));
    edit.risks.forEach((r, i) => {
      if (r.id !== null && !own.has(r.id)) problems.push({ field: `risks[${i}].id`, message: `第 ${i + 1} 条风险（#${r.id}）不属于该许可事项` });
    });
  }
  refuseIfAny(problems);
  return themeNames;
}

/** The permit's risks as the list says: kept ones changed and moved in place, new ones added, the others deleted. */
async function writeRisks(trx: Executor, permitId: number, current: RiskRow[], wanted: RiskInput[]): Promise<void> {
  const byId = new Map(current.map((r) => [r.id, r]));
  const kept = new Set(wanted.flatMap((r) => (r.id === null ? [] : [r.id])));
  await deleteRisks(
    trx,
    current.filter((r) => !kept.has(r.id)).map((r) => r.id),
  );
  for (const [i, r] of wanted.entries()) {
    const row = r.id === null ? undefined : byId.get(r.id);
    const fields = riskFields(row, r, i + 1);
    if (!row) await insertRisk(trx, permitId, fields);
    else if (row.position !== fields.position || RISK_FIELD_NAMES.some((k) => row[k] !== fields[k])) await updateRisk(trx, row.id, fields);
  }
}
