import type { Static } from '@sinclair/typebox';
import type { DB } from '../../db/database.js';
import type { ApprovalDepartmentSetup } from './approval-departments.openapi.js';
import { presentDepartmentLink } from './approval-departments.presenter.js';
import { listApprovalDepartmentRows, listServiceDepartmentNames, setServiceDepartment } from './approval-departments.repository.js';

export type SetupResult = Static<typeof ApprovalDepartmentSetup>;

/** The service department whose name equals, or is the longest prefix of, an approval department's name. */
export function bestServiceDepartment<T extends { name: string }>(approvalName: string, candidates: T[]): T | undefined {
  let best: T | undefined;
  for (const c of candidates) {
    if (c.name === '' || !approvalName.startsWith(c.name)) continue;
    if (!best || c.name.length > best.name.length) best = c;
  }
  return best;
}

/**
 * Links every approval department to the service department matching its name (equal, or the
 * longest name that is a prefix of it: 区住建局 covers 区住建局（区人防办）). Recomputed from
 * scratch each time, so renamed or deleted service departments do not leave stale links.
 */
export async function setupApprovalDepartments(db: DB): Promise<SetupResult> {
  return db.transaction().execute(async (trx) => {
    const [approval, service] = await Promise.all([listApprovalDepartmentRows(trx), listServiceDepartmentNames(trx)]);
    const candidates = service.map((s) => ({ id: s.id, name: s.name.trim() }));
    const linked: SetupResult['linked'] = [];
    const unmatched: string[] = [];
    const byTarget = new Map<number | null, number[]>();
    for (const a of approval) {
      const match = bestServiceDepartment(a.name, candidates);
      const target = match?.id ?? null;
      if (match) {
        linked.push(presentDepartmentLink(a, match));
      } else unmatched.push(a.name);
      if (a.service_department_id !== target) byTarget.set(target, [...(byTarget.get(target) ?? []), a.id]);
    }
    for (const [target, ids] of byTarget) await setServiceDepartment(trx, ids, target);
    return { linked, unmatched, total: approval.length };
  });
}
