import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { EVERYTHING, writeChange } from '../changes/change-transaction.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import { parseRecordId } from '../../http/record-id.js';
import {
  deleteThemeRow,
  findThemeById,
  findThemeByName,
  insertTheme,
  listThemesWithUsage,
  renameThemeRow,
  type ThemeRow,
} from './themes-catalog.repository.js';
import type { CatalogTheme, DeletedTheme } from './themes.openapi.js';
import { presentCatalogTheme, presentTheme } from './themes.presenter.js';

const NOT_FOUND = '主题不存在';

export async function listCatalogThemes(db: Executor): Promise<Static<typeof CatalogTheme>[]> {
  const rows = await listThemesWithUsage(db);
  return rows.map(presentCatalogTheme);
}

function checkName(name: string | undefined): string {
  if (!name) throw badRequest('主题名称不能为空');
  return name;
}

async function assertNameFree(db: Executor, name: string, exceptId: number | null): Promise<void> {
  const other = await findThemeByName(db, name);
  if (other && other.id !== exceptId) throw badRequest(`主题 ${name} 已存在`);
}

// Themes are part of what search shows, so every change tells the index at once.

export async function createTheme(ctx: AppContext, rawName: string | undefined): Promise<ThemeRow> {
  const name = checkName(rawName);
  return writeChange(
    ctx,
    async (trx) => {
      await assertNameFree(trx, name, null);
      return insertTheme(trx, name, nowIso(ctx.now));
    },
    () => EVERYTHING,
  );
}

export async function renameTheme(ctx: AppContext, rawId: string, rawName: string | undefined) {
  const name = checkName(rawName);
  const id = parseRecordId(rawId);
  if (id === null) throw notFound(NOT_FOUND);
  return writeChange(
    ctx,
    async (trx) => {
      const before = await findThemeById(trx, id);
      if (!before) throw notFound(NOT_FOUND);
      await assertNameFree(trx, name, id);
      await renameThemeRow(trx, id, name);
      return { theme: { ...before, name }, previousName: before.name };
    },
    () => EVERYTHING,
  );
}

/** Removes a theme, its region associations and its permit links; 404 when nothing was deleted. */
export async function deleteTheme(ctx: AppContext, rawId: string): Promise<Static<typeof DeletedTheme>> {
  const id = parseRecordId(rawId);
  if (id === null) throw notFound(NOT_FOUND);
  const result = await writeChange(
    ctx,
    async (trx) => {
      const theme = await findThemeById(trx, id);
      const removed = await deleteThemeRow(trx, id);
      return { theme, ...removed };
    },
    (r) => (r.deleted && r.theme ? EVERYTHING : null),
  );
  if (!result.deleted || !result.theme) throw notFound(NOT_FOUND);
  return { deleted: true, theme: presentTheme(result.theme), removed_region_links: result.regionLinks, removed_permit_links: result.permitLinks };
}
