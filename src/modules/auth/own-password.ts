import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, unauthorized } from '../../http/errors.js';
import { findUserById, updateUser } from '../accounts/users.repository.js';
import { deleteUserSessions } from '../sessions/sessions.repository.js';
import type { Actor } from './actor.js';
import { reserveAttempt, settleAttempt } from './attempt-gate.js';
import { sessionIdOf } from './auth.service.js';
import { forgetChangedInitialPassword } from './bootstrap-admin.js';
import { hashPassword, verifyPassword } from './password.js';
import { assertPasswordPolicy } from './password-policy.js';

/** The attempt key of a user's own-password changes (a username holds no colon, so no login key is one). */
export const passwordChangeKey = (username: string) => `password:${username}`;

/**
 * A user replaces its own password: the old one must match, the new one follows the password
 * policy and differs from it. Clears the must-change flag and ends the user's other sessions.
 */
export async function changeOwnPassword(ctx: AppContext, actor: Actor, ip: string | null, oldPassword?: string, newPassword?: string): Promise<void> {
  if (!oldPassword || !newPassword) throw badRequest('原密码和新密码均不能为空');
  const row = await findUserById(ctx.db, actor.user.id);
  if (!row) throw unauthorized();
  // The old password is a guess like a login's: counted before it is verified, five at most (attempt-gate.ts).
  const key = passwordChangeKey(row.username);
  const attemptId = await reserveAttempt(ctx.db, key, ip, ctx.now(), (minutes) => `原密码错误次数过多，请 ${minutes} 分钟后再试`);
  if (!(await verifyPassword(row.password_hash, oldPassword))) throw badRequest('原密码不正确');
  await settleAttempt(ctx.db, key, attemptId);
  assertPasswordPolicy(newPassword, row.role === 'admin', '新密码');
  if (newPassword === oldPassword) throw badRequest('新密码不能与原密码相同');
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, row.id, { password_hash: passwordHash, must_change_password: 0, updated_at: nowIso(ctx.now) });
    await deleteUserSessions(trx, row.id, actor.sessionToken ? sessionIdOf(actor.sessionToken) : undefined);
  });
  await forgetChangedInitialPassword(ctx);
}
