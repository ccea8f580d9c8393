import type { Selectable } from 'kysely';
import type { DB, Executor } from '../../db/database.js';
import type { CheckpointsTable } from './checkpoints.table.js';

export type CheckpointRow = Selectable<CheckpointsTable>;

/** Every checkpoint, newest first (the chunks stay in the database). */
export function listCheckpointRows(db: Executor): Promise<CheckpointRow[]> {
  return db.selectFrom('checkpoints').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export function findCheckpointRow(db: Executor, id: number): Promise<CheckpointRow | undefined> {
  return db.selectFrom('checkpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes a checkpoint with its chunks (explicitly, rather than relying on the cascade); answers whether it existed. */
export async function deleteCheckpointRow(db: DB, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('checkpoint_chunks').where('checkpoint_id', '=', id).execute();
    const result = await trx.deleteFrom('checkpoints').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
