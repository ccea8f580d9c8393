import { Type } from '@sinclair/typebox';
import { failure, fields, ok, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Named, Nullable, Shape, Timestamp } from '../../http/openapi/shapes.js';
import { Region, regionToken } from '../regions/regions.openapi.js';

/** A theme as it appears inside other records (a permit's themes, filter choices …). */
export const ThemeRef = Named('A theme.', { $id: 'ThemeRef' });

const themeFields = { id: Id(), name: Type.String(), created_at: Timestamp() };

/** A catalog theme (presentTheme). */
export const Theme = Component('Theme', 'A theme of the catalog.', themeFields);

export const CatalogTheme = Component('CatalogTheme', 'A catalog theme with what uses it.', {
  ...themeFields,
  permit_count: Count('Permits linked to the theme.'),
  region_count: Count('Regions offering the theme.'),
});

export const RegionThemeOption = Component('RegionThemeOption', 'A theme of one region.', {
  id: Id('The theme id.'),
  name: Type.String(),
  option_id: Nullable(Id(), 'The region_themes row offering the theme in the region; null when only permits link it.'),
  permit_count: Count('Permits of the region (hidden ones included) linked to the theme.'),
});

export const DeletedTheme = Component('DeletedTheme', 'A deleted catalog theme.', {
  deleted: Type.Literal(true),
  theme: Theme,
  removed_region_links: Count('Region associations removed.'),
  removed_permit_links: Count('Permit links removed.'),
});

const themeParams = pathParams({ theme_id: 'The theme id.' });

export const themeDocs = routeDocs('themes', {
  catalog: {
    summary: 'The theme catalog',
    description: 'By id, with the number of permits and regions using each theme.',
    responses: { 200: ok('The catalog.', Shape({ themes: Type.Array(CatalogTheme) })) },
  },
  create: {
    summary: 'Add a theme to the catalog',
    bodyRequired: true,
    responses: { 200: ok('The new theme.', Shape({ theme: Theme }), Type.Literal('主题已创建')), 400: failure('主题名称不能为空, 主题 … 已存在') },
  },
  rename: {
    summary: 'Rename a catalog theme',
    bodyRequired: true,
    params: themeParams,
    responses: {
      200: ok('The renamed theme.', Shape({ theme: Theme }), Type.Literal('主题已更新')),
      400: failure('主题名称不能为空, 主题 … 已存在'),
      404: failure('主题不存在'),
    },
  },
  remove: {
    summary: 'Delete a catalog theme',
    description: 'Also removes its region associations and permit links.',
    params: themeParams,
    responses: { 200: ok('Deleted.', DeletedTheme, Type.Literal('主题已删除')), 404: failure('主题不存在') },
  },
  ofRegion: {
    summary: 'The themes of one region',
    description:
      'The union of the themes the region offers and those its permits are linked to, each once, in catalog order. ' +
      "Outside the user's data scope the region does not exist.",
    querystring: fields(regionToken(true)),
    responses: {
      200: ok(
        "The region's themes.",
        Shape({ region: Type.String({ description: 'The region token as sent.' }), region_info: Region, themes: Type.Array(RegionThemeOption) }),
      ),
      400: failure('region is required'),
      404: failure('Region not found'),
    },
  },
});
