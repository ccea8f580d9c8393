import { Type } from '@sinclair/typebox';
import { aliased, content, failure, fields, ok, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Shape, Timestamp } from '../../http/openapi/shapes.js';
import { XLSX_TYPE } from '../../http/attachment.js';
import { CHANNELS } from '../query-log/query-log.js';

const Question = Type.String({ description: 'The question as logged: normalised, personal data masked.' });

export const SearchAnalytics = Component('SearchAnalytics', 'What people asked the search in a time range (docs/search-analytics.md).', {
  range: Shape({
    from: Type.String({ description: "First day, YYYY-MM-DD, in the service's time zone." }),
    to: Type.String({ description: 'Last day, inclusive.' }),
    utc_offset: Type.String({ description: "The service's time zone (UTC_OFFSET), e.g. +08:00: where its days begin." }),
  }),
  totals: Shape({
    questions: Count('Questions answered.'),
    askers: Count('Distinct askers, counted per day (an address hashes differently each day).'),
    no_match: Count('Questions answered with nothing.'),
    no_match_rate: Type.Number({ minimum: 0, maximum: 1, description: 'no_match ÷ questions (0 without questions).' }),
  }),
  top: Type.Array(
    Shape({
      query: Question,
      count: Count('Times asked.'),
      askers: Count('Distinct askers.'),
      no_match: Count('Times answered with nothing.'),
      last_asked_at: Timestamp(),
    }),
    { description: 'The questions asked most, most first.' },
  ),
  no_result: Type.Array(
    Shape({
      query: Question,
      count: Count('Times answered with nothing.'),
      askers: Count('Distinct askers.'),
      no_match: Count('Same as count.'),
      last_asked_at: Timestamp(),
    }),
    { description: 'The questions answered with nothing most often.' },
  ),
  refined: Type.Array(Shape({ query: Question, refined_to: Question, count: Count('Times an asker asked the second within a minute of the first.') }), {
    description: 'Questions people rephrased at once: the same asker asked something else within a minute.',
  }),
  daily: Type.Array(
    Shape({
      day: Type.String({ description: "YYYY-MM-DD, in the service's time zone." }),
      total: Count('Questions that day.'),
      no_match: Count('Of them answered with nothing.'),
      channels: Shape({ page: Count('Public page.'), console: Count('Search console.'), assistant: Count('Assistant tool.'), api: Count('API.') }),
    }),
    { description: 'Every day of the range, oldest first, days without questions included.' },
  ),
  slow: Type.Array(
    Shape({
      query: Question,
      latency_ms: Type.Number({ minimum: 0 }),
      asked_at: Timestamp(),
      result_count: Count('Permits returned.'),
      channel: Type.String(),
    }),
    { description: 'The slowest answers, slowest first.' },
  ),
});

const filters = (limit: string) =>
  fields({
    from: Type.Optional(Type.String({ description: "First day, YYYY-MM-DD (in the service's time zone); default 29 days before `to`." })),
    to: Type.Optional(Type.String({ description: 'Last day, inclusive; default today. At most 366 days in all.' })),
    ...aliased('region', ['region_id'], Type.String({ description: 'Only questions whose region filter held this region (id, code or name).' })),
    channel: Type.Optional(Type.Union(CHANNELS.map((c) => Type.Literal(c)))),
    limit: Type.Optional(Type.Integer({ description: limit })),
  });

const refused = failure('A date that is not YYYY-MM-DD, a range backwards or longer than 366 days, an unknown region or channel.');

export const searchAnalyticsDocs = routeDocs('statistics', {
  report: {
    summary: 'Search analytics from the query log',
    description: 'Administrators (grade ≥ 90) only.',
    querystring: filters('Rows per list; default 20, clamped to 1..100.'),
    responses: { 200: ok('The figures.', SearchAnalytics), 400: refused },
  },
  export: {
    summary: 'Search analytics as a workbook',
    description: 'The same figures, one sheet a list (up to 1,000 rows each). Administrators (grade ≥ 90) only.',
    querystring: filters('Rows per list; default 1000, clamped to 1..1000.'),
    responses: {
      200: content('The .xlsx workbook.', [XLSX_TYPE], {
        'content-disposition': 'attachment; filename="search-analytics-<from>-<to>.xlsx"; filename*=UTF-8\'\'搜索分析…',
      }),
      400: refused,
    },
  },
});
