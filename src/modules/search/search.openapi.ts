import { Type } from '@sinclair/typebox';
import { aliased, failure, fields, FORM_OR_JSON, json, ok, okBody, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Named, Nullable, Shape } from '../../http/openapi/shapes.js';
import { Permit } from '../permits/permits.openapi.js';
import { Region, regionToken } from '../regions/regions.openapi.js';
import { ThemeRef } from '../themes/themes.openapi.js';
import { TERM_ORIGINS } from './engine/types.js';

const text = (description?: string) => Nullable(Type.String(), description);

/** One search result item (docs/search.md): a permit in a region with its risks. */
export const RiskSubject = Component('RiskSubject', 'A `risk_subject` item: one permit in one region. Unknown values are null or [], never absent.', {
  region: Named('The region.'),
  permit: Shape({
    id: Id(),
    name: Type.String(),
    code: text(),
    implementation_level: text(),
    approval_departments: Type.Array(Type.String()),
    internal_contact: text(),
    contact_info: text(),
  }),
  themes: Type.Array(ThemeRef),
  theme: Nullable(ThemeRef, 'The first of `themes`.'),
  risks: Type.Array(
    Shape({ id: Id(), title: Type.String(), description: text(), legal_basis: text(), consequence: text(), prevention: text(), level: text('高, 中 or 低.') }),
  ),
  score: Type.Number({ description: 'Relevance; results come best first.' }),
  matched: Type.Array(Type.String(), { description: "The query terms that hit, as they appear in the permit's text (for highlighting)." }),
});

/** `data.debug` of a `/v2` answer asked with the debug flag. */
const Evidence = Type.String({
  enum: ['text', 'alias', 'activity', 'supporting', 'question'],
  description:
    'Where the permit matched: `text` its own text (name, themes, departments, risk titles and texts), `alias` a name people use for it, `activity` an activity it is the principal permit for, `supporting` one it is also needed for, `question` a question people ask about it (docs/search-knowledge.md).',
});

/** What matched one word of the question in a permit: its best match. */
export const HitConcept = Shape({
  concept: Type.String(),
  matched_as: Type.String(),
  origin: Type.String({ enum: [...TERM_ORIGINS] }),
  evidence: Evidence,
  score: Type.Number(),
});

export const SearchDebug = Component('SearchDebug', 'Debugging details of one search.', {
  normalized_query: Type.String({ description: 'The query after normalisation (width, case, traditional → simplified).' }),
  terms: Type.Array(
    Shape({ term: Type.String(), origin: Type.String({ enum: [...TERM_ORIGINS], description: 'How the term was produced.' }), weight: Type.Number() }),
    { description: 'The terms searched.' },
  ),
  concepts: Type.Array(
    Shape({
      text: Type.String(),
      kind: Type.String({
        enum: ['content', 'single', 'light', 'intent', 'stage', 'bridge', 'sound'],
        description:
          'content/single: names what is asked about; light: qualifies it; intent: a question word or filler; stage: tells new, change, renewal, reissue or cancellation; bridge: a bigram across two words; sound: pinyin or initials.',
      }),
      weight: Type.Number(),
      alternatives: Type.Array(Shape({ text: Type.String(), origin: Type.String({ enum: [...TERM_ORIGINS] }), weight: Type.Number() }), {
        description: 'What the word may be matched as; each word counts once, by its best match.',
      }),
    }),
    { description: 'The words of the question, as the ranking counts them.' },
  ),
  no_match_reason: Nullable(
    Type.String({ enum: ['nothing', 'unexplained', 'elsewhere'] }),
    "`nothing`: no permit matches any word of the question; `unexplained`: the best candidate explains too little of it; `elsewhere`: with a region filter, the region's best candidate is far below what the rest of the catalogue answers (the region lacks that permit); null when something matched.",
  ),
  subjects: Type.Array(Shape({ text: Type.String(), explained: Type.Number({ description: '0..1' }) }), {
    description: 'The words an answer must explain, and how well the best-scoring candidate explains each.',
  }),
  cut: Type.Array(
    Shape({
      permit_id: Id(),
      permit_name: Type.String(),
      reason: Type.String({
        enum: ['unexplained', 'elsewhere', 'relative', 'hit_unexplained'],
        description:
          '`unexplained` or `elsewhere`: the whole answer was refused (no_match_reason); `relative`: far below the best hit; `hit_unexplained`: explains too little of the question.',
      }),
      score: Type.Number(),
      explained: Type.Number(),
    }),
    { description: 'Candidates left out of the answer, best first (at most ten).' },
  ),
  region_filter: Nullable(Type.Array(Id()), 'The region ids the region values matched; null without a region filter.'),
  results: Type.Array(
    Shape({
      permit_id: Id(),
      permit_name: Type.String(),
      region: Type.String({ description: 'The region name.' }),
      score: Type.Number(),
      breakdown: Type.Record(Type.String(), Type.Number(), {
        description:
          'Score per field (name, code, theme, department, risk_title, risk_text, pinyin, department_alias, alias, activity, supporting, question) and the factors: `explained_share`, `name_phrase`, `stage`.',
      }),
      matched: Type.Array(Type.String()),
      explained: Type.Number({ description: 'How well the permit explains the question (0..1).' }),
      name_share: Type.Number({ description: 'Share of the permit name the question holds contiguously.' }),
      stage_match: Type.Boolean({ description: 'The permit is of the stage the question asks about (a new application when it names none).' }),
      concepts: Type.Array(HitConcept, { description: 'Per word of the question that matched: its best match.' }),
    }),
    { description: 'Per result, in result order.' },
  ),
  timings_us: Shape({ analyze: Type.Number(), retrieve: Type.Number(), rank: Type.Number(), total: Type.Number() }, { description: 'Microseconds.' }),
  index: Shape(
    { documents: Count('Permits indexed.'), age_ms: Type.Number({ description: 'Since the index was built.' }), version: Type.Integer() },
    { description: 'The index answering.' },
  ),
});

