import type { Static } from '@sinclair/typebox';
import { toCount } from '../../db/dialect.js';
import { recordIdText } from '../../http/record-id.js';
import type { ThemeRow } from './themes-catalog.repository.js';
import type { CatalogTheme, RegionThemeOption as RegionThemeOptionSchema, Theme, ThemeRef as ThemeRefSchema } from './themes.openapi.js';

export type ThemeRef = Static<typeof ThemeRefSchema>;
export type RegionThemeOption = Static<typeof RegionThemeOptionSchema>;

export function presentTheme(t: ThemeRow): Static<typeof Theme> {
  return { id: String(t.id), name: t.name, created_at: t.created_at };
}

/** A theme in short, as a permit, a filter or an import names it. */
export function presentThemeRef(t: { id: number; name: string }): ThemeRef {
  return { id: String(t.id), name: t.name };
}

/** A catalog theme with how many permits and regions use it. */
export function presentCatalogTheme(t: ThemeRow & { permit_count: unknown; region_count: unknown }): Static<typeof CatalogTheme> {
  return { ...presentTheme(t), permit_count: toCount(t.permit_count), region_count: toCount(t.region_count) };
}

/** A theme of one region: its option row (null when only its permits use it) and its permits there. */
export function presentRegionThemeOption(r: { id: number; name: string; option_id: number | null; permit_count: unknown }): RegionThemeOption {
  return { id: String(r.id), name: r.name, option_id: recordIdText(r.option_id), permit_count: toCount(r.permit_count) };
}
