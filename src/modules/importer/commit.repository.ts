import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { chunked, ID_CHUNK, INSERT_CHUNK } from '../../db/batch.js';
import type { BulkInsert } from '../../db/bulk-insert.js';
import type { RiskFields } from '../permits/risk.schema.js';
import type { PermitFields } from './import-plan.types.js';

export async function insertTheme(db: Executor, name: string, now: string): Promise<number> {
  const r = await db.insertInto('themes').values({ name, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** The archived copy of a workbook with this content and name, if one is stored already. */
export async function findArchivedFile(db: Executor, sha256: string, filename: string): Promise<number | null> {
  const r = await db.selectFrom('permit_files').select('id').where('sha256', '=', sha256).where('filename', '=', filename).orderBy('id').executeTakeFirst();
  return r?.id ?? null;
}

export async function insertArchivedFile(db: Executor, row: Insertable<Database['permit_files']>): Promise<number> {
  const r = await db.insertInto('permit_files').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

const permitColumns = (f: PermitFields) => ({
  code: f.code,
  name: f.name,
  implementation_level: f.implementation_level,
  internal_contact: f.internal_contact,
  contact_info: f.contact_info,
  visible: f.visible ? 1 : 0,
});

export interface NewPermitRow {
  key: string;
  regionId: number;
  fields: PermitFields;
}

/** Inserts permits; answers each new id by the permit's plan key. */
export async function insertPermits(bulk: BulkInsert, rows: NewPermitRow[], sourceFileId: number, now: string): Promise<Map<string, number>> {
  const ids = await bulk(
    'permits',
    rows.map((r) => ({ region_id: r.regionId, ...permitColumns(r.fields), source_file_id: sourceFileId, created_at: now, updated_at: now })),
  );
  return new Map(rows.map((r, i) => [r.key, ids[i]]));
}

export async function updatePermit(db: Executor, id: number, fields: PermitFields, sourceFileId: number, now: string): Promise<void> {
  await db
    .updateTable('permits')
    .set({ ...permitColumns(fields), source_file_id: sourceFileId, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Links permits whose content did not change to the archived workbook they were (re)confirmed by. */
export async function linkPermitsToFile(db: Executor, ids: number[], fileId: number): Promise<void> {
  for (const part of chunked(ids, ID_CHUNK)) {
    await db
      .updateTable('permits')
      .set({ source_file_id: fileId })
      .where('id', 'in', part)
      .where((eb) => eb.or([eb('source_file_id', 'is', null), eb('source_file_id', '!=', fileId)]))
      .execute();
  }
}

export async function deleteRisksOf(db: Executor, permitIds: number[]): Promise<void> {
  for (const part of chunked(permitIds, ID_CHUNK)) await db.deleteFrom('risks').where('permit_id', 'in', part).execute();
}

/** Inserts each permit's risk list (positions from 1); answers the new ids, list by list. */
export async function insertRisks(bulk: BulkInsert, lists: Array<{ permitId: number; risks: RiskFields[] }>): Promise<number[][]> {
  const ids = await bulk(
    'risks',
    lists.flatMap(({ permitId, risks }) => risks.map((r, i) => ({ permit_id: permitId, position: i + 1, ...r }))),
  );
  let at = 0;
  return lists.map(({ risks }) => ids.slice(at, (at += risks.length)));
}

export async function replaceApprovalLinks(db: Executor, links: Array<{ permitId: number; departmentIds: number[] }>, replace: number[]): Promise<void> {
  for (const part of chunked(replace, ID_CHUNK)) {
    await db.deleteFrom('permit_approval_departments').where('permit_id', 'in', part).execute();
  }
  const rows = links.flatMap(({ permitId, departmentIds }) =>
    departmentIds.map((id, i) => ({ permit_id: permitId, approval_department_id: id, position: i + 1 })),
  );
  for (const part of chunked(rows, INSERT_CHUNK)) await db.insertInto('permit_approval_departments').values(part).execute();
}

export async function addThemeLinks(db: Executor, pairs: Array<{ permit_id: number; theme_id: number }>): Promise<void> {
  for (const part of chunked(pairs, INSERT_CHUNK)) await db.insertInto('permit_themes').values(part).execute();
}

export async function removeThemeLinks(db: Executor, permitId: number, themeIds: number[]): Promise<void> {
  if (themeIds.length === 0) return;
  await db.deleteFrom('permit_themes').where('permit_id', '=', permitId).where('theme_id', 'in', themeIds).execute();
}
