import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import { forgetChangedInitialPassword } from '../auth/bootstrap-admin.js';
import { hashPassword } from '../auth/password.js';
import { assertPasswordPolicy } from '../auth/password-policy.js';
import { clearLoginFailures, deleteUserSessions } from '../sessions/sessions.repository.js';
import { addAccount } from '../accounts/accounts.js';
import { findUserByUsername, updateUser, type UserRow } from '../accounts/users.repository.js';
import { normalizeUsername } from '../accounts/username.js';
import { passwordChangeKey } from '../auth/own-password.js';
import { MAX_PASSWORD_LENGTH } from '../auth/password-input.js';

/**
 * Accounts changed by the people who run the service, from the command line: there is no acting
 * user (and no session) to check, which is the point — this is how a locked-out service is
 * recovered. A password given here is held to the password policy like any other.
 */

function checkPassword(password: string, admin: boolean): void {
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest(`密码不能超过 ${MAX_PASSWORD_LENGTH} 个字符`);
  assertPasswordPolicy(password, admin);
}

export interface NewAdministrator {
  username: string;
  password: string;
  displayName: string | null;
  mustChangePassword: boolean;
}

/** A super administrator (role `admin`, grade 100, no department). A taken username is refused. */
export async function createAdministrator(ctx: AppContext, a: NewAdministrator): Promise<UserRow> {
  const username = normalizeUsername(a.username);
  checkPassword(a.password, true);
  const passwordHash = await hashPassword(a.password);
  return addAccount(
    ctx.db,
    {
      username,
      password_hash: passwordHash,
      display_name: a.displayName,
      role: 'admin',
      grade: 100,
      service_department_id: null,
      department_role: null,
      must_change_password: a.mustChangePassword,
    },
    nowIso(ctx.now),
  );
}

/**
 * Sets a new password, ends every session of the account (whoever knew the old password is out)
 * and lifts a login lockout of its username, so the new password works at once.
 */
export async function resetPassword(ctx: AppContext, rawUsername: string, password: string, mustChangePassword: boolean): Promise<UserRow> {
  const username = rawUsername.trim().toLowerCase();
  const existing = await findUserByUsername(ctx.db, username);
  if (!existing) throw notFound(`用户不存在：${username}`);
  checkPassword(password, existing.role === 'admin');
  const passwordHash = await hashPassword(password);
  const user = await ctx.db.transaction().execute(async (trx) => {
    const user = await findUserByUsername(trx, username);
    if (!user) throw notFound(`用户不存在：${username}`);
    await updateUser(trx, user.id, { password_hash: passwordHash, must_change_password: mustChangePassword ? 1 : 0, updated_at: nowIso(ctx.now) });
    await deleteUserSessions(trx, user.id);
    await clearLoginFailures(trx, username);
    await clearLoginFailures(trx, passwordChangeKey(username));
    return user;
  });
  await forgetChangedInitialPassword(ctx);
  return user;
}
