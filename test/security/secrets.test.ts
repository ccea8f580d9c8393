import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app.js';
import { sanitizeParams } from '../../src/modules/operation-log/sanitize-params.js';
import { testDialects } from '../helpers/databases.js';
import { createUser } from '../helpers/fixtures.js';
import { multipartBody } from '../helpers/multipart.js';
import { ADMIN_PASSWORD, API, buildTestApp, cookieOf, type TestApp } from '../helpers/test-app.js';
import { ledger, permitRow } from './two-regions.js';

/**
 * Passwords, session ids and uploaded file contents never reach the logs — captured at trace
 * level, the most verbose there is — nor the operation log rows in the database.
 */

const SECRET = {
  clerk: 'Secret-Clerk-Pass-7731',
  wrongGuess: 'Secret-Wrong-Guess-5521',
  ownNew: 'Secret-Own-New-Pass-8842',
  created: 'Secret-Created-Pass-9953',
  createdByForm: 'Secret-Form-Pass-1164',
  reset: 'Secret-Reset-Pass-2275',
  nested: 'Secret-Nested-Pass-3386',
  deep: 'Secret-Deep-Pass-4497',
  override: 'Secret-Override-Pass-5508',
  formLogin: 'Secret-Form-Login-6619',
};
const CELL_MARKER = 'FILE-CONTENT-MARKER-7720';

/** Every schema property name, however deep (objects, unions, arrays). */
function propertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as Record<string, unknown>;
  if (s.properties && typeof s.properties === 'object') {
    for (const [name, sub] of Object.entries(s.properties)) {
      out.add(name);
      propertyNames(sub, out);
    }
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'items', 'additionalProperties', 'patternProperties']) {
    const sub = s[key];
    if (Array.isArray(sub)) for (const x of sub) propertyNames(x, out);
    else if (sub && typeof sub === 'object') propertyNames(key === 'patternProperties' ? Object.values(sub) : sub, out);
  }
  return out;
}

const PASSWORD_LIKE = /pass|pwd|secret|token|credential|密码/i;

