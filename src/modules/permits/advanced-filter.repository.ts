import type { Executor } from '../../db/database.js';
import { toCount } from '../../db/dialect.js';
import { presentThemeRef } from '../themes/themes.presenter.js';
import { countFilteredPermits, filteredPermitIds, type PermitCriteria } from './permit-filter.query.js';

/** One page of matching permit ids (region, then name order) and the total under the same filter. */
export async function pageAdvancedFilter(db: Executor, f: PermitCriteria, limit: number, offset: number) {
  const [total, ids] = await Promise.all([countFilteredPermits(db, f), filteredPermitIds(db, f, { limit, offset })]);
  return { ids, total };
}

/** Approval departments used by permits of the given regions, with how many permits each. */
export async function listUsedApprovalDepartments(db: Executor, regionIds: number[] | 'all') {
  if (regionIds !== 'all' && regionIds.length === 0) return [];
  let q = db
    .selectFrom('approval_departments as a')
    .innerJoin('permit_approval_departments as pa', 'pa.approval_department_id', 'a.id')
    .innerJoin('permits as p', 'p.id', 'pa.permit_id')
    .select(['a.id', 'a.name', (eb) => eb.fn.count<number>('p.id').distinct().as('n')])
    .groupBy(['a.id', 'a.name']);
  if (regionIds !== 'all') q = q.where('p.region_id', 'in', regionIds);
  const rows = await q.orderBy('a.name').execute();
  return rows.map((r) => ({ id: String(r.id), name: r.name, permit_count: toCount(r.n) }));
}

/** The theme catalogue as filter choices, in catalogue order. */
export async function listThemeChoices(db: Executor) {
  const rows = await db.selectFrom('themes').select(['id', 'name']).orderBy('id').execute();
  return rows.map(presentThemeRef);
}
