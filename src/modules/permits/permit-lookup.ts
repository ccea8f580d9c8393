import type { Executor } from '../../db/database.js';
import { lowerEquals } from '../../db/dialect.js';
import { badRequest } from '../../http/errors.js';
import { presentThemeRef, type ThemeRef } from '../themes/themes.presenter.js';
import { findPermitByCode, findPermitById, findPermitsByName, listPermitThemes, type PermitRow } from './permits.repository.js';
import { parseRecordId } from '../../http/record-id.js';

export const PERMIT_NOT_FOUND = 'Permit not found';

/**
 * The permit a request names within a region: its id, else its code (case-insensitive), else
 * its exact name. A name shared by several permits of the region is refused (400) rather than
 * guessed, since the caller may be about to delete it.
 */
export async function findPermitByToken(db: Executor, regionId: number, token: string): Promise<PermitRow | undefined> {
  const id = parseRecordId(token);
  if (id !== null) {
    const byId = await findPermitById(db, id);
    if (byId && byId.region_id === regionId) return byId;
  }
  const byCode = await findPermitByCode(db, regionId, token);
  if (byCode) return byCode;
  const byName = await findPermitsByName(db, regionId, token);
  if (byName.length > 1) throw badRequest(`该区域有多个名为“${token}”的许可事项，请改用许可 ID 或事项编码`);
  return byName[0];
}

/** A catalogue theme named by id or by name (case-insensitive). */
export async function findThemeByToken(db: Executor, token: string): Promise<ThemeRef | undefined> {
  const id = parseRecordId(token);
  if (id !== null) {
    const byId = await db.selectFrom('themes').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    if (byId) return presentThemeRef(byId);
  }
  const byName = await db.selectFrom('themes').select(['id', 'name']).where(lowerEquals('name', token)).orderBy('id').executeTakeFirst();
  return byName && presentThemeRef(byName);
}

/**
 * "The theme resolved from the permit" (4.6): the first of its themes that its region offers,
 * else the first of its themes; null for a permit bound to no theme.
 */
export async function resolveThemeOfPermit(db: Executor, permit: PermitRow): Promise<ThemeRef | null> {
  return (await permitThemeRefs(db, permit))[0] ?? null;
}

/** A permit's themes, those its region offers first: the first is the resolved theme. */
export async function permitThemeRefs(db: Executor, permit: PermitRow): Promise<ThemeRef[]> {
  const rows = await listPermitThemes(db, permit.id, permit.region_id);
  return rows.map(presentThemeRef);
}

/** The entry of a permit's themes that a request token names (by id, or by name case-insensitively). */
export function matchTheme(themes: ThemeRef[], token: string | undefined): ThemeRef | undefined {
  if (!token) return undefined;
  const lower = token.toLowerCase();
  return themes.find((t) => t.id === token) ?? themes.find((t) => t.name.toLowerCase() === lower);
}
