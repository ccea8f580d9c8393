import type { Executor } from '../../db/database.js';
import { chunked, ID_CHUNK } from '../../db/batch.js';
import { toCount } from '../../db/dialect.js';

export interface SnapshotListFilter {
  /** Region ids to show ('all' = no restriction); empty shows nothing. */
  regionIds: number[] | 'all';
  permit?: { id: number | null; text: string };
  editedBy?: string;
  limit: number;
  offset: number;
}

function filtered(db: Executor, f: SnapshotListFilter) {
  let q = db.selectFrom('snapshot_permits as sp').innerJoin('snapshot_batches as b', 'b.id', 'sp.batch_id').leftJoin('regions as r', 'r.id', 'sp.region_id');
  if (f.regionIds !== 'all') q = q.where('sp.region_id', 'in', f.regionIds);
  if (f.editedBy !== undefined) q = q.where('b.edited_by', '=', f.editedBy);
  const permit = f.permit;
  if (permit) {
    // A permit is named by id, code or name: it may since have been deleted, so the snapshot's own copy is matched.
    q = q.where((eb) =>
      eb.or([
        ...(permit.id !== null ? [eb('sp.permit_id', '=', permit.id)] : []),
        eb('sp.permit_code', '=', permit.text),
        eb('sp.permit_name', '=', permit.text),
      ]),
    );
  }
  return q;
}

/** One item per (batch, permit), newest batch first, with the total under the same filter. */
export async function listSnapshotEntries(db: Executor, f: SnapshotListFilter) {
  if (f.regionIds !== 'all' && f.regionIds.length === 0) return { rows: [], total: 0 };
  const [count, rows] = await Promise.all([
    filtered(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    filtered(db, f)
      .select([
        'b.id as batch_id',
        'sp.region_id',
        'r.name as region_name',
        'sp.permit_id',
        'sp.permit_name',
        'sp.permit_code',
        'b.edited_by',
        'b.change_summary',
        'b.reason',
        'b.created_at',
        'sp.risk_count',
      ])
      .orderBy('b.created_at', 'desc')
      .orderBy('b.id', 'desc')
      .orderBy('sp.id')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
  ]);
  return { rows, total: toCount(count.n) };
}

export function findSnapshotBatch(db: Executor, id: number) {
  return db.selectFrom('snapshot_batches').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listBatchPermits(db: Executor, batchId: number) {
  return db.selectFrom('snapshot_permits').selectAll().where('batch_id', '=', batchId).orderBy('id').execute();
}

/** Replaces the risks of the batch's permits by the batch's copies; returns how many were put back. */
export async function putBackBatchRisks(db: Executor, batchId: number, permitIds: number[]): Promise<number> {
  for (const part of chunked(permitIds, ID_CHUNK)) await db.deleteFrom('risks').where('permit_id', 'in', part).execute();
  const r = await db
    .insertInto('risks')
    .columns(['permit_id', 'position', 'risk_type', 'title', 'description', 'legal_basis', 'consequence', 'prevention', 'level'])
    .expression((eb) =>
      eb
        .selectFrom('snapshot_risks as sr')
        .innerJoin('snapshot_permits as sp', 'sp.id', 'sr.snapshot_permit_id')
        .select(['sp.permit_id', 'sr.position', 'sr.risk_type', 'sr.title', 'sr.description', 'sr.legal_basis', 'sr.consequence', 'sr.prevention', 'sr.level'])
        .where('sp.batch_id', '=', batchId)
        .orderBy('sp.id')
        .orderBy('sr.position'),
    )
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}
