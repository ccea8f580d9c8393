import type { Executor } from '../../db/database.js';
import { listRegionRows, type RegionRow } from '../regions/regions.repository.js';
import type { RiskFields } from '../permits/risk.schema.js';
import type { ExistingPermit, ImportState } from './import-plan.types.js';

/** Every region and theme, plus the permits (with links and risks) of the given regions. */
export async function loadImportState(db: Executor, regionIdsOf: (regions: RegionRow[]) => number[]): Promise<ImportState> {
  const [regions, themes] = await Promise.all([listRegionRows(db), db.selectFrom('themes').select(['id', 'name']).orderBy('id').execute()]);
  const existing = await loadExistingPermits(db, regionIdsOf(regions));
  return { regions, themes, existing };
}

/** The permits of the given regions as the plan compares them: fields, theme ids, departments, risks. */
export async function loadExistingPermits(db: Executor, regionIds: number[]): Promise<ExistingPermit[]> {
  if (regionIds.length === 0) return [];
  const permits = await db
    .selectFrom('permits')
    .select(['id', 'region_id', 'code', 'name', 'implementation_level', 'internal_contact', 'contact_info', 'visible', 'source_file_id'])
    .where('region_id', 'in', regionIds)
    .orderBy('id')
    .execute();
  const byId = new Map<number, ExistingPermit>();
  for (const p of permits) {
    byId.set(p.id, { ...p, visible: p.visible === 1, themeIds: [], approvalDepartments: [], risks: [] });
  }
  // Links and risks by region (a join), not by permit id: three statements whatever the size.
  const [themes, depts, risks] = await Promise.all([
    db
      .selectFrom('permit_themes as pt')
      .innerJoin('permits as p', 'p.id', 'pt.permit_id')
      .select(['pt.permit_id', 'pt.theme_id'])
      .where('p.region_id', 'in', regionIds)
      .execute(),
    db
      .selectFrom('permit_approval_departments as pa')
      .innerJoin('permits as p', 'p.id', 'pa.permit_id')
      .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
      .select(['pa.permit_id', 'a.name'])
      .where('p.region_id', 'in', regionIds)
      .orderBy('pa.permit_id')
      .orderBy('pa.position')
      .execute(),
    db
      .selectFrom('risks as r')
      .innerJoin('permits as p', 'p.id', 'r.permit_id')
      .select(['r.permit_id', 'r.risk_type', 'r.title', 'r.description', 'r.legal_basis', 'r.consequence', 'r.prevention', 'r.level'])
      .where('p.region_id', 'in', regionIds)
      .orderBy('r.permit_id')
      .orderBy('r.position')
      .execute(),
  ]);
  for (const t of themes) byId.get(t.permit_id)?.themeIds.push(t.theme_id);
  for (const d of depts) byId.get(d.permit_id)?.approvalDepartments.push(d.name);
  for (const { permit_id, ...risk } of risks) byId.get(permit_id)?.risks.push(risk satisfies RiskFields);
  return [...byId.values()];
}

/** The region-theme options of the given regions: `{id: theme id, name, option_id}` per region. */
export async function loadRegionThemeOptions(db: Executor, regionIds: number[]) {
  if (regionIds.length === 0) return [];
  return db
    .selectFrom('region_themes as rt')
    .innerJoin('themes as t', 't.id', 'rt.theme_id')
    .select(['rt.region_id', 'rt.id as option_id', 't.id', 't.name'])
    .where('rt.region_id', 'in', regionIds)
    .orderBy('rt.region_id')
    .orderBy('t.name')
    .execute();
}
