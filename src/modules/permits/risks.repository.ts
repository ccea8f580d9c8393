import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { RisksTable } from './permits.table.js';
import type { RiskFields } from './risk.schema.js';

export type RiskRow = Selectable<RisksTable>;

/** A permit's risks in their order. */
export function listPermitRisks(db: Executor, permitId: number): Promise<RiskRow[]> {
  return db.selectFrom('risks').selectAll().where('permit_id', '=', permitId).orderBy('position').orderBy('id').execute();
}

export async function insertRisk(db: Executor, permitId: number, fields: RiskFields & { position: number }): Promise<void> {
  await db
    .insertInto('risks')
    .values({ permit_id: permitId, ...fields })
    .execute();
}

export async function updateRisk(db: Executor, id: number, fields: Updateable<RisksTable>): Promise<void> {
  await db.updateTable('risks').set(fields).where('id', '=', id).execute();
}

export async function deleteRisks(db: Executor, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('risks').where('id', 'in', ids).execute();
}
