import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import type { RegionScope } from '../auth/data-scope.js';
import { parseRecordId } from '../../http/record-id.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import type { SnapshotList } from './snapshots.openapi.js';
import { listSnapshotEntries } from './snapshots.repository.js';

export interface SnapshotQuery {
  region?: string;
  permit?: string;
  editedBy?: string;
  limit: number;
  offset: number;
}

/** Region ids the list may show: the user's scope, narrowed to the requested region. */
async function regionFilter(db: Executor, scope: RegionScope, token: string | undefined): Promise<number[] | 'all'> {
  if (!token) return scope;
  // A region deleted since its snapshots were taken can still be named by its id.
  const id = (await findRegionByToken(db, token))?.id ?? parseRecordId(token);
  if (id === null) return [];
  return scope === 'all' || scope.includes(id) ? [id] : [];
}

/** GET /admin/permit-risk-snapshots: one item per (batch, permit), newest first. */
export async function listSnapshots(db: Executor, scope: RegionScope, q: SnapshotQuery): Promise<Static<typeof SnapshotList>> {
  const { rows, total } = await listSnapshotEntries(db, {
    regionIds: await regionFilter(db, scope, q.region),
    permit: q.permit === undefined ? undefined : { id: parseRecordId(q.permit), text: q.permit },
    editedBy: q.editedBy,
    limit: q.limit,
    offset: q.offset,
  });
  const snapshots = rows.map((r) => ({
    batch_id: String(r.batch_id),
    region_id: String(r.region_id),
    region_name: r.region_name,
    permit_id: String(r.permit_id),
    permit_name: r.permit_name,
    permit_code: r.permit_code,
    edited_by: r.edited_by,
    change_summary: r.change_summary,
    reason: r.reason,
    created_at: r.created_at,
    risk_count: r.risk_count,
  }));
  return { snapshots, pagination: { limit: q.limit, offset: q.offset, total } };
}
