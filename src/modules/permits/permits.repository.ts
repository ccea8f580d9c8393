import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { lowerEquals } from '../../db/dialect.js';
import type { PermitSnapshotData } from './create-snapshot.js';
import type { PermitsTable } from './permits.table.js';

export type PermitRow = Selectable<PermitsTable>;

/** The whole catalogue of a region (hidden permits included), by name. */
export async function listRegionPermitIds(db: Executor, regionId: number, themeId?: number): Promise<number[]> {
  let q = db.selectFrom('permits as p').select('p.id').where('p.region_id', '=', regionId);
  if (themeId !== undefined) {
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('permit_themes as pt').select('pt.permit_id').whereRef('pt.permit_id', '=', 'p.id').where('pt.theme_id', '=', themeId)),
    );
  }
  const rows = await q.orderBy('p.name').orderBy('p.id').execute();
  return rows.map((r) => r.id);
}

export function findPermitById(db: Executor, id: number): Promise<PermitRow | undefined> {
  return db.selectFrom('permits').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPermitByCode(db: Executor, regionId: number, code: string): Promise<PermitRow | undefined> {
  return db.selectFrom('permits').selectAll().where('region_id', '=', regionId).where(lowerEquals('code', code)).orderBy('id').executeTakeFirst();
}

/** Permits of a region with exactly this name (names are not unique: the caller decides about several). */
export function findPermitsByName(db: Executor, regionId: number, name: string): Promise<PermitRow[]> {
  return db.selectFrom('permits').selectAll().where('region_id', '=', regionId).where('name', '=', name).orderBy('id').limit(2).execute();
}

/** The permit's themes, those offered in its region (a region_themes option) first, then by id. */
export async function listPermitThemes(db: Executor, permitId: number, regionId: number) {
  const rows = await db
    .selectFrom('permit_themes as pt')
    .innerJoin('themes as t', 't.id', 'pt.theme_id')
    .leftJoin('region_themes as rt', (j) => j.onRef('rt.theme_id', '=', 't.id').on('rt.region_id', '=', regionId))
    .select(['t.id', 't.name', 'rt.id as option_id'])
    .where('pt.permit_id', '=', permitId)
    .orderBy('t.id')
    .execute();
  return [...rows.filter((r) => r.option_id !== null), ...rows.filter((r) => r.option_id === null)];
}

/**
 * Deletes a permit; its theme links, department links and risks go with it (ON DELETE CASCADE).
 * Returns false when it was already gone (a concurrent delete won the row lock).
 */
export async function deletePermitRow(db: Executor, id: number): Promise<boolean> {
  const r = await db.deleteFrom('permits').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A permit record as a snapshot keeps it. */
export type PermitRecord = PermitSnapshotData['permit'];

/** A permit's columns but its last change time, and nothing else: what a snapshot keeps of it. */
export function permitRecordOf(p: PermitRecord): PermitRecord {
  return {
    id: p.id,
    region_id: p.region_id,
    code: p.code,
    name: p.name,
    implementation_level: p.implementation_level,
    internal_contact: p.internal_contact,
    contact_info: p.contact_info,
    visible: p.visible,
    source_file_id: p.source_file_id,
    created_at: p.created_at,
  };
}

/** Writes a permit back under its own id: updated when it exists, recreated when it was deleted. */
export async function writePermitRecord(db: Executor, p: PermitRecord, now: string): Promise<'updated' | 'recreated'> {
  const { id, created_at, ...own } = permitRecordOf(p);
  const fields = { ...own, updated_at: now };
  const r = await db.updateTable('permits').set(fields).where('id', '=', id).executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) return 'updated';
  // An explicit id leaves PostgreSQL's sequence alone; the id came from it, so it stays below its next value.
  await db
    .insertInto('permits')
    .values({ id, ...fields, created_at })
    .execute();
  return 'recreated';
}

/** Another permit of the region already using this code (codes are unique per region). */
export function findCodeHolder(db: Executor, regionId: number, code: string, exceptId: number) {
  return db
    .selectFrom('permits')
    .select(['id', 'name'])
    .where('region_id', '=', regionId)
    .where('code', '=', code)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

/** Sets a permit's theme links and its ordered approval departments (by id), replacing what it had. */
export async function replacePermitLinks(db: Executor, permitId: number, themeIds: number[], departmentIds: number[]): Promise<void> {
  await replaceThemeLinks(db, permitId, themeIds);
  await replaceDepartmentLinks(db, permitId, departmentIds);
}

export async function replaceThemeLinks(db: Executor, permitId: number, themeIds: number[]): Promise<void> {
  await db.deleteFrom('permit_themes').where('permit_id', '=', permitId).execute();
  const rows = [...new Set(themeIds)].map((theme_id) => ({ permit_id: permitId, theme_id }));
  if (rows.length > 0) await db.insertInto('permit_themes').values(rows).execute();
}

/** The departments' order is their position (a repeated id keeps its first place). */
export async function replaceDepartmentLinks(db: Executor, permitId: number, departmentIds: number[]): Promise<void> {
  await db.deleteFrom('permit_approval_departments').where('permit_id', '=', permitId).execute();
  const rows = [...new Set(departmentIds)].map((approval_department_id, position) => ({ permit_id: permitId, approval_department_id, position }));
  if (rows.length > 0) await db.insertInto('permit_approval_departments').values(rows).execute();
}

/** The themes of each of the given permits, in no order: each reader orders them as it shows them. */
export function listThemesOfPermits(db: Executor, permitIds: number[]) {
  return db
    .selectFrom('permit_themes as pt')
    .innerJoin('themes as t', 't.id', 'pt.theme_id')
    .select(['pt.permit_id', 't.id', 't.name'])
    .where('pt.permit_id', 'in', permitIds)
    .execute();
}

/** The approval departments of each of the given permits, in each permit's own order. */
export function listApprovalDepartmentNames(db: Executor, permitIds: number[]) {
  return db
    .selectFrom('permit_approval_departments as pa')
    .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
    .select(['pa.permit_id', 'a.name'])
    .where('pa.permit_id', 'in', permitIds)
    .orderBy('pa.position')
    .execute();
}

/** How many risks each of the given permits has; a permit without risks is absent. */
export async function countRisksOfPermits(db: Executor, permitIds: number[]): Promise<Map<number, number>> {
  const counts = await db
    .selectFrom('risks')
    .select(['permit_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('permit_id', 'in', permitIds)
    .groupBy('permit_id')
    .execute();
  return new Map(counts.map((c) => [c.permit_id, Number(c.n)]));
}
