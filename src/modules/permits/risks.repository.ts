import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { RisksTable } from './permits.table.js';

export type RiskRow = Selectable<RisksTable>;
export type RiskFields = Omit<Insertable<RisksTable>, 'id' | 'permit_id'>;

/** A permit's risks in their order. */
export function listPermitRisks(db: Executor, permitId: number): Promise<RiskRow[]> {
  return db.selectFrom('risks').selectAll().where('permit_id', '=', permitId).orderBy('position').orderBy('id').execute();
}

export async function insertRisk(db: Executor, permitId: number, fields: RiskFields): Promise<void> {
  await db.insertInto('risks').values({ permit_id: permitId, ...fields }).execute();
}

export async function updateRisk(db: Executor, id: number, fields: Updateable<RisksTable>): Promise<void> {
  await db.updateTable('risks').set(fields).where('id', '=', id).execute();
}

export async function deleteRisks(db: Executor, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('risks').where('id', 'in', ids).execute();
}
