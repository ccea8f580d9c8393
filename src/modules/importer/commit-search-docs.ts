import type { SearchDoc } from '../search/engine/types.js';
import { assembleSearchDocs, type SearchDocRows } from '../search/search-doc-rows.js';
import type { PlannedPermit, PlanRef } from './import-plan.types.js';

export interface CommittedIds {
  permitId: (p: PlannedPermit) => number;
  regionId: (r: PlanRef) => number;
  themeId: (t: PlanRef) => number;
}

/**
 * The search documents of the permits a commit created, made from what it has just written
 * rather than read back: every field, link and risk of a new permit is in the plan, and the risk
 * ids come back from their insert. Changed permits keep part of their stored state (their risks
 * when only a field changed), so the index reads those back from the database. `riskIds` holds
 * the ids of each created permit's risks, in the order of `created` and of its risk list.
 */
export function newPermitSearchDocs(created: PlannedPermit[], ids: CommittedIds, riskIds: number[][]): SearchDoc[] {
  const rows: SearchDocRows = { permits: [], themes: [], departments: [], risks: [] };
  created.forEach((p, k) => {
    const id = ids.permitId(p);
    const f = p.fields;
    rows.permits.push({
      id,
      region_id: ids.regionId(p.region),
      region_name: p.region.name,
      name: f.name,
      code: f.code,
      implementation_level: f.implementation_level,
      internal_contact: f.internal_contact,
      contact_info: f.contact_info,
      visible: f.visible ? 1 : 0,
    });
    for (const t of p.themes) rows.themes.push({ permit_id: id, id: ids.themeId(t), name: t.name });
    for (const name of p.approvalDepartments) rows.departments.push({ permit_id: id, name });
    p.risks.forEach((r, i) => rows.risks.push({ id: riskIds[k][i], permit_id: id, ...r }));
  });
  return assembleSearchDocs(created.map(ids.permitId), rows);
}
