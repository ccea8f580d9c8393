import { Type } from '@sinclair/typebox';
import { ok, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Shape } from '../../http/openapi/shapes.js';

export const CatalogueStatistics = Component('CatalogueStatistics', "Permit and risk totals within the user's data scope.", {
  permits: Shape({ total: Count('All permits.'), visible: Count('Search-visible ones.'), hidden: Count('Hidden ones.') }),
  risks: Shape({
    total: Count('All risks.'),
    by_level: Type.Array(Shape({ level: Type.String({ description: '高, 中, 低, or 未分级 when none.' }), count: Count('Risks of that level.') }), {
      description: '高, 中, 低 first, then any other level.',
    }),
  }),
});

export const statisticsDocs = routeDocs('statistics', {
  totals: { summary: 'Catalogue totals for the dashboard', responses: { 200: ok('The totals.', CatalogueStatistics) } },
});
