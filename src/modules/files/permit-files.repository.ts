import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { likeContains, toCount } from '../../db/dialect.js';
import type { RegionScope } from '../auth/data-scope.js';

type FileEb = ExpressionBuilder<Database & { f: Database['permit_files'] }, 'f'>;

/** Permits linked to the file, counted (or tested) within the user's regions only. */
function linkedPermits(eb: FileEb, scope: RegionScope) {
  let q = eb.selectFrom('permits as p').whereRef('p.source_file_id', '=', 'f.id');
  if (scope !== 'all') q = q.where('p.region_id', 'in', scope.length > 0 ? scope : [-1]);
  return q;
}

export interface FileListQuery {
  scope: RegionScope;
  keyword: string | undefined;
  limit: number;
  offset: number;
}

/**
 * Archived workbooks, newest first. Below grade 90 a file is listed only when it is linked to a
 * permit of the user's region, and only those permits are counted.
 */
export async function listPermitFiles(db: Executor, q: FileListQuery) {
  let base = db.selectFrom('permit_files as f');
  if (q.keyword) {
    const pattern = likeContains(q.keyword.toLowerCase());
    base = base.where(sql<boolean>`(lower(f.filename) like ${pattern} escape '\\' or lower(f.uploaded_by) like ${pattern} escape '\\')`);
  }
  if (q.scope !== 'all') base = base.where((eb) => eb.exists(linkedPermits(eb, q.scope).select('p.id')));
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .leftJoin('regions as r', 'r.id', 'f.region_id')
    .select(['f.id', 'f.filename', 'f.content_type', 'f.size', 'f.uploaded_by', 'f.created_at', 'f.region_id', 'r.name as region_name'])
    .select((eb) => linkedPermits(eb, q.scope).select(eb.fn.countAll<number>().as('n')).as('permit_count'))
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { rows, total: toCount(total.n) };
}

/** A file's description (no content), if the user's scope reaches it. */
export function findPermitFile(db: Executor, id: number, scope: RegionScope) {
  let q = db.selectFrom('permit_files as f').select(['f.id', 'f.filename', 'f.size', 'f.region_id']).where('f.id', '=', id);
  if (scope !== 'all') q = q.where((eb) => eb.exists(linkedPermits(eb, scope).select('p.id')));
  return q.executeTakeFirst();
}

export async function fileContent(db: Executor, id: number): Promise<Buffer> {
  const r = await db.selectFrom('permit_files').select('content').where('id', '=', id).executeTakeFirstOrThrow();
  return Buffer.from(r.content);
}

/** Region ids of the permits linked to a file (a workbook's content below grade 90 needs all of them in the user's scope). */
export async function linkedRegionIds(db: Executor, fileId: number): Promise<number[]> {
  const rows = await db.selectFrom('permits').select('region_id').distinct().where('source_file_id', '=', fileId).execute();
  return rows.map((r) => r.region_id);
}

/** Deletes the archived file; its permits keep their data and lose the link. */
export async function deletePermitFile(db: Executor, id: number): Promise<boolean> {
  await db.updateTable('permits').set({ source_file_id: null }).where('source_file_id', '=', id).execute();
  const r = await db.deleteFrom('permit_files').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The archived workbook a permit was imported from. */
export function findFileOfPermit(db: Executor, permitId: number) {
  return db
    .selectFrom('permits as p')
    .innerJoin('permit_files as f', 'f.id', 'p.source_file_id')
    .select(['f.id', 'f.filename', 'f.region_id', 'f.content'])
    .where('p.id', '=', permitId)
    .executeTakeFirst();
}
