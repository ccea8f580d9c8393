import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import type { RegionScope } from '../auth/data-scope.js';
import type { CatalogueStatistics } from './statistics.openapi.js';

const LEVEL_ORDER = ['高', '中', '低'];

/** Permit and risk totals (risks by level) within a data scope, for the dashboard. */
export async function catalogueStatistics(db: Executor, scope: RegionScope): Promise<Static<typeof CatalogueStatistics>> {
  const limited = scope !== 'all';
  const regionIds = scope === 'all' || scope.length === 0 ? [-1] : scope;
  const permits = await db
    .selectFrom('permits')
    .select(['visible', (eb) => eb.fn.countAll<number>().as('n')])
    .$if(limited, (q) => q.where('region_id', 'in', regionIds))
    .groupBy('visible')
    .execute();
  const levels = await db
    .selectFrom('risks as r')
    .innerJoin('permits as p', 'p.id', 'r.permit_id')
    .select(['r.level', (eb) => eb.fn.countAll<number>().as('n')])
    .$if(limited, (q) => q.where('p.region_id', 'in', regionIds))
    .groupBy('r.level')
    .execute();

  const visible = Number(permits.find((r) => r.visible === 1)?.n ?? 0);
  const hidden = Number(permits.find((r) => r.visible !== 1)?.n ?? 0);
  const rank = (level: string) => LEVEL_ORDER.indexOf(level) + 1 || LEVEL_ORDER.length + 1;
  const byLevel = levels.map((r) => ({ level: r.level ?? '未分级', count: Number(r.n) })).sort((a, b) => rank(a.level) - rank(b.level));
  return { permits: { total: visible + hidden, visible, hidden }, risks: { total: byLevel.reduce((s, l) => s + l.count, 0), by_level: byLevel } };
}