describe.each(testDialects())('secrets stay out of the logs on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  const routes: RouteOptions[] = [];
  const cookies: string[] = [];
  let content: Buffer;

  beforeAll(async () => {
    t = await buildTestApp(dialect, {
      env: { LOGIN_RATE_LIMIT: '0' },
      build: {
        logger: { ...loggerOptions({ logLevel: 'trace' }), stream: { write: (line: string) => void lines.push(line) } },
        onRoute: (r) => void routes.push(r),
      },
    });
    await createUser(t.dbh.db, { username: 'clerk', password: SECRET.clerk, grade: 50 });
    content = await ledger({ 台账: [permitRow('甲区', 'A-001', '食品经营许可', { risk: `${CELL_MARKER}\n说明` })] });
  });
  afterAll(async () => t?.close());

  const send = (method: 'POST' | 'PATCH', url: string, payload: object | string, cookie: string, type?: string) =>
    t.app.inject({ method, url: `${API}${url}`, payload, headers: { cookie, ...(type ? { 'content-type': type } : {}) } });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const FORM = 'application/x-www-form-urlencoded';

  it('logs in, changes passwords, creates users and imports a workbook: none of it in the logs or the operation log', async () => {
    const login = async (username: string, password: string) => {
      const res = await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username, password } });
      const cookie = cookieOf(res);
      cookies.push(cookie.split('=')[1]);
      return cookie;
    };
    const admin = await login('admin', ADMIN_PASSWORD);
    const clerk = await login('clerk', SECRET.clerk);
    expect((await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'clerk', password: SECRET.wrongGuess } })).statusCode).toBe(
      401,
    );
    const formLogin = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      payload: form({ username: 'admin', password: SECRET.formLogin }),
      headers: { 'content-type': FORM },
    });
    expect(formLogin.headers.location).toBe(`${API}/login?error=credentials`);

    expect((await send('POST', '/auth/password', { old_password: SECRET.clerk, new_password: SECRET.ownNew }, clerk)).statusCode).toBe(200);
    const created = await send('POST', '/admin/users', { username: 'newcomer', password: SECRET.created, grade: 50 }, admin);
    expect(created.statusCode).toBe(200);
    const byForm = await send('POST', '/admin/users', form({ username: 'formcomer', password: SECRET.createdByForm, grade: '50' }), admin, FORM);
    expect(byForm.statusCode, byForm.body).toBe(200);
    const id = created.json().data.user.id;
    expect((await send('PATCH', `/admin/users/${id}`, { password: SECRET.reset }, admin)).statusCode).toBe(200);
    // Refused requests are logged too, with whatever they carried, however deep.
    const nested = await send('PATCH', `/admin/users/${id}`, { password: SECRET.nested, settings: { password: SECRET.deep } }, admin);
    expect(nested.statusCode).toBe(400);
    const override = await send(
      'POST',
      '/admin/permit-import/commit',
      { session_id: 'no-such-session', overrides: { 台账: { password: SECRET.override } } },
      admin,
    );
    expect(override.statusCode).toBe(400);
    const dept = await send('POST', '/admin/service-departments', { name: '保密测试局', code: 'SECDEPT' }, admin);
    const defaultPassword = dept.json().data.default_password as string;
    expect(defaultPassword).toBe('SECDEPT123456');

    const { payload, headers } = multipartBody({}, { file: { filename: '台账.xlsx', content } });
    const upload = await t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers: { ...headers, cookie: admin } });
    expect(upload.statusCode).toBe(200);
    const commit = await send('POST', '/admin/permit-import/commit', { session_id: upload.json().data.session_id }, admin);
    expect(commit.statusCode, commit.body).toBe(200);
    const template = (await t.app.inject({ url: `${API}/admin/permit-import/template`, headers: { cookie: admin } })).rawPayload;
    const tpl = multipartBody({}, { file: { filename: 'template.xlsx', content: template } });
    expect(
      (await t.app.inject({ method: 'POST', url: `${API}/admin/templates/permit`, payload: tpl.payload, headers: { ...tpl.headers, cookie: admin } }))
        .statusCode,
    ).toBe(200);
    expect((await send('POST', '/auth/logout', {}, clerk)).statusCode).toBe(200);

    const secrets = [ADMIN_PASSWORD, ...Object.values(SECRET), defaultPassword, ...cookies];
    const fileTraces = [CELL_MARKER, content.toString('base64').slice(0, 40), content.toString('hex').slice(0, 40), template.toString('base64').slice(0, 40)];

    // The capture works, at trace level: every request was logged.
    const logText = lines.join('');
    expect(lines.some((l) => JSON.parse(l).level === 10)).toBe(true);
    expect(lines.filter((l) => JSON.parse(l).msg === 'request completed').length).toBeGreaterThanOrEqual(14);
    for (const s of [...secrets, ...fileTraces]) expect(logText, s).not.toContain(s);

    // The operation log recorded these calls, secrets replaced wherever they were.
    const rows = await t.dbh.db.selectFrom('operation_logs').selectAll().execute();
    const rowText = JSON.stringify(rows);
    for (const s of [...secrets, ...fileTraces]) expect(rowText, s).not.toContain(s);
    const types = rows.map((r) => r.operation_type);
    expect(types).toEqual(expect.arrayContaining(['login', 'update', 'create', 'import', 'template_update', 'logout']));
    const params = rows.map((r) => JSON.parse(r.params ?? 'null'));
    expect(params).toContainEqual(expect.objectContaining({ username: 'formcomer', password: '[已隐藏]' }));
    expect(params).toContainEqual(expect.objectContaining({ old_password: '[已隐藏]', new_password: '[已隐藏]' }));
    expect(params).toContainEqual(expect.objectContaining({ password: '[已隐藏]', settings: { password: '[已隐藏]' } }));
    expect(params).toContainEqual(expect.objectContaining({ overrides: { 台账: { password: '[已隐藏]' } } }));

    // Nothing else kept in the database holds them either: accounts keep hashes, sessions hashes of their ids.
    const stored = JSON.stringify([
      await t.dbh.db.selectFrom('users').selectAll().execute(),
      await t.dbh.db.selectFrom('sessions').selectAll().execute(),
      await t.dbh.db.selectFrom('login_failures').selectAll().execute(),
    ]);
    for (const s of secrets) expect(stored, s).not.toContain(s);
  });

  it('replaces every password-like field any route accepts, at any depth, in JSON and form bodies', () => {
    const fields = new Set<string>();
    for (const r of routes) for (const name of propertyNames(r.schema?.body)) if (PASSWORD_LIKE.test(name)) fields.add(name);
    // The fields of today: login, own password change, user creation and update.
    expect([...fields].sort()).toEqual(expect.arrayContaining(['new_password', 'old_password', 'password']));
    for (const field of fields) {
      for (const shape of [
        { [field]: 'S3CRET' },
        { a: { [field]: 'S3CRET' } },
        { list: [{ [field]: 'S3CRET' }] },
        { a: { b: { c: { [field]: 'S3CRET' } } } },
      ]) {
        expect(JSON.stringify(sanitizeParams(shape)), `${field} in ${JSON.stringify(shape)}`).not.toContain('S3CRET');
      }
    }
  });
});
