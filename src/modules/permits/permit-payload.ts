import type { Executor } from '../../db/database.js';
import { chunked, ID_CHUNK } from '../../db/batch.js';
import { presentPermit, type PermitPayload } from './permits.presenter.js';
import { countRisksOfPermits, listApprovalDepartmentNames, listThemesOfPermits } from './permits.repository.js';

/** The rows by a key, each list in the rows' order. */
export function groupBy<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
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
    const [permits, themes, depts, risks, countOf] = await Promise.all([
      db
        .selectFrom('permits as p')
        .innerJoin('regions as r', 'r.id', 'p.region_id')
        .selectAll('p')
        .select('r.name as region_name')
        .where('p.id', 'in', part)
        .execute(),
      listThemesOfPermits(db, part),
      listApprovalDepartmentNames(db, part),
      opts.withRisks
        ? db.selectFrom('risks').selectAll().where('permit_id', 'in', part).orderBy('permit_id').orderBy('position').execute()
        : Promise.resolve([]),
      // With the risks loaded, their number is their count.
      opts.withRisks ? null : countRisksOfPermits(db, part),
    ]);
    // By name in code-point order, the same on both databases (as the search index shows them).
    const themesOf = groupBy(
      themes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      (t) => t.permit_id,
    );
    const deptsOf = groupBy(depts, (d) => d.permit_id);
    const risksOf = groupBy(risks, (r) => r.permit_id);
    for (const p of permits) {
      out.set(
        p.id,
        presentPermit(p, {
          themes: themesOf.get(p.id) ?? [],
          approvalDepartments: (deptsOf.get(p.id) ?? []).map((d) => d.name),
          riskCount: countOf?.get(p.id) ?? risksOf.get(p.id)?.length ?? 0,
          risks: opts.withRisks ? (risksOf.get(p.id) ?? []) : undefined,
        }),
      );
    }
  }
  return ids.map((id) => out.get(id)).filter((p): p is PermitPayload => p !== undefined);
}