const empty = (description: string) => Type.Literal('', { description });

export const SearchData = Component('SearchData', 'The `data` of a search answer.', {
  llmRespond: Type.String({ description: 'Empty when something matched, else 抱歉,无法检索到相关答案.' }),
  request: empty('Always empty.'),
  questionExtend: Type.Array(Type.Never(), { maxItems: 0, description: 'Always empty.' }),
  conversationId: empty('Always empty.'),
  messageId: empty('Always empty.'),
  workflowTrackingId: empty('Always empty.'),
  roundNumber: Type.Literal(0),
  conversationInfo: Shape({}, { description: 'Always empty.' }),
  costStatistics: Shape({}, { description: 'Always empty.' }),
  knowledgeSources: Type.Array(Type.Never(), { maxItems: 0, description: 'Always empty.' }),
  executionSteps: Type.Array(Type.Never(), { maxItems: 0, description: 'Always empty.' }),
  totalKnowledgeSources: Type.Literal(0),
  executionTime: Type.Integer({ description: 'Elapsed milliseconds.' }),
  workflowStatus: Type.Union([Type.Literal('ok'), Type.Literal('no_match')], { description: '`ok` when `risk_subject` is non-empty.' }),
  risk_subject: Type.Array(RiskSubject, { maxItems: 20, description: 'The matches, best first; how many (at most 20) is decided by relevance.' }),
  debug: Type.Union([Shape({}, { description: 'Without the debug flag.' }), SearchDebug]),
});

const searchFields = (post: boolean) =>
  fields({
    ...aliased(
      'query',
      ['q', 'text'],
      Type.String({ maxLength: 500, description: 'The question, e.g. 开奶茶店要办什么证; required, at most 500 characters.' }),
    ),
    debug: Type.Optional(
      Type.String({ description: `Debug details when one of 1, true, yes, on${post ? ' (case-insensitive; JSON true too)' : ' (exactly)'}.` }),
    ),
    top: Type.Optional(Type.Integer({ default: 5, description: 'Accepted; does not change the output.' })),
    mode: Type.Optional(Type.String({ default: 'llm', description: 'Accepted; does not change the output.' })),
    channel: Type.Optional(
      Type.String({
        description:
          'Where the question is asked — page, console, assistant or api (any other value counts as api) — for the query log (docs/query-log.md); the header X-Lawrisk-Channel says the same. Does not change the output.',
      }),
    ),
    ...aliased(
      'region',
      ['region_id'],
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: `Region ids, codes or names (any of them${post ? '' : '; repeat the parameter for several'}); values matching no region give no_match.`,
      }),
    ),
  });

const search = (post: boolean) => ({
  summary: `Search permits and their risks (${post ? 'JSON or form body' : 'query string'})`,
  description:
    'Hidden permits never appear. Answers without debug are cached until the data changes. Answers of 1 kB or more come gzip-compressed (`Content-Encoding: gzip`) to clients sending `Accept-Encoding: gzip`.',
  ...(post ? { body: searchFields(true), bodyRequired: true as const, consumes: FORM_OR_JSON } : { querystring: searchFields(false) }),
  responses: {
    200: ok('The matches (`workflowStatus` tells whether there are any).', SearchData, Type.Literal('OK')),
    400: [
      json('A blank or non-string query: the one answer without the envelope.', Shape({ error: Type.Literal('query is required') })),
      failure('查询内容过长（最多 500 个字符）'),
    ],
  },
});

const getPermits = (post: boolean) => ({
  summary: `The search-visible permits of one region (${post ? 'JSON or form body' : 'query string'})`,
  sessionOptional: "below grade 90 only the user's own region has permits (another region answers an empty list).",
  ...(post ? { body: fields(regionToken(true)), bodyRequired: true as const, consumes: FORM_OR_JSON } : { querystring: fields(regionToken(true)) }),
  responses: {
    200: ok('The permits, by name.', Shape({ region: Type.String({ description: 'The region token as sent.' }), permits: Type.Array(Permit) })),
    400: failure('region is required'),
  },
});

export const searchDocs = routeDocs('search', {
  searchGet: search(false),
  searchPost: search(true),
  regions: { summary: 'All regions', responses: { 200: ok('The regions, by id.', Shape({ regions: Type.Array(Region) })) } },
  themes: {
    summary: 'All themes with their search-visible permit counts',
    responses: {
      200: json(
        'The themes, by name.',
        okBody({ data: Type.Array(Shape({ id: Id(), name: Type.String(), permit_count: Count('Search-visible permits of the theme.') })) }),
      ),
    },
  },
  unboundPermits: {
    summary: 'Permits bound to no theme',
    sessionOptional: 'needed for `visibility` hidden or all.',
    querystring: fields({
      visibility: Type.Optional(
        Type.String({
          enum: ['visible', 'hidden', 'all'],
          default: 'visible',
          description: 'Search-visible, hidden or all permits (case-insensitive); hidden and all need a login.',
        }),
      ),
    }),
    responses: {
      200: json('The permits, by region and name.', okBody({ data: Type.Array(Permit) })),
      400: failure('visibility 只能是 visible、hidden 或 all'),
      401: failure('`visibility` hidden or all without a login: 请先登录'),
    },
  },
  getPermitsGet: getPermits(false),
  getPermitsPost: getPermits(true),
});
