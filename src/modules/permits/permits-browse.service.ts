import type { Executor } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { inScope, type RegionScope } from '../auth/data-scope.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import { presentRegion } from '../regions/regions.presenter.js';
import { requireVisibleRegion } from '../regions/regions.service.js';
import { loadPermitPayloads } from './permit-payload.js';
import { presentSourceFile } from './permits.presenter.js';
import { findPermitByToken, findThemeByToken, matchTheme, PERMIT_NOT_FOUND, resolveThemeOfPermit } from './permit-lookup.js';
import { listRegionPermitIds } from './permits.repository.js';

/**
 * GET /admin/permits: with a theme, the region's permits of that theme with their risks;
 * without, the region's whole catalogue (hidden permits included) without risks.
 */
export async function browseRegionPermits(db: Executor, scope: RegionScope, regionToken: string, themeToken?: string) {
  const region = await requireVisibleRegion(db, regionToken, scope);
  const base = { region: regionToken, region_info: presentRegion(region) };
  if (!themeToken) {
    const ids = await listRegionPermitIds(db, region.id);
    return { ...base, permits: await loadPermitPayloads(db, ids, { withRisks: false }) };
  }
  const theme = await findThemeByToken(db, themeToken);
  if (!theme) throw notFound('Theme not found');
  const ids = await listRegionPermitIds(db, region.id, Number(theme.id));
  return { ...base, theme: themeToken, theme_info: theme, permits: await loadPermitPayloads(db, ids, { withRisks: true }) };
}

/**
 * GET /admin/permit-details. The selected theme is, in this order: the permit's theme matching
 * the given token, the theme resolved from the permit (only when no token is given), the
 * permit's own theme, the first of its themes.
 */
export async function permitDetails(db: Executor, scope: RegionScope, req: { region: string; permit: string; theme?: string }) {
  const region = await findRegionByToken(db, req.region);
  // A region outside the user's scope hides its permits exactly like an unknown one.
  const row = region && inScope(scope, region.id) ? await findPermitByToken(db, region.id, req.permit) : undefined;
  if (!region || !row) throw notFound(PERMIT_NOT_FOUND);
  const resolved = req.theme ? null : await resolveThemeOfPermit(db, row);
  const [permit] = await loadPermitPayloads(db, [row.id], { withRisks: true });
  if (!permit) throw notFound(PERMIT_NOT_FOUND);
  const selected = matchTheme(permit.themes, req.theme) ?? resolved ?? permit.theme ?? permit.themes[0] ?? null;
  if (selected) permit.theme = selected;
  const file =
    row.source_file_id === null
      ? undefined
      : await db.selectFrom('permit_files').select(['id', 'filename']).where('id', '=', row.source_file_id).executeTakeFirst();
  return {
    region: req.region,
    region_info: presentRegion(region),
    theme: req.theme ?? resolved?.id ?? null,
    permit,
    theme_display: selected,
    selected_theme_id: selected?.id ?? '',
    source_file: presentSourceFile(file),
  };
}
