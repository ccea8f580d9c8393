import type { RouteOptions } from 'fastify';
import { multipartBody } from '../helpers/multipart.js';
import {
  CONTROL_CHARACTERS,
  hostileJsonValue,
  hostileKey,
  hostileString,
  LONE_SURROGATES,
  LONG,
  MARKUP_AND_TEMPLATES,
  NUMBER_LIKE,
  ODD_TEXT,
  PATH_TRAVERSAL,
  percentEncode,
  PROTOTYPE_KEYS,
  SQL_INJECTION,
} from './hostile-values.js';
import type { Random } from './random.js';

/** One registered route and method, as the onRoute hook saw it. */
export interface RouteUnderTest {
  method: string;
  url: string;
  params: string[];
  /** The body fields a schema declares (it refuses any other); null when the route has no body schema. */
  schemaFields: string[] | null;
  /** Needs a login (the guard answers an anonymous caller before anything is read). */
  guarded: boolean;
}

export interface HostileRequest {
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/**
 * Every input name the interface and docs/ give a route (query string, JSON or form). A
 * route without a body schema gets all of them at once, so whichever it reads is hostile.
 */
export const KNOWN_FIELDS = [
  'query',
  'q',
  'text',
  'debug',
  'top',
  'mode',
  'region',
  'region_id',
  'regions',
  'regions[]',
  'themes',
  'theme',
  'theme_id',
  'themes[]',
  'departments',
  'department',
  'departments[]',
  'search_text',
  'limit',
  'offset',
  'visibility',
  'permit',
  'permit_id',
  'edited_by',
  'editedBy',
  'change_summary',
  'changeSummary',
  'username',
  'password',
  'display_name',
  'role',
  'grade',
  'service_department_id',
  'parent_department_id',
  'department_phone',
  'department_role',
  'include_inactive',
  'name',
  'new_name',
  'code',
  'phone',
  'parent_id',
  'description',
  'force',
  'municipal_dept_id',
  'district_dept_id',
  'session_id',
  'sessionId',
  'sheet_names',
  'sheets',
  'selectedSheets',
  'overrides',
  'theme_bindings',
  'themeBindings',
  'keyword',
  'operator',
  'operation_type',
  'type',
  'create_auto_backup',
  'batch_size',
  'next',
  'error',
  'old_password',
  'new_password',
  'is_active',
  'must_change_password',
  'binding_mode',
  'department_id',
];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface SchemaLike {
  properties?: Record<string, unknown>;
  anyOf?: SchemaLike[];
}

function schemaFields(schema: unknown): string[] | null {
  if (!schema || typeof schema !== 'object') return null;
  const s = schema as SchemaLike;
  if (s.properties) return Object.keys(s.properties);
  const fromUnion = (s.anyOf ?? []).flatMap((m) => schemaFields(m) ?? []);
  return s.anyOf ? fromUnion : null;
}

/** The route × method pairs of one onRoute notification (HEAD is Fastify's echo of GET: left out). */
export function routesOf(route: RouteOptions, apiRoot: string): RouteUnderTest[] {
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
  const params = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const body = route.schema?.body;
  const guard = (route.config as { guard?: string } | undefined)?.guard;
  const guarded = guard ? guard !== 'public' : route.url.startsWith(`${apiRoot}/admin/`);
  return methods.map((method) => ({ method, url: route.url, params, schemaFields: schemaFields(body), guarded }));
}

/** Real records of the test database, so some hostile requests get past "not found" into the deeper code. */
export type KnownTokens = string[];

/** The categories of hostile text; each route gets one request per category in every input place. */
export const TEXT_CATEGORIES: Record<string, (rng: Random) => string> = {
  'sql-injection': (rng) => rng.pick(SQL_INJECTION),
  'path-traversal': (rng) => rng.pick(PATH_TRAVERSAL),
  'control-characters': (rng) => rng.pick(CONTROL_CHARACTERS),
  'lone-surrogates': (rng) => rng.pick(LONE_SURROGATES),
  'markup-and-formulas': (rng) => rng.pick(MARKUP_AND_TEMPLATES),
  'prototype-words': (rng) => rng.pick(PROTOTYPE_KEYS),
  'number-like': (rng) => rng.pick(NUMBER_LIKE),
  'odd-text': (rng) => rng.pick(ODD_TEXT),
  'long-10k': () => LONG.tenK(),
};

/** A form body is read by the same readers as JSON once parsed: it gets the categories that test the parsing itself. */
const FORM_CATEGORIES = new Set(['sql-injection', 'control-characters', 'lone-surrogates', 'prototype-words', 'long-10k']);

function pathFor(route: RouteUnderTest, value: (name: string) => string): string {
  return route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => value(name));
}

