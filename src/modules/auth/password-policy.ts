import { readFileSync } from 'node:fs';
import { badRequest } from '../../http/errors.js';

/**
 * What a new password must be (docs/accounts.md, "Passwords"; OWASP ASVS level 2): at least 8
 * characters, at least 12 for a super administrator's account, and not one of the common
 * passwords shipped with the service (compared without case). Department accounts' initial
 * passwords are the interface's and are changed at first login; ADMIN_PASSWORD is the operator's.
 */

export const MIN_PASSWORD_LENGTH = 8;
export const MIN_ADMIN_PASSWORD_LENGTH = 12;

const COMMON = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#')),
);

export const COMMON_PASSWORD_MESSAGE = '密码过于常见，容易被猜中，请换一个更难猜的密码';

/**
 * Refuses a new password that breaks the policy. `label` names it in the message (密码, 新密码);
 * `admin`: the account has, or is given, role `admin`.
 */
export function assertPasswordPolicy(password: string, admin: boolean, label = '密码'): void {
  const min = admin ? MIN_ADMIN_PASSWORD_LENGTH : MIN_PASSWORD_LENGTH;
  if ([...password].length < min) throw badRequest(admin ? `超级管理员账号的${label}至少需要 ${min} 个字符` : `${label}至少需要 ${min} 个字符`);
  if (COMMON.has(password.toLowerCase())) throw badRequest(COMMON_PASSWORD_MESSAGE);
}
