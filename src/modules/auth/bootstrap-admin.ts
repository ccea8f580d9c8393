import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { findUserByUsername, insertUserIfAbsent } from '../accounts/users.repository.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';

export const INITIAL_PASSWORD_FILE = 'initial-admin-password.txt';

/**
 * Creates the default administrator when no account with role `admin` exists. A generated
 * password is printed once and written to DATA_DIR/initial-admin-password.txt (mode 0600);
 * it is never stored in clear anywhere else, and must be changed at first login.
 */
export async function ensureDefaultAdmin(ctx: AppContext): Promise<void> {
  const { db, config } = ctx;
  const admin = await db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirst();
  if (admin) return forgetChangedInitialPassword(ctx);
  if (await findUserByUsername(db, config.adminUsername)) {
    ctx.log.warn(`no account has role admin, and "${config.adminUsername}" exists with another role; not creating one`);
    return;
  }
  const generated = config.adminPassword === null;
  const password = config.adminPassword ?? generatePassword();
  const now = nowIso(ctx.now);
  // Instances starting together on a new database race to this point: one inserts, the others
  // find the name taken and leave it (no second password is printed or written).
  const created = await insertUserIfAbsent(db, {
    username: config.adminUsername,
    password_hash: await hashPassword(password),
    display_name: '超级管理员',
    role: 'admin',
    grade: 100,
    service_department_id: null,
    department_role: null,
    is_active: 1,
    must_change_password: generated ? 1 : 0,
    created_at: now,
    updated_at: now,
    last_login_at: null,
  });
  if (!created) return;
  if (!generated) {
    ctx.log.info(`created the default administrator "${config.adminUsername}" with the password from ADMIN_PASSWORD`);
    return;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, INITIAL_PASSWORD_FILE);
  writeFileSync(file, `${config.adminUsername}\n${password}\n`, { mode: 0o600 });
  // Printed once, on purpose: the operator needs it to log in the first time.
  process.stdout.write(
    `\n  Default administrator created: username "${config.adminUsername}", password "${password}"\n` +
      `  (also written to ${file}; change it at first login)\n\n`,
  );
}

/**
 * Deletes DATA_DIR/initial-admin-password.txt once the password it holds no longer opens its
 * account (changed by its user, an administrator or the command line; or the account gone):
 * a password that works nowhere is not kept on disk. Called after every password change and at
 * start-up, so a change made on another instance is caught too.
 */
export async function forgetChangedInitialPassword(ctx: AppContext): Promise<void> {
  const file = join(ctx.config.dataDir, INITIAL_PASSWORD_FILE);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return;
  const [username = '', password = ''] = text.split('\n');
  const account = await findUserByUsername(ctx.db, username.trim());
  if (account && (await verifyPassword(account.password_hash, password))) return;
  await rm(file, { force: true });
  ctx.log.info(`deleted ${file}: the initial administrator password has been changed`);
}
