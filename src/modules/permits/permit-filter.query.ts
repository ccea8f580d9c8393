import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { likeContains, likePrefix, toCount } from '../../db/dialect.js';

/**
 * What the two permit filters ask for, resolved to ids and names: POST /admin/permits/filter
 * (one service department, docs/accounts.md) and the advanced filter (docs/maintenance.md).
 * Lists are non-empty when present; an empty `regionIds` matches nothing.
 */
export interface PermitCriteria {
  regionIds: number[] | 'all';
  themeIds?: number[];
  departments?: ApprovalDepartmentMatch;
  /** Text searched in permit names. */
  nameText?: string;
  visible?: 0 | 1;
}

/**
 * Approval departments named like any of `names` (equal to it or starting with it), or linked to
 * the service department `linkedTo` (`approval_departments.service_department_id`).
 */
export interface ApprovalDepartmentMatch {
  names: string[];
  linkedTo?: number;
}

/**
 * `lower(column) LIKE pattern` with backslash as the escape character. Both sides are lowered so
 * the match is case-insensitive on both databases: a bare LIKE ignores ASCII case on SQLite but
 * not on PostgreSQL, and the department filter matched differently on each.
 */
function likeLower(column: string, pattern: string) {
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern.toLowerCase()} escape '\\'`;
}

function filteredPermits(db: Executor, c: PermitCriteria) {
  let q = db.selectFrom('permits as p');
  if (c.regionIds !== 'all') q = q.where('p.region_id', 'in', c.regionIds);
  const { themeIds, departments, nameText } = c;
  if (themeIds) {
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('permit_themes as pt').select('pt.permit_id').whereRef('pt.permit_id', '=', 'p.id').where('pt.theme_id', 'in', themeIds)),
    );
  }
  if (departments) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('permit_approval_departments as pa')
          .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
          .select('pa.permit_id')
          .whereRef('pa.permit_id', '=', 'p.id')
          .where((eb) =>
            eb.or([
              ...(departments.linkedTo === undefined ? [] : [eb('a.service_department_id', '=', departments.linkedTo)]),
              ...departments.names.map((name) => likeLower('a.name', likePrefix(name))),
            ]),
          ),
      ),
    );
  }
  if (nameText) q = q.where(likeLower('p.name', likeContains(nameText)));
  if (c.visible !== undefined) q = q.where('p.visible', '=', c.visible);
  return q;
}

const noRegion = (c: PermitCriteria) => c.regionIds !== 'all' && c.regionIds.length === 0;

/** Ids of the matching permits in region, name, id order; all of them, or one page. */
export async function filteredPermitIds(db: Executor, c: PermitCriteria, page?: { limit: number; offset: number }): Promise<number[]> {
  if (noRegion(c)) return [];
  let q = filteredPermits(db, c).select('p.id').orderBy('p.region_id').orderBy('p.name').orderBy('p.id');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return (await q.execute()).map((r) => r.id);
}

/** How many permits match. */
export async function countFilteredPermits(db: Executor, c: PermitCriteria): Promise<number> {
  if (noRegion(c)) return 0;
  const row = await filteredPermits(db, c)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}
