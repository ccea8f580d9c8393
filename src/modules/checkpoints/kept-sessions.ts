import { liveColumns } from './live-schema.js';
import { quoteIdent, type RawConnection } from '../../db/raw-connection.js';
import { RowInserter } from './row-inserter.js';

/**
 * Sessions are not part of a checkpoint, but they reference users: emptying users (TRUNCATE on
 * PostgreSQL) would take them along. They are read before the restore and afterwards exactly
 * those whose account is back under the same id and username remain, so a session never passes
 * to a different account that happens to reuse an id. Accounts missing from the checkpoint are
 * logged out.
 */
export interface KeptSessions {
  columns: string[];
  /** Session rows, each followed by its user's username. */
  rows: unknown[][];
}

export async function keepSessions(conn: RawConnection): Promise<KeptSessions> {
  const columns = (await liveColumns(conn, 'sessions')).map((c) => c.name);
  const rows = await conn.rows(
    `select ${columns.map((c) => `s.${quoteIdent(c)}`).join(', ')}, u.username
     from sessions s join users u on u.id = s.user_id`,
  );
  return { columns, rows };
}

/**
 * Afterwards: removes the sessions of accounts that did not come back (on SQLite they are still
 * there, foreign keys being off during the restore) and puts back the kept ones that are gone.
 */
export async function restoreKeptSessions(conn: RawConnection, kept: KeptSessions): Promise<void> {
  if (kept.rows.length === 0) return;
  const users = new Map((await conn.rows('select id, username from users')).map(([id, name]) => [Number(id), name]));
  const userIdAt = kept.columns.indexOf('user_id');
  const idAt = kept.columns.indexOf('id');
  const back = kept.rows.filter((r) => users.get(Number(r[userIdAt])) === r[r.length - 1]);
  const backIds = new Set(back.map((r) => r[idAt]));
  for (const r of kept.rows) if (!backIds.has(r[idAt])) await conn.run('delete from sessions where id = ?', [r[idAt]]);
  const present = new Set((await conn.rows('select id from sessions')).map(([id]) => id));
  const missing = back.filter((r) => !present.has(r[idAt])).map((r) => r.slice(0, -1));
  await new RowInserter(conn, 'sessions', kept.columns, 1000).insert(missing);
}
