import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { likeContains, likePrefix } from '../../db/dialect.js';
import type { RegionScope } from '../auth/data-scope.js';

export interface PermitFilter {
  scope: RegionScope;
  regionId?: number;
  /** Permit-name text, matched as a substring (ASCII case-insensitively). */
  nameText?: string;
  /** Permits handled by this service department: linked approval department, or one whose name is or starts with its name. */
  department?: { id: number; name: string };
}

/** Ids of the permits matching every given criterion, by region then name. */
export async function filterPermitIds(db: Executor, f: PermitFilter): Promise<number[]> {
  if (f.scope !== 'all' && f.scope.length === 0) return [];
  let q = db.selectFrom('permits as p').select('p.id');
  if (f.scope !== 'all') q = q.where('p.region_id', 'in', f.scope);
  if (f.regionId !== undefined) q = q.where('p.region_id', '=', f.regionId);
  if (f.nameText) q = q.where(sql<boolean>`lower(p.name) like ${likeContains(f.nameText.toLowerCase())} escape '\\'`);
  const dept = f.department;
  if (dept) {
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('permit_approval_departments as pa')
          .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
          .select('pa.permit_id')
          .whereRef('pa.permit_id', '=', 'p.id')
          .where((eb) =>
            eb.or([
              eb('a.service_department_id', '=', dept.id),
              eb('a.name', '=', dept.name),
              sql<boolean>`a.name like ${likePrefix(dept.name)} escape '\\'`,
            ]),
          ),
      ),
    );
  }
  const rows = await q.orderBy('p.region_id').orderBy('p.name').orderBy('p.id').execute();
  return rows.map((r) => r.id);
}
