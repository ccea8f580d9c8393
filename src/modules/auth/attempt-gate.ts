import { PostgresAdapter, sql } from 'kysely';
import type { DB, Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { tooMany } from '../../http/errors.js';
import { deleteLoginFailuresUpTo, recentLoginFailures, recordLoginFailure } from '../sessions/sessions.repository.js';

/**
 * How many password guesses are evaluated (docs/security.md, "Guessing"): at most 5 failures
 * within 15 minutes per key (a username for the login, `password:<username>` for the own-password
 * change), then the key is refused for 15 minutes after the 5th.
 *
 * An attempt is recorded as a failure before its password is verified, in a transaction that
 * holds the key's lock while it counts: attempts sent at once are decided one after the other,
 * on every instance, and no more than 5 are ever verified. A verified attempt then takes its own
 * record (and the key's earlier failures) away; a failed one leaves it as the failure.
 */

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
/** PostgreSQL advisory lock namespace of attempt keys (checkpoints use 0x1a3c_4b01, the catalogue 02, the change feed 03). */
const ATTEMPT_LOCK = 0x1a3c_4b04;

/** The minutes until a locked key is free again, or null when it is not locked. */
async function lockedMinutes(db: Executor, key: string, now: number): Promise<number | null> {
  const failures = await recentLoginFailures(db, key, LOCKOUT_FAILURES);
  if (failures.length < LOCKOUT_FAILURES) return null;
  const newest = Date.parse(failures[0]);
  const oldest = Date.parse(failures[failures.length - 1]);
  if (newest - oldest > LOCKOUT_WINDOW_MS || now >= newest + LOCKOUT_WINDOW_MS) return null;
  return Math.ceil((newest + LOCKOUT_WINDOW_MS - now) / 60000);
}

/**
 * Records an attempt for `key` unless the key is locked (429 with `lockedMessage`), and returns
 * the record's id for `settleAttempt`.
 */
export function reserveAttempt(db: DB, key: string, ip: string | null, now: number, lockedMessage: (minutes: number) => string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(${ATTEMPT_LOCK}, hashtext(${key}))`.execute(trx);
    } else {
      await sql`delete from login_failures where 1 = 0`.execute(trx); // the database's write lock, before the count
    }
    const minutes = await lockedMinutes(trx, key, now);
    if (minutes !== null) throw tooMany(lockedMessage(minutes));
    return recordLoginFailure(
      trx,
      key,
      ip,
      nowIso(() => now),
    );
  });
}

/** The attempt succeeded: its record and the key's earlier failures go. */
export async function settleAttempt(db: Executor, key: string, attemptId: number): Promise<void> {
  await deleteLoginFailuresUpTo(db, key, attemptId);
}
