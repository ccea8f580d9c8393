import type { Static } from '@sinclair/typebox';
import type { SnapshotList, SnapshotRestoreResult } from '../../../src/modules/snapshots/snapshots.openapi.ts';
import { api } from '../shared/api';

export type SnapshotListPayload = Static<typeof SnapshotList>;
export type SnapshotEntryPayload = SnapshotListPayload['snapshots'][number];

export const fetchSnapshots = (query: { region_id?: string; permit_id?: string; edited_by?: string; limit: number; offset: number }) =>
  api.get<SnapshotListPayload>('/admin/permit-risk-snapshots', query);

/** Puts the batch's permits back; their state just before is saved as a new batch. */
export const restoreSnapshot = (batchId: string, changeSummary: string) =>
  api.post<Static<typeof SnapshotRestoreResult>>(`/admin/permit-risk-snapshots/${encodeURIComponent(batchId)}/restore`, { change_summary: changeSummary });
