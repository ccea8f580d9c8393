import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import type { RegionScope } from '../auth/data-scope.js';
import { findRegionByToken, findRegionsByTokens, listRegionRows } from '../regions/regions.repository.js';
import { presentRegion } from '../regions/regions.presenter.js';
import { listThemeChoices, listUsedApprovalDepartments, pageAdvancedFilter } from './advanced-filter.repository.js';
import { loadPermitPayloads } from './permit-payload.js';
import type { PermitCriteria } from './permit-filter.query.js';
import { findThemeByToken } from './permit-lookup.js';
import type { AdvancedFilterResult, FilterOptions } from './permits.openapi.js';

export const VISIBILITIES = ['visible', 'hidden', 'all'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
/** Values per list; longer lists are refused rather than turned into unbounded SQL. */
export const MAX_FILTER_VALUES = 200;

export interface AdvancedFilterQuery {
  regions: string[];
  themes: string[];
  departments: string[];
  searchText?: string;
  visibility: Visibility;
  limit: number;
  offset: number;
}

export function parseVisibility(value: string | undefined): Visibility {
  const v = (value ?? 'all').toLowerCase();
  if (!(VISIBILITIES as readonly string[]).includes(v)) throw badRequest('visibility 只能是 visible、hidden 或 all');
  return v as Visibility;
}

function narrow(scope: RegionScope, ids: number[]): number[] {
  return scope === 'all' ? ids : ids.filter((id) => scope.includes(id));
}

/** Turns request tokens into ids; named values that match nothing make the whole filter match nothing. */
async function resolveFilter(db: Executor, scope: RegionScope, q: AdvancedFilterQuery): Promise<PermitCriteria | null> {
  for (const list of [q.regions, q.themes, q.departments]) {
    if (list.length > MAX_FILTER_VALUES) throw badRequest(`每类筛选条件最多 ${MAX_FILTER_VALUES} 个`);
  }
  const regionIds =
    q.regions.length === 0
      ? scope
      : narrow(
          scope,
          (await findRegionsByTokens(db, q.regions)).map((r) => r.id),
        );
  let themeIds: number[] | undefined;
  if (q.themes.length > 0) {
    const found = await Promise.all(q.themes.map((t) => findThemeByToken(db, t)));
    themeIds = [...new Set(found.flatMap((t) => (t ? [Number(t.id)] : [])))];
    if (themeIds.length === 0) return null;
  }
  return {
    regionIds,
    themeIds,
    departments: q.departments.length > 0 ? { names: q.departments } : undefined,
    nameText: q.searchText,
    visible: q.visibility === 'all' ? undefined : q.visibility === 'visible' ? 1 : 0,
  };
}

/** GET/POST /admin/permits/advanced-filter: permits (no risks) in the user's scope matching every given dimension. */
export async function advancedFilter(db: Executor, scope: RegionScope, q: AdvancedFilterQuery): Promise<Static<typeof AdvancedFilterResult>> {
  const filter = await resolveFilter(db, scope, q);
  const { ids, total } = filter ? await pageAdvancedFilter(db, filter, q.limit, q.offset) : { ids: [], total: 0 };
  const permits = await loadPermitPayloads(db, ids, { withRisks: false });
  return { permits, total, limit: q.limit, offset: q.offset };
}

/** GET /admin/permits/filter-options: what the filter can choose from, within the user's scope. */
export async function filterOptions(db: Executor, scope: RegionScope, regionToken: string | undefined): Promise<Static<typeof FilterOptions>> {
  const [regions, themes] = await Promise.all([listRegionRows(db), listThemeChoices(db)]);
  let departmentRegions = scope;
  if (regionToken) {
    const region = await findRegionByToken(db, regionToken);
    departmentRegions = region ? narrow(scope, [region.id]) : [];
  }
  return {
    regions: regions.filter((r) => scope === 'all' || scope.includes(r.id)).map(presentRegion),
    themes,
    departments: await listUsedApprovalDepartments(db, departmentRegions),
  };
}
