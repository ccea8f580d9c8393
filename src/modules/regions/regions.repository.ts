import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { RegionsTable } from './regions.table.js';

export type RegionRow = Selectable<RegionsTable>;

/** The API shape of a region. */
export function presentRegion(r: RegionRow) {
  return { id: String(r.id), code: r.code, name: r.name };
}

export function listRegionRows(db: Executor): Promise<RegionRow[]> {
  return db.selectFrom('regions').selectAll().orderBy('id').execute();
}

/**
 * A region named by a request: by id (exact), by code, or by name, the last two
 * case-insensitively (decisions.md: "region values match a region by id, code or name").
 */
export async function findRegionByToken(db: Executor, token: string): Promise<RegionRow | undefined> {
  const t = token.trim();
  if (!t) return undefined;
  if (/^\d+$/.test(t) && t.length < 10) {
    const byId = await db.selectFrom('regions').selectAll().where('id', '=', Number(t)).executeTakeFirst();
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
  const all = await listRegionRows(db);
  const out = new Map<number, RegionRow>();
  for (const token of tokens) {
    const t = token.trim();
    const lower = t.toLowerCase();
    const hit =
      all.find((r) => String(r.id) === t) ??
      all.find((r) => (r.code ?? '').toLowerCase() === lower || r.name.toLowerCase() === lower);
    if (hit) out.set(hit.id, hit);
  }
  return [...out.values()];
}
