import { forbidden } from '../../http/errors.js';
import type { CurrentUser } from './current-user.js';

/**
 * What an administrator may give and whom it may change (docs/accounts.md, "Privilege ceiling").
 * The admin guard lets role `admin` and grade ≥ 90 in; these rules keep each of them below what
 * it holds, so that no account can raise itself or another above itself. Every refusal is 403
 * 权限不足, checked before anything is written.
 */

const SUPER_ROLE = 'admin';

interface Privileges {
  role: string;
  grade: number;
}

const isSuper = (p: Privileges) => p.role === SUPER_ROLE;

/** A role or grade given to an account or a department (whose account takes its grade): none above the actor's own. */
export function assertMayGrant(actor: CurrentUser, grant: { role?: string; grade?: number }): void {
  if (grant.role === SUPER_ROLE && !isSuper(actor)) throw forbidden();
  if (grant.grade !== undefined && grant.grade > actor.grade) throw forbidden();
}

/**
 * An account the actor may change, deactivate, unbind or delete: a super administrator's only by
 * a super administrator; otherwise none of a grade above the actor's.
 */
export function assertMayManage(actor: CurrentUser, target: Privileges): void {
  if (isSuper(actor)) return;
  if (isSuper(target) || target.grade > actor.grade) throw forbidden();
}

/** Nobody changes their own role or grade (giving the current value again is no change). */
export function assertNotOwnPrivileges(actor: CurrentUser, targetId: number, current: Privileges, change: { role?: string; grade?: number }): void {
  if (targetId !== actor.id) return;
  const roleChanges = change.role !== undefined && change.role !== current.role;
  const gradeChanges = change.grade !== undefined && change.grade !== current.grade;
  if (roleChanges || gradeChanges) throw forbidden();
}
