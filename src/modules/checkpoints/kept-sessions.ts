import { liveColumns } from './live-schema.js';
import { quoteIdent, type RawConnection } from './raw-connection.js';
import { RowInserter } from './row-inserter.js';

/**
 * Sessions are not part of a checkpoint, but they reference users with ON DELETE CASCADE: the
 * restore's delete of users takes them along. They are read before and put back afterwards —
 * only those whose user is back under the same id and username, so a session never passes to a
 * different account that happens to reuse an id. Users missing from the checkpoint are logged out.
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

/** Puts back the kept sessions whose account survived the restore; answers how many. */
export async function restoreKeptSessions(conn: RawConnection, kept: KeptSessions): Promise<number> {
  if (kept.rows.length === 0) return 0;
  const users = new Map((await conn.rows('select id, username from users')).map(([id, name]) => [Number(id), name]));
  const userIdAt = kept.columns.indexOf('user_id');
  const idAt = kept.columns.indexOf('id');
  const still = new Set((await conn.rows('select id from sessions')).map(([id]) => id));
  const back = kept.rows
    .filter((r) => users.get(Number(r[userIdAt])) === r[r.length - 1] && !still.has(r[idAt]))
    .map((r) => r.slice(0, -1));
  await new RowInserter(conn, 'sessions', kept.columns, 1000).insert(back);
  return back.length;
}
