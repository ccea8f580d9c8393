import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import { parseRecordId } from '../../http/record-id.js';
import type { CurrentUser } from '../auth/current-user.js';
import { inScope, regionScope } from '../auth/data-scope.js';
import { findDepartmentById } from '../departments/departments.repository.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import { loadPermitPayloads } from './permit-payload.js';
import type { PermitPayload } from './permits.presenter.js';
import { filteredPermitIds, type PermitCriteria } from './permit-filter.query.js';
import type { DepartmentFilterResult } from './permits.openapi.js';

export interface PermitFilterInput {
  municipal_dept_id?: string;
  district_dept_id?: string;
  region?: string;
  search_text?: string;
}

export type PermitFilterResult = Static<typeof DepartmentFilterResult>;

const result = (permits: PermitPayload[]): PermitFilterResult => ({ permits, pagination: { total: permits.length, page: 1, page_size: permits.length } });

/**
 * POST /admin/permits/filter. The district department, when given, is the narrower choice and
 * replaces the municipal one. An unknown department or region matches nothing (not an error),
 * and a user below grade 90 only ever sees its own region.
 */
export async function filterPermits(db: Executor, user: CurrentUser, input: PermitFilterInput): Promise<PermitFilterResult> {
  const criteria: PermitCriteria = { regionIds: regionScope(user), nameText: input.search_text };
  const deptToken = input.district_dept_id ?? input.municipal_dept_id;
  if (deptToken) {
    const id = parseRecordId(deptToken);
    const dept = id === null ? undefined : await findDepartmentById(db, id);
    if (!dept) return result([]);
    // Its linked approval departments, and those named like it (docs/accounts.md).
    criteria.departments = { names: [dept.name], linkedTo: dept.id };
  }
  if (input.region) {
    const region = await findRegionByToken(db, input.region);
    if (!region) return result([]);
    criteria.regionIds = inScope(criteria.regionIds, region.id) ? [region.id] : [];
  }
  const ids = await filteredPermitIds(db, criteria);
  return result(await loadPermitPayloads(db, ids, { withRisks: false }));
}