function queryString(entries: Array<[string, string]>): string {
  return entries.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
}

function withQuery(path: string, qs: string): string {
  return qs === '' ? path : `${path}?${qs}`;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/** Raw bodies no JSON parser should accept, or that try to reach Object.prototype. */
export const MALFORMED_JSON = [
  '{',
  '{"a":',
  '[1,2',
  '{"a":1}}',
  "{'single':'quotes'}",
  '{"a":NaN}',
  '{"a":1,}',
  'nul',
  '\ufeff{"a":1}',
  '{"a":"\u0000"}',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":{"__proto__":{"polluted":"yes"}}}',
  '[{"__proto__":{"polluted":"yes"}}]',
  '"just a string"',
  '42',
  'null',
  'true',
  '[]',
  '',
  ' ',
  '{"a":"\\ud800"}',
  `{"deep":${'['.repeat(5000)}${']'.repeat(5000)}}`,
];

/** Bodies sent under a content type the route does not expect (or no content type at all). */
function wrongContentTypes(fields: Record<string, unknown>): Array<{ headers: Record<string, string>; payload: string | Buffer }> {
  const json = JSON.stringify(fields);
  return [
    { headers: { 'content-type': 'text/plain' }, payload: json },
    { headers: { 'content-type': 'application/xml' }, payload: MARKUP_AND_TEMPLATES[MARKUP_AND_TEMPLATES.length - 1] },
    { headers: FORM_TYPE, payload: json },
    { headers: JSON_TYPE, payload: 'name=x&region=y' },
    { headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from([0, 1, 2, 0xff, 0xfe]) },
    { headers: {}, payload: json },
    { headers: { 'content-type': 'application/json; charset=utf-16le' }, payload: Buffer.from(json, 'utf16le') },
    { headers: { 'content-type': ';;;===' }, payload: json },
    { headers: { 'content-type': 'application/x-www-form-urlencoded; charset=bogus' }, payload: 'a=%zz&b=%E0%A4%A' },
    { headers: { 'content-type': 'application/json', 'content-length': '-1' }, payload: json },
  ];
}

/** Multipart bodies that are broken, oddly named, too many or too much. */
function malformedMultipart(rng: Random): Array<{ headers: Record<string, string>; payload: Buffer }> {
  const xlsxish = Buffer.from('PK\u0003\u0004 not really a workbook');
  const good = multipartBody({ binding_mode: 'auto' }, { file: { filename: 'a.xlsx', content: xlsxish } });
  const boundary = good.headers['content-type'].split('boundary=')[1];
  const many: Record<string, string> = {};
  for (let i = 0; i < 25; i++) many[`f${i}`] = 'x';
  const raw = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'));
  return [
    { headers: { 'content-type': 'multipart/form-data' }, payload: good.payload },
    { headers: good.headers, payload: good.payload.subarray(0, Math.floor(good.payload.length / 2)) },
    { headers: { 'content-type': 'multipart/form-data; boundary=other' }, payload: good.payload },
    multipartBody({}, { upload: { filename: 'a.xlsx', content: xlsxish } }),
    multipartBody({}, { 'file[]': { filename: 'a.xlsx', content: xlsxish } }),
    {
      headers: good.headers,
      payload: raw(
        `--${boundary}\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\n\nAAA\n` +
          `--${boundary}\nContent-Disposition: form-data; name="file"; filename="b.xlsx"\n\nBBB\n--${boundary}--\n`,
      ),
    },
    multipartBody({ file: 'not a file' }),
    multipartBody(many),
    multipartBody({ binding_mode: 'y'.repeat(100 * 1024) }),
    multipartBody({ binding_mode: hostileString(rng, false), department_id: hostileString(rng, false) }, { file: { filename: 'a.xlsx', content: xlsxish } }),
    multipartBody({}, { file: { filename: rng.pick(PATH_TRAVERSAL), content: Buffer.alloc(0) } }),
    multipartBody({}, { file: { filename: 'x\u0000y\r\n.xlsx', content: Buffer.from(rng.pick(SQL_INJECTION)) } }),
    { headers: good.headers, payload: raw(`--${boundary}\n\nno headers at all\n--${boundary}--\n`) },
    { headers: good.headers, payload: raw(`--${boundary}\nContent-Disposition: form-data\n\nno name\n--${boundary}--\n`) },
    { headers: good.headers, payload: Buffer.from(`--${boundary}--\r\n`) },
  ];
}

/** Query strings that are broken or try to build nested objects. */
const ODD_QUERIES = [
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  '__proto__=x&constructor=y&prototype=z',
  'a[b][c][d]=1&a[]=2',
  '%zz=%E0%A4%A&%=%',
  '&&&==&=',
  Array.from({ length: 200 }, () => 'region=x').join('&'),
  'region=%00&permit=%00',
  'region=%ED%A0%80&query=%ED%A0%80',
  'query&region&limit&offset',
];

export interface CaseBudget {
  /** The text categories sent in every input place (default: all of them). */
  categories?: string[];
  /** 1 MB values, wrong types, malformed JSON, content types, multipart, odd query strings and headers. */
  structure: boolean;
  /** Extra random requests per route. */
  random: number;
}

/**
 * The hostile requests for one route: one per text category in every input place (path, query,
 * JSON, form), the structural lists (malformed JSON, wrong content types, broken multipart, odd
 * query strings, headers), then `random` mixed requests.
 */
export function hostileRequests(route: RouteUnderTest, rng: Random, known: KnownTokens, budget: CaseBudget): HostileRequest[] {
  const out: HostileRequest[] = [];
  const hasBody = BODY_METHODS.has(route.method);
  const fieldNames = route.schemaFields ?? KNOWN_FIELDS;
  const add = (kind: string, url: string, headers: Record<string, string> = {}, payload?: string | Buffer) =>
    out.push({ kind, method: route.method, url, headers, payload });
  const realOr = (text: () => string) => (known.length > 0 && rng.chance(0.25) ? rng.pick(known) : text());
  const path = (text: () => string) => pathFor(route, () => percentEncode(realOr(text)));

  for (const category of budget.categories ?? Object.keys(TEXT_CATEGORIES)) {
    const text = TEXT_CATEGORIES[category];
    const fields = Object.fromEntries(fieldNames.map((f) => [f, realOr(() => text(rng))]));
    add(
      `query:${category}`,
      withQuery(
        path(() => text(rng)),
        queryString(Object.entries(fields)),
      ),
    );
    if (hasBody) {
      add(
        `json:${category}`,
        path(() => text(rng)),
        JSON_TYPE,
        JSON.stringify(fields),
      );
      if (FORM_CATEGORIES.has(category))
        add(
          `form:${category}`,
          path(() => text(rng)),
          FORM_TYPE,
          queryString(Object.entries(fields)),
        );
    }
    if (route.params.length > 0)
      add(
        `path:${category}`,
        pathFor(route, () => percentEncode(text(rng))),
      );
  }
  if (budget.structure) {
    // A 1 MB value in one field at a time: in the query string it reaches the handler; a 1 MB
    // Chinese body is over the 1 MB body limit (refused as too large), one just under it is read.
    const field = rng.pick(fieldNames);
    add(
      'query:1mb',
      withQuery(
        path(() => 'x'),
        queryString([[field, LONG.ascii1mb()]]),
      ),
    );
    if (hasBody) {
      add(
        'json:1mb',
        path(() => 'x'),
        JSON_TYPE,
        JSON.stringify({ [field]: LONG.chinese1mb() }),
      );
      add(
        'json:just-under-limit',
        path(() => 'x'),
        JSON_TYPE,
        JSON.stringify({ [field]: LONG.justUnderBody() }),
      );
      add(
        'form:1mb',
        path(() => 'x'),
        FORM_TYPE,
        queryString([[field, LONG.chinese1mb()]]),
      );
    }
    if (route.params.length > 0) {
      add(
        'path:1mb',
        pathFor(route, () => 'p'.repeat(1024 * 1024)),
      );
      add(
        'path:empty',
        pathFor(route, () => ''),
      );
      add(
        'path:raw-traversal',
        pathFor(route, () => '..%2F..%2F..%2Fetc%2Fpasswd'),
      );
      add(
        'path:encoded-dots',
        pathFor(route, () => '%2e%2e'),
      );
    }
    // Wrong types: every field at once, each with a value of another type.
    const typed = Object.fromEntries(fieldNames.map((f) => [f, hostileJsonValue(rng)]));
    if (hasBody) {
      add(
        'json:wrong-types',
        path(() => 'x'),
        JSON_TYPE,
        JSON.stringify(typed),
      );
      for (const top of [[], ['a'], 'text', 1, true, null])
        add(
          'json:top-level',
          path(() => 'x'),
          JSON_TYPE,
          JSON.stringify(top),
        );
      for (const text of MALFORMED_JSON)
        add(
          'json:malformed',
          path(() => 'x'),
          JSON_TYPE,
          text,
        );
      for (const c of wrongContentTypes(typed))
        add(
          'content-type',
          path(() => 'x'),
          c.headers,
          c.payload,
        );
      for (const m of malformedMultipart(rng))
        add(
          'multipart',
          path(() => 'x'),
          m.headers,
          m.payload,
        );
      const extra = Object.fromEntries([...rng.some(fieldNames, 3).map((f) => [f, 'x']), [hostileKey(rng), 'y']]);
      add(
        'json:unknown-key',
        path(() => 'x'),
        JSON_TYPE,
        JSON.stringify(extra),
      );
    } else {
      add(
        'get-with-body',
        path(() => 'x'),
        JSON_TYPE,
        JSON.stringify(typed),
      );
    }
    for (const qs of ODD_QUERIES)
      add(
        'query:structure',
        withQuery(
          path(() => 'x'),
          qs,
        ),
      );
    add(
      'header:cookie',
      path(() => 'x'),
      { cookie: `lawrisk_sid=${percentEncode(rng.pick(SQL_INJECTION))}; lawrisk_sid=x` },
    );
    add(
      'header:request-id',
      path(() => 'x'),
      { 'x-request-id': rng.pick(['../../x', 'a'.repeat(500), '<script>', '%00']) },
    );
    add(
      'header:forwarded',
      path(() => 'x'),
      { 'x-forwarded-for': rng.pick(SQL_INJECTION), 'x-forwarded-host': 'evil.example' },
    );
    if (hasBody)
      add(
        'header:origin',
        path(() => 'x'),
        { origin: rng.pick(['https://evil.example', 'null']), ...JSON_TYPE },
        '{}',
      );
  }

  for (let i = 0; i < budget.random; i++) {
    const fields = Object.fromEntries(
      rng.some(fieldNames, 6).map((f) => [f, rng.chance(0.3) ? hostileJsonValue(rng) : realOr(() => hostileString(rng, false))]),
    );
    if (rng.chance(0.15)) fields[hostileKey(rng)] = hostileString(rng, false);
    const texts = Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
    const url = path(() => hostileString(rng, false));
    const shape = hasBody ? rng.int(4) : 0;
    if (shape === 0) add('random:query', withQuery(url, queryString(texts)));
    else if (shape === 1) add('random:json', url, JSON_TYPE, JSON.stringify(fields));
    else if (shape === 2) add('random:form', url, FORM_TYPE, queryString(texts));
    else add('random:raw', url, { 'content-type': rng.pick(['application/json', 'text/plain', 'multipart/form-data']) }, rng.pick(MALFORMED_JSON));
  }
  return out;
}
