import type { Static } from '@sinclair/typebox';
import type { CatalogTheme, RegionThemeOption, ThemeRef } from '../../../src/modules/themes/themes.openapi.ts';
import { api } from '../shared/api';

export type ThemeRefPayload = Static<typeof ThemeRef>;
export type CatalogThemePayload = Static<typeof CatalogTheme>;
export type RegionThemePayload = Static<typeof RegionThemeOption>;

const catalogPath = (id: string) => `/admin/themes/catalog/${encodeURIComponent(id)}`;

/** The themes of one region (id, code or name), with its permits' counts. */
export const fetchRegionThemes = async (region: string) => (await api.get<{ themes: RegionThemePayload[] }>('/admin/themes', { region })).themes;

export const fetchThemeCatalog = async () => (await api.get<{ themes: CatalogThemePayload[] }>('/admin/themes/catalog')).themes;

export const createTheme = (name: string) => api.post('/admin/themes/catalog', { name });

export const renameTheme = (id: string, name: string) => api.patch(catalogPath(id), { name });

export const deleteTheme = (id: string) => api.delete(catalogPath(id));
