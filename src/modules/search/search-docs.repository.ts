import type { Executor } from '../../db/database.js';
import { chunked, ID_CHUNK } from '../../db/batch.js';
import type { SearchDoc } from './engine/types.js';

/** Page size for loading the whole catalogue: bounded memory per query, few round trips. */
const LOAD_PAGE = 2000;

async function docsFor(db: Executor, permitIds: number[]): Promise<SearchDoc[]> {
  if (permitIds.length === 0) return [];
  const [permits, themes, depts, risks] = await Promise.all([
    db
      .selectFrom('permits as p')
      .innerJoin('regions as r', 'r.id', 'p.region_id')
      .select(['p.id', 'p.region_id', 'r.name as region_name', 'p.name', 'p.code', 'p.implementation_level',
        'p.internal_contact', 'p.contact_info', 'p.visible'])
      .where('p.id', 'in', permitIds)
      .execute(),
    db
      .selectFrom('permit_themes as pt')
      .innerJoin('themes as t', 't.id', 'pt.theme_id')
      .select(['pt.permit_id', 't.id', 't.name'])
      .where('pt.permit_id', 'in', permitIds)
      .orderBy('t.name')
      .execute(),
    db
      .selectFrom('permit_approval_departments as pa')
      .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
      .select(['pa.permit_id', 'a.name'])
      .where('pa.permit_id', 'in', permitIds)
      .orderBy('pa.position')
      .execute(),
    db.selectFrom('risks').selectAll().where('permit_id', 'in', permitIds).orderBy('permit_id').orderBy('position').execute(),
  ]);
  const byPermit = new Map<number, SearchDoc>();
  for (const p of permits) {
    byPermit.set(p.id, {
      permitId: String(p.id),
      regionId: String(p.region_id),
      regionName: p.region_name,
      name: p.name,
      code: p.code,
      implementationLevel: p.implementation_level,
      approvalDepartments: [],
      internalContact: p.internal_contact,
      contactInfo: p.contact_info,
      themes: [],
      visible: p.visible === 1,
      risks: [],
    });
  }
  for (const t of themes) byPermit.get(t.permit_id)?.themes.push({ id: String(t.id), name: t.name });
  for (const d of depts) byPermit.get(d.permit_id)?.approvalDepartments.push(d.name);
  for (const r of risks) {
    byPermit.get(r.permit_id)?.risks.push({
      id: String(r.id), title: r.title, description: r.description, legalBasis: r.legal_basis,
      consequence: r.consequence, prevention: r.prevention, level: r.level, riskType: r.risk_type,
    });
  }
  return permitIds.map((id) => byPermit.get(id)).filter((d): d is SearchDoc => d !== undefined);
}

/** The search documents of the given permits (missing ids are simply absent: deleted permits). */
export async function loadSearchDocs(db: Executor, permitIds: number[]): Promise<SearchDoc[]> {
  const out: SearchDoc[] = [];
  for (const part of chunked(permitIds, ID_CHUNK)) out.push(...(await docsFor(db, part)));
  return out;
}

/** Every permit as a search document, read page by page in id order. */
export async function loadAllSearchDocs(db: Executor): Promise<SearchDoc[]> {
  const out: SearchDoc[] = [];
  let after = 0;
  for (;;) {
    const ids = await db.selectFrom('permits').select('id').where('id', '>', after).orderBy('id').limit(LOAD_PAGE).execute();
    if (ids.length === 0) break;
    out.push(...(await loadSearchDocs(db, ids.map((r) => r.id))));
    after = ids[ids.length - 1].id;
  }
  return out;
}
