import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import type { ThemeRef as ThemeRefSchema } from '../themes/themes.openapi.js';
import type { Permit } from './permits.openapi.js';
import type { Risk, RiskFields } from './risk.schema.js';
import { chunked, ID_CHUNK } from '../../db/batch.js';

export type ThemeRef = Static<typeof ThemeRefSchema>;
export type RiskPayload = Static<typeof Risk>;

/** The permit payload of the interface (2.4): the one place rows become this shape (risks where asked). */
export type PermitPayload = Static<typeof Permit> & { risks?: RiskPayload[] };

export function presentRisk(r: { id: number; position: number } & RiskFields): RiskPayload {
  return {
    id: String(r.id), position: r.position, risk_type: r.risk_type, title: r.title, description: r.description,
    legal_basis: r.legal_basis, consequence: r.consequence, prevention: r.prevention, level: r.level,
  };
}

function groupBy<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

/** Loads full permit payloads (themes, departments, risk counts, optionally risks) in the order of `ids`. */
export async function loadPermitPayloads(db: Executor, ids: number[], opts: { withRisks: boolean }): Promise<PermitPayload[]> {
  const out = new Map<number, PermitPayload>();
  for (const part of chunked([...new Set(ids)], ID_CHUNK)) {
    const [permits, themes, depts, counts, risks] = await Promise.all([
      db
        .selectFrom('permits as p')
        .innerJoin('regions as r', 'r.id', 'p.region_id')
        .selectAll('p')
        .select('r.name as region_name')
        .where('p.id', 'in', part)
        .execute(),
      db
        .selectFrom('permit_themes as pt')
        .innerJoin('themes as t', 't.id', 'pt.theme_id')
        .select(['pt.permit_id', 't.id', 't.name'])
        .where('pt.permit_id', 'in', part)
        .orderBy('t.name')
        .execute(),
      db
        .selectFrom('permit_approval_departments as pa')
        .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
        .select(['pa.permit_id', 'a.name'])
        .where('pa.permit_id', 'in', part)
        .orderBy('pa.position')
        .execute(),
      db
        .selectFrom('risks')
        .select(['permit_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('permit_id', 'in', part)
        .groupBy('permit_id')
        .execute(),
      opts.withRisks
        ? db.selectFrom('risks').selectAll().where('permit_id', 'in', part).orderBy('permit_id').orderBy('position').execute()
        : Promise.resolve([]),
    ]);
    const themesOf = groupBy(themes, (t) => t.permit_id);
    const deptsOf = groupBy(depts, (d) => d.permit_id);
    const risksOf = groupBy(risks, (r) => r.permit_id);
    const countOf = new Map(counts.map((c) => [c.permit_id, Number(c.n)]));
    for (const p of permits) {
      const pThemes = (themesOf.get(p.id) ?? []).map((t) => ({ id: String(t.id), name: t.name }));
      out.set(p.id, {
        id: String(p.id),
        region_id: String(p.region_id),
        region_name: p.region_name,
        code: p.code,
        name: p.name,
        implementation_level: p.implementation_level,
        internal_contact: p.internal_contact,
        contact_info: p.contact_info,
        visible: p.visible === 1,
        source_file_id: p.source_file_id === null ? null : String(p.source_file_id),
        themes: pThemes,
        theme: pThemes[0] ?? null,
        approval_departments: (deptsOf.get(p.id) ?? []).map((d) => d.name),
        risk_count: countOf.get(p.id) ?? 0,
        ...(opts.withRisks ? { risks: (risksOf.get(p.id) ?? []).map(presentRisk) } : {}),
        created_at: p.created_at,
        updated_at: p.updated_at,
      });
    }
  }
  return ids.map((id) => out.get(id)).filter((p): p is PermitPayload => p !== undefined);
}
