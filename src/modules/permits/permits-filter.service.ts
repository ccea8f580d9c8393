import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import { parseRecordId } from '../../http/record-id.js';
import type { CurrentUser } from '../auth/current-user.js';
import { regionScope } from '../auth/data-scope.js';
import { findDepartmentById } from '../departments/departments.repository.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import { loadPermitPayloads, type PermitPayload } from './permit-payload.js';
import { filterPermitIds, type PermitFilter } from './permits-filter.repository.js';
import type { DepartmentFilterResult } from './permits.openapi.js';

export interface PermitFilterInput {
  municipal_dept_id?: string;
  district_dept_id?: string;
  region?: string;
  search_text?: string;
}

export type PermitFilterResult = Static<typeof DepartmentFilterResult>;

const result = (permits: PermitPayload[]): PermitFilterResult => ({
  permits,
  pagination: { total: permits.length, page: 1, page_size: permits.length },
});

/**
 * POST /admin/permits/filter. The district department, when given, is the narrower choice and
 * replaces the municipal one. An unknown department or region matches nothing (not an error),
 * and a user below grade 90 only ever sees its own region.
 */
export async function filterPermits(db: Executor, user: CurrentUser, input: PermitFilterInput): Promise<PermitFilterResult> {
  const filter: PermitFilter = { scope: regionScope(user), nameText: input.search_text };
  const deptToken = input.district_dept_id ?? input.municipal_dept_id;
  if (deptToken) {
    const id = parseRecordId(deptToken);
    const dept = id === null ? undefined : await findDepartmentById(db, id);
    if (!dept) return result([]);
    filter.department = { id: dept.id, name: dept.name };
  }
  if (input.region) {
    const region = await findRegionByToken(db, input.region);
    if (!region) return result([]);
    filter.regionId = region.id;
  }
  const ids = await filterPermitIds(db, filter);
  return result(await loadPermitPayloads(db, ids, { withRisks: false }));
}
