import type { Executor } from '../../db/database.js';
import type { RegionScope } from '../auth/data-scope.js';

export type Visibility = 'visible' | 'hidden' | 'all';

/** Themes with the number of search-visible permits linked to each (hidden permits never count). */
export async function listThemesWithVisibleCounts(db: Executor) {
  const rows = await db
    .selectFrom('themes as t')
    .leftJoin('permit_themes as pt', 'pt.theme_id', 't.id')
    .leftJoin('permits as p', (j) => j.onRef('p.id', '=', 'pt.permit_id').on('p.visible', '=', 1))
    .select(['t.id', 't.name', (eb) => eb.fn.count<number>('p.id').as('n')])
    .groupBy(['t.id', 't.name'])
    .orderBy('t.name')
    .execute();
  return rows.map((r) => ({ id: String(r.id), name: r.name, permit_count: Number(r.n) }));
}

/**
 * Ids of permits bound to no theme, filtered by visibility, in region then name order. Visible
 * permits are public; hidden ones are listed only within `hiddenScope`, the caller's data scope.
 */
export async function listUnboundPermitIds(db: Executor, visibility: Visibility, hiddenScope: RegionScope): Promise<number[]> {
  const rows = await db
    .selectFrom('permits as p')
    .select('p.id')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('permit_themes as pt').select('pt.permit_id').whereRef('pt.permit_id', '=', 'p.id'))))
    .where((eb) => {
      const visible = eb('p.visible', '=', 1);
      const hidden =
        hiddenScope === 'all'
          ? eb('p.visible', '=', 0)
          : eb.and([eb('p.visible', '=', 0), eb('p.region_id', 'in', hiddenScope.length > 0 ? hiddenScope : [-1])]);
      if (visibility === 'visible') return visible;
      return visibility === 'hidden' ? hidden : eb.or([visible, hidden]);
    })
    .orderBy('p.region_id')
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => r.id);
}

/** Ids of the search-visible permits of one region, by name. */
export async function listVisiblePermitIds(db: Executor, regionId: number): Promise<number[]> {
  const rows = await db.selectFrom('permits').select('id').where('region_id', '=', regionId).where('visible', '=', 1).orderBy('name').orderBy('id').execute();
  return rows.map((r) => r.id);
}
