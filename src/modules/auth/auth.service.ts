import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { mapDatabaseError } from '../../http/db-errors.js';
import { AppError } from '../../http/errors.js';
import { deleteIdleSessions, deleteSession, findSession, insertSession, touchSession } from '../sessions/sessions.repository.js';
import { findUserByUsername, updateUser } from '../accounts/users.repository.js';
import { reserveAttempt, settleAttempt } from './attempt-gate.js';
import type { CurrentUser } from './current-user.js';
import { loadCurrentUser } from './current-user.repository.js';
import { timingDummyHash, verifyPassword } from './password.js';

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session, so reads do not all become writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** Longest username or password considered at all; longer input is a failed login, not work. */
const MAX_CREDENTIAL_LENGTH = 256;

/** The cookie holds the token; the database holds only its hash. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface LoginAttempt {
  username: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
  /** Session being replaced (fixation defence: a new id is issued at every login). */
  previousToken: string | null;
}

export interface LoginResult {
  user: CurrentUser;
  token: string;
}

export async function login(db: DB, attempt: LoginAttempt, now: number): Promise<LoginResult> {
  const username = attempt.username.trim().toLowerCase();
  const bad = new AppError(401, '用户名或密码错误');
  if (!username || username.length > MAX_CREDENTIAL_LENGTH || attempt.password.length > MAX_CREDENTIAL_LENGTH) {
    throw bad;
  }
  // Counted before the password is verified (attempt-gate.ts): the record is the failure unless it verifies.
  const attemptId = await reserveAttempt(db, username, attempt.ip, now, (minutes) => `登录失败次数过多，该账号已被锁定，请 ${minutes} 分钟后再试`);
  const row = await findUserByUsername(db, username);
  const ok = await verifyPassword(row?.password_hash ?? (await timingDummyHash()), attempt.password);
  if (!row || !ok) throw bad;
  await settleAttempt(db, username, attemptId);
  if (!row.is_active) throw new AppError(403, '账号已停用');

  if (attempt.previousToken) await deleteSession(db, sessionIdOf(attempt.previousToken));
  const token = randomBytes(32).toString('base64url');
  const stamp = nowIso(() => now);
  await insertSession(db, { id: sessionIdOf(token), user_id: row.id, now: stamp, ip: attempt.ip, user_agent: attempt.userAgent?.slice(0, 300) ?? null });
  await updateUser(db, row.id, { last_login_at: stamp });
  const user = await loadCurrentUser(db, row.id);
  if (!user) throw new AppError(403, '账号已停用');
  return { user, token };
}

export async function logout(db: DB, token: string): Promise<void> {
  await deleteSession(db, sessionIdOf(token));
}

/** The user behind a session cookie, or null when the session is unknown, idle too long or the user inactive. */
export async function resolveSession(db: DB, token: string, now: number): Promise<{ user: CurrentUser; id: string } | null> {
  if (!token || token.length > 100) return null;
  const id = sessionIdOf(token);
  const session = await findSession(db, id);
  if (!session) return null;
  const lastSeen = Date.parse(session.last_seen_at);
  if (now - lastSeen > SESSION_IDLE_MS) {
    await bestEffort(deleteSession(db, id));
    return null;
  }
  const user = await loadCurrentUser(db, session.user_id);
  if (!user) return null;
  if (now - lastSeen > TOUCH_INTERVAL_MS)
    await bestEffort(
      touchSession(
        db,
        id,
        nowIso(() => now),
      ),
    );
  return { user, id };
}

/**
 * Session bookkeeping a read does on the side: a database that cannot take writes just now (a
 * full or read-only disk) must not turn every logged-in read into a failure. A later request
 * writes it again; any other error still fails the request.
 */
async function bestEffort(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (mapDatabaseError(err)?.status !== 503) throw err;
  }
}

/** Housekeeping: drops sessions idle for longer than the expiry. */
export async function purgeIdleSessions(db: DB, now: number): Promise<void> {
  await deleteIdleSessions(
    db,
    nowIso(() => now - SESSION_IDLE_MS),
  );
}
