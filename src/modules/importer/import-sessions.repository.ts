import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ImportSessionsTable } from './import-sessions.table.js';

export type ImportSessionRow = Selectable<ImportSessionsTable>;
/** A session without its workbook bytes: what preview and commit need. */
export type ImportSessionHead = Omit<ImportSessionRow, 'content'>;

const HEAD_COLUMNS = [
  'id',
  'uploader_id',
  'uploader_name',
  'filename',
  'content_type',
  'size',
  'sha256',
  'binding_mode',
  'department_id',
  'parsed',
  'created_at',
  'expires_at',
  'committed_at',
] as const;

export async function insertImportSession(db: Executor, row: Insertable<ImportSessionsTable>): Promise<void> {
  await db.insertInto('import_sessions').values(row).execute();
}

/** A session that has not expired at `now` (ISO text compares correctly on both databases). */
export function findLiveSession(db: Executor, id: string, now: string): Promise<ImportSessionHead | undefined> {
  return db.selectFrom('import_sessions').select(HEAD_COLUMNS).where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
}

/** The archived workbook bytes of a session (read only when committing). */
export async function sessionContent(db: Executor, id: string): Promise<Buffer> {
  const row = await db.selectFrom('import_sessions').select('content').where('id', '=', id).executeTakeFirstOrThrow();
  return Buffer.from(row.content);
}

export async function markSessionCommitted(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('import_sessions').set({ committed_at: now }).where('id', '=', id).execute();
}

/** Housekeeping: one indexed delete, cheap enough to run on every upload. */
export async function deleteExpiredSessions(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('import_sessions').where('expires_at', '<=', now).execute();
}

export async function deleteImportSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('import_sessions').where('id', '=', id).execute();
}
