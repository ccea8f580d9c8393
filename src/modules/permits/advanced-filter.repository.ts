import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { likeContains, likePrefix, toCount } from '../../db/dialect.js';

/** A resolved advanced filter: every list is non-empty when present (an empty one matches nothing upstream). */
export interface AdvancedPermitFilter {
  regionIds: number[] | 'all';
  themeIds?: number[];
  /** Approval department names or prefixes of them. */
  departments?: string[];
  /** Text searched in permit names. */
  nameText?: string;
  visible?: 0 | 1;
}

/** `lower(column) LIKE pattern` with backslash as the escape character, identical on SQLite and PostgreSQL. */
function likeLower(column: string, pattern: string) {
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern.toLowerCase()} escape '\\'`;
}

function filteredPermits(db: Executor, f: AdvancedPermitFilter) {
  let q = db.selectFrom('permits as p');
  if (f.regionIds !== 'all') q = q.where('p.region_id', 'in', f.regionIds);
  const { themeIds, departments, nameText } = f;
  if (themeIds) {
    q = q.where(({ exists, selectFrom }) =>
      exists(selectFrom('permit_themes as pt').select('pt.permit_id').whereRef('pt.permit_id', '=', 'p.id').where('pt.theme_id', 'in', themeIds)),
    );
  }
  if (departments) {
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('permit_approval_departments as pa')
          .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
          .select('pa.permit_id')
          .whereRef('pa.permit_id', '=', 'p.id')
          .where((eb) => eb.or(departments.map((d) => likeLower('a.name', likePrefix(d))))),
      ),
    );
  }
  if (nameText) q = q.where(likeLower('p.name', likeContains(nameText)));
  if (f.visible !== undefined) q = q.where('p.visible', '=', f.visible);
  return q;
}

/** One page of matching permit ids (region, then name order) and the total under the same filter. */
export async function pageAdvancedFilter(db: Executor, f: AdvancedPermitFilter, limit: number, offset: number) {
  if (f.regionIds !== 'all' && f.regionIds.length === 0) return { ids: [], total: 0 };
  const [count, rows] = await Promise.all([
    filteredPermits(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    filteredPermits(db, f).select('p.id').orderBy('p.region_id').orderBy('p.name').orderBy('p.id').limit(limit).offset(offset).execute(),
  ]);
  return { ids: rows.map((r) => r.id), total: toCount(count.n) };
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
  return rows.map((t) => ({ id: String(t.id), name: t.name }));
}
