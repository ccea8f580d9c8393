import type { Static } from '@sinclair/typebox';
import type { Checkpoint, CheckpointRestoreResult } from '../../../src/modules/checkpoints/checkpoints.openapi.ts';
import { api } from '../shared/api';

export type CheckpointPayload = Static<typeof Checkpoint>;
export type CheckpointRestorePayload = Static<typeof CheckpointRestoreResult>;

const checkpointPath = (id: string) => `/admin/checkpoints/${encodeURIComponent(id)}`;

export const fetchCheckpoints = async () => (await api.get<{ checkpoints: CheckpointPayload[] }>('/admin/checkpoints')).checkpoints;

export const createCheckpoint = (description: string) => api.post<CheckpointPayload>('/admin/checkpoints', { description });

/** Replaces every covered table with the checkpoint's rows, after an automatic backup when asked. */
export const restoreCheckpoint = (id: string, createAutoBackup: boolean) =>
  api.post<CheckpointRestorePayload>(`${checkpointPath(id)}/restore`, { create_auto_backup: createAutoBackup });

export const deleteCheckpoint = (id: string) => api.delete(checkpointPath(id));
