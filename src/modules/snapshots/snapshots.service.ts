import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import type { RegionScope } from '../auth/data-scope.js';
import { parseRecordId } from '../../http/record-id.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import type { SnapshotList } from './snapshots.openapi.js';
import { presentSnapshotEntry } from './snapshots.presenter.js';
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
  return { snapshots: rows.map(presentSnapshotEntry), pagination: { limit: q.limit, offset: q.offset, total } };
}
