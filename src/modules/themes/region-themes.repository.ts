import { chunked, ID_CHUNK, INSERT_CHUNK } from '../../db/batch.js';
import type { Executor } from '../../db/database.js';
import { presentRegionThemeOption, type RegionThemeOption } from './themes.presenter.js';

/**
 * The themes of a region, each once: those the region offers (region_themes) and those its
 * permits are linked to even without an option row, in catalogue order.
 */
export async function listRegionThemeOptions(db: Executor, regionId: number): Promise<RegionThemeOption[]> {
  const rows = await db
    .selectFrom('themes as t')
    .leftJoin('region_themes as rt', (j) => j.onRef('rt.theme_id', '=', 't.id').on('rt.region_id', '=', regionId))
    .select((eb) => [
      't.id',
      't.name',
      'rt.id as option_id',
      eb
        .selectFrom('permit_themes as pt')
        .innerJoin('permits as p', 'p.id', 'pt.permit_id')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('pt.theme_id', '=', 't.id')
        .where('p.region_id', '=', regionId)
        .as('permit_count'),
    ])
    .orderBy('t.id')
    .execute();
  return rows.map(presentRegionThemeOption).filter((r) => r.option_id !== null || r.permit_count > 0);
}

/** Offers each theme in each region it is now used in (the region-theme options of 2.3). */
export async function ensureRegionThemes(db: Executor, pairs: Array<{ region_id: number; theme_id: number }>): Promise<void> {
  if (pairs.length === 0) return;
  const regionIds = [...new Set(pairs.map((p) => p.region_id))];
  const have = new Set<string>();
  for (const part of chunked(regionIds, ID_CHUNK)) {
    const rows = await db.selectFrom('region_themes').select(['region_id', 'theme_id']).where('region_id', 'in', part).execute();
    for (const r of rows) have.add(`${r.region_id}:${r.theme_id}`);
  }
  const missing = new Map<string, { region_id: number; theme_id: number }>();
  for (const p of pairs) if (!have.has(`${p.region_id}:${p.theme_id}`)) missing.set(`${p.region_id}:${p.theme_id}`, p);
  for (const part of chunked([...missing.values()], INSERT_CHUNK)) await db.insertInto('region_themes').values(part).execute();
}
