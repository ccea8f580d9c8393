import type { Static } from '@sinclair/typebox';
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { lowerEquals } from '../../db/dialect.js';
import { parseRecordId } from '../../http/record-id.js';
import type { RegionWithUsage } from './regions.openapi.js';
import { presentRegionWithUsage } from './regions.presenter.js';
import type { RegionsTable } from './regions.table.js';

export type RegionRow = Selectable<RegionsTable>;

export function listRegionRows(db: Executor): Promise<RegionRow[]> {
  return db.selectFrom('regions').selectAll().orderBy('id').execute();
}

/**
 * A region named by a request: by id (exact), by code, or by name, the last two
 * case-insensitively (docs/search.md: region values match a region by id, code or name).
 */
export async function findRegionByToken(db: Executor, token: string): Promise<RegionRow | undefined> {
  const t = token.trim();
  if (!t) return undefined;
  const id = parseRecordId(t);
  if (id !== null) {
    const byId = await db.selectFrom('regions').selectAll().where('id', '=', id).executeTakeFirst();
    if (byId) return byId;
  }
  const lower = t.toLowerCase();
  return db
    .selectFrom('regions')
    .selectAll()
    .where((eb) => eb.or([eb(sql`lower(code)`, '=', lower), eb(sql`lower(name)`, '=', lower)]))
    .orderBy('id')
    .executeTakeFirst();
}

/** Regions matched by any of several tokens (unknown tokens match nothing). */
export async function findRegionsByTokens(db: Executor, tokens: string[]): Promise<RegionRow[]> {
  return matchRegionTokens(await listRegionRows(db), tokens);
}

/** The matching rule of findRegionsByTokens over an already loaded region list. */
export function matchRegionTokens(all: RegionRow[], tokens: string[]): RegionRow[] {
  const out = new Map<number, RegionRow>();
  for (const token of tokens) {
    const t = token.trim();
    const lower = t.toLowerCase();
    const hit = all.find((r) => String(r.id) === t) ?? all.find((r) => (r.code ?? '').toLowerCase() === lower || r.name.toLowerCase() === lower);
    if (hit) out.set(hit.id, hit);
  }
  return [...out.values()];
}

export function findRegionById(db: Executor, id: number): Promise<RegionRow | undefined> {
  return db.selectFrom('regions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Regions with how many permits and service departments use each (what blocks a deletion). */
export async function listRegionsWithUsage(db: Executor, ids: number[] | 'all'): Promise<Static<typeof RegionWithUsage>[]> {
  if (ids !== 'all' && ids.length === 0) return [];
  let q = db
    .selectFrom('regions as r')
    .selectAll('r')
    .select((eb) => [
      eb.selectFrom('permits as p').select(eb.fn.countAll<number>().as('n')).whereRef('p.region_id', '=', 'r.id').as('permit_count'),
      eb.selectFrom('service_departments as d').select(eb.fn.countAll<number>().as('n')).whereRef('d.region_id', '=', 'r.id').as('department_count'),
    ]);
  if (ids !== 'all') q = q.where('r.id', 'in', ids);
  const rows = await q.orderBy('r.id').execute();
  return rows.map(presentRegionWithUsage);
}

/** Another region already holding this name or code (case-insensitive), if any. */
export function findRegionClash(db: Executor, field: 'name' | 'code', value: string, exceptId: number | null) {
  let q = db.selectFrom('regions').selectAll().where(lowerEquals(field, value));
  if (exceptId !== null) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

export function insertRegion(db: Executor, row: { name: string; code: string | null; created_at: string }): Promise<RegionRow> {
  return db.insertInto('regions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateRegionRow(db: Executor, id: number, patch: { name?: string; code?: string | null }): Promise<RegionRow> {
  return db.updateTable('regions').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteRegionRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('regions').where('id', '=', id).execute();
}
