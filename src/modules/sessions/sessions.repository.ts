import type { Executor } from '../../db/database.js';

export async function insertSession(
  db: Executor,
  row: { id: string; user_id: number; now: string; ip: string | null; user_agent: string | null },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ id: row.id, user_id: row.user_id, created_at: row.now, last_seen_at: row.now, ip: row.ip, user_agent: row.user_agent })
    .execute();
}

export function findSession(db: Executor, id: string) {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function touchSession(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of a user except (optionally) one: used after a password change. */
export async function deleteUserSessions(db: Executor, userId: number, exceptId?: string): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  await q.execute();
}

export async function deleteIdleSessions(db: Executor, idleBefore: string): Promise<void> {
  await db.deleteFrom('sessions').where('last_seen_at', '<', idleBefore).execute();
}

/** Records a failed (or not yet verified) attempt for a key; returns its id. */
export async function recordLoginFailure(db: Executor, username: string, ip: string | null, now: string): Promise<number> {
  const row = await db.insertInto('login_failures').values({ username, ip, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function recentLoginFailures(db: Executor, username: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('login_failures').select('created_at').where('username', '=', username).orderBy('created_at', 'desc').limit(limit).execute();
  return rows.map((r) => r.created_at);
}

export async function clearLoginFailures(db: Executor, username: string): Promise<void> {
  await db.deleteFrom('login_failures').where('username', '=', username).execute();
}

/** A key's records up to one attempt (those of attempts still being verified stay). */
export async function deleteLoginFailuresUpTo(db: Executor, username: string, id: number): Promise<void> {
  await db.deleteFrom('login_failures').where('username', '=', username).where('id', '<=', id).execute();
}
