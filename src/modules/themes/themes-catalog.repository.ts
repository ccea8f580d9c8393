import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ThemesTable } from './themes.table.js';

export type ThemeRow = Selectable<ThemesTable>;

/** Every theme with how many permits and regions use it (what an administrator weighs before deleting). */
export function listThemesWithUsage(db: Executor) {
  return db
    .selectFrom('themes as t')
    .select(['t.id', 't.name', 't.created_at'])
    .select((eb) => [
      eb.selectFrom('permit_themes as pt').select(eb.fn.countAll<number>().as('n')).whereRef('pt.theme_id', '=', 't.id').as('permit_count'),
      eb.selectFrom('region_themes as rt').select(eb.fn.countAll<number>().as('n')).whereRef('rt.theme_id', '=', 't.id').as('region_count'),
    ])
    .orderBy('t.id')
    .execute();
}

export function findThemeById(db: Executor, id: number): Promise<ThemeRow | undefined> {
  return db.selectFrom('themes').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findThemeByName(db: Executor, name: string): Promise<ThemeRow | undefined> {
  return db.selectFrom('themes').selectAll().where('name', '=', name).executeTakeFirst();
}

export function insertTheme(db: Executor, name: string, now: string): Promise<ThemeRow> {
  return db.insertInto('themes').values({ name, created_at: now }).returningAll().executeTakeFirstOrThrow();
}

export async function renameThemeRow(db: Executor, id: number, name: string): Promise<void> {
  await db.updateTable('themes').set({ name }).where('id', '=', id).execute();
}

/** Deletes a theme with its region and permit links; counts what went with it. */
export async function deleteThemeRow(db: Executor, id: number) {
  const regions = await db.deleteFrom('region_themes').where('theme_id', '=', id).executeTakeFirst();
  const permits = await db.deleteFrom('permit_themes').where('theme_id', '=', id).executeTakeFirst();
  const theme = await db.deleteFrom('themes').where('id', '=', id).executeTakeFirst();
  return { deleted: Number(theme.numDeletedRows) > 0, regionLinks: Number(regions.numDeletedRows), permitLinks: Number(permits.numDeletedRows) };
}
