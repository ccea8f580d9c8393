import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import type { RegionThemeOption as RegionThemeOptionSchema } from './themes.openapi.js';

export type RegionThemeOption = Static<typeof RegionThemeOptionSchema>;

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
  return rows
    .map((r) => ({
      id: String(r.id),
      name: r.name,
      option_id: r.option_id === null ? null : String(r.option_id),
      permit_count: Number(r.permit_count ?? 0),
    }))
    .filter((r) => r.option_id !== null || r.permit_count > 0);
}
