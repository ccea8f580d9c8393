import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { DEFAULT_PAGES_DIR } from '../../src/app.js';
import { createDepartment, createRegion, createUser } from '../helpers/fixtures.js';
import { multipartBody } from '../helpers/multipart.js';
import { API } from '../helpers/test-app.js';
import { B_HIDDEN, ledger, PASSWORDS, permitRow, REGION_A, type Role, type TwoRegions } from './two-regions.js';

/**
 * The rows of the authorisation matrix (route-matrix.test.ts): for every registered route, the
 * request each caller sends and what each caller must get — anonymous, the department
 * administrator of region A (grade 50), the city-level user (grade 90, not role admin) and the
 * super administrator — as the guards of docs/accounts.md and the data scope allow.
 */

export type Req = InjectOptions & { cookie?: string | null };
/** `extra`: the fields the route adds to every failure envelope (`config.failureExtra`, e.g. `data: {}`). */
type Check = (res: LightMyRequestResponse, ctx: { w: MatrixWorld; req: Req; role: Role; extra: object }) => void | Promise<void>;

export interface Row {
  /** `METHOD path` as registered, the path relative to {api_root} (or `/healthz`, `/metrics`). */
  route: string;
  request: (w: MatrixWorld, role: Role) => Req | Promise<Req>;
  expect: Record<Role, Check>;
}

const json = (res: LightMyRequestResponse) => res.json<{ success: boolean; message?: string; data: any }>();

// ---- outcomes --------------------------------------------------------------------------------

const UNAUTH: Check = (res, { extra }) => {
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json()).toEqual({ success: false, message: '请先登录', ...extra });
};
const DENIED: Check = (res, { extra }) => {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({ success: false, message: '权限不足', ...extra });
};
const TO_LOGIN: Check = (res, { req }) => {
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe(`${API}/login?next=${encodeURIComponent(`${API}${req.url}`)}`);
};
const DENIED_PAGE: Check = (res) => {
  expect(res.statusCode).toBe(403);
  expect(res.headers['content-type']).toContain('text/html');
  expect(res.body).toContain('权限不足');
};
/** 200 with `success: true` (JSON answers), then the row's own assertions on `data`. */
const ok =
  (more?: (data: any, ctx: { w: MatrixWorld; role: Role; res: LightMyRequestResponse; req: Req; extra: object }) => void | Promise<void>): Check =>
  async (res, ctx) => {
    expect(res.statusCode, `${ctx.role}: ${res.body.slice(0, 300)}`).toBe(200);
    const isJson = String(res.headers['content-type']).includes('application/json');
    if (isJson && 'success' in res.json()) expect(json(res).success).toBe(true);
    if (more) await more(isJson ? (json(res).data ?? res.json()) : res.rawPayload, { ...ctx, res });
  };
const fails =
  (status: number, message: string, more?: (w: MatrixWorld) => void | Promise<void>): Check =>
  async (res, { w }) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(json(res).success).toBe(false);
    expect(json(res).message).toBe(message);
    if (more) await more(w);
  };
const html: Check = (res) => {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/html');
};
/** 200 with a content type containing `type` (static assets of the API browser). */
const served =
  (type: string): Check =>
  (res) => {
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(type);
  };
const xlsx: Check = (res) => {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  expect(res.headers['content-disposition']).toMatch(/^attachment;/);
};

/** Admin guard (role admin or grade ≥ 90): the city-level user and the super administrator pass. */
const adminOnly = (check: Check, refusedLeavesUnchanged?: (w: MatrixWorld) => Promise<void>): Record<Role, Check> => ({
  anon: UNAUTH,
  district: async (res, ctx) => {
    await DENIED(res, ctx);
    if (refusedLeavesUnchanged) await refusedLeavesUnchanged(ctx.w);
  },
  city: check,
  admin: check,
});
/** Login guard: anonymous 401; every logged-in caller gets `byRole`. */
const loggedIn = (district: Check, others: Check = district): Record<Role, Check> => ({ anon: UNAUTH, district, city: others, admin: others });
const everyone = (check: Check): Record<Role, Check> => ({ anon: check, district: check, city: check, admin: check });

const names = (list: Array<{ name: string }>) => list.map((p) => p.name);

// ---- per-role targets of the changing routes ----------------------------------------------------

/** Records the changing routes act on: one per caller allowed to change it, so every success is real. */
interface Targets {
  patchUser: number;
  users: Record<'city' | 'admin', number>;
  departments: Record<'city' | 'admin', number>;
  patchTheme: string;
  themes: Record<'city' | 'admin', string>;
  checkpoints: Record<'city' | 'admin', string>;
  patchRegion: number;
  regions: Record<'city' | 'admin', number>;
  template: Buffer;
}

export type MatrixWorld = TwoRegions & { targets: Targets };

export async function withTargets(w: TwoRegions): Promise<MatrixWorld> {
  const db = w.t.dbh.db;
  const post = async (url: string, payload: object) => (await w.call('admin', { method: 'POST', url, payload })).json().data;
  const theme = async (name: string) => String((await post('/admin/themes/catalog', { name })).theme.id);
  const checkpoint = async (description: string) => String((await post('/admin/checkpoints', { description })).checkpoint_id);
  const user = (username: string) => createUser(db, { username, password: 'Target-Pass-1' });
  const targets: Targets = {
    patchUser: await user('patch-target'),
    users: { city: await user('victim-city'), admin: await user('victim-admin') },
    departments: {
      city: await createDepartment(db, { name: '待删部门一', code: 'DEL1' }),
      admin: await createDepartment(db, { name: '待删部门二', code: 'DEL2' }),
    },
    patchTheme: await theme('待改主题'),
    themes: { city: await theme('待删主题一'), admin: await theme('待删主题二') },
    checkpoints: { city: await checkpoint('待删检查点一'), admin: await checkpoint('待删检查点二') },
    patchRegion: await createRegion(db, '待改区域'),
    regions: { city: await createRegion(db, '待删区域一'), admin: await createRegion(db, '待删区域二') },
    template: (await w.call('admin', { method: 'GET', url: '/admin/permit-import/template' })).rawPayload,
  };
  return Object.assign(w, { targets });
}

/** Anonymous and region-A callers aim at the city user's target: refused, it must still be there for the city user. */
const pick = <T>(m: Record<'city' | 'admin', T>, role: Role): T => (role === 'admin' ? m.admin : m.city);

const ASSET = readdirSync(join(DEFAULT_PAGES_DIR, 'assets')).find((f) => f.endsWith('.js'))!;

async function dbCount(w: MatrixWorld, table: 'permits' | 'users' | 'service_departments' | 'themes' | 'regions' | 'checkpoints', where?: [string, unknown]) {
  let q = w.t.dbh.db.selectFrom(table as 'permits').select((eb) => eb.fn.countAll<number>().as('n'));
  if (where) q = q.where(where[0] as 'id', '=', where[1] as number);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
const exists = async (w: MatrixWorld, table: Parameters<typeof dbCount>[1], id: number | string) => expect(await dbCount(w, table, ['id', Number(id)])).toBe(1);

// ---- the table -------------------------------------------------------------------------------------

export const rows: Row[] = [
  // Public routes: the same for everyone.
  {
    route: 'GET /healthz',
    request: () => ({ method: 'GET', url: '/healthz' }),
    expect: everyone(ok((d) => expect(d).toMatchObject({ status: 'ok', ready: true }))),
  },
  { route: 'GET /readyz', request: () => ({ method: 'GET', url: '/readyz' }), expect: everyone(ok((d) => expect(d).toEqual({ status: 'ready' }))) },
  { route: 'GET /test-simple', request: () => ({ method: 'GET', url: '/test-simple' }), expect: everyone(ok((d) => expect(d).toEqual({ status: 'ok' }))) },
  // The API description and its browser: public, they describe the interface and hold no data (docs/api.md).
  {
    route: 'GET /openapi.json',
    request: () => ({ method: 'GET', url: '/openapi.json' }),
    expect: everyone(ok((d) => expect(d).toMatchObject({ openapi: '3.1.0' }))),
  },
  { route: 'GET /docs/', request: () => ({ method: 'GET', url: '/docs/' }), expect: everyone(html) },
  {
    route: 'GET /docs/static/index.html',
    request: () => ({ method: 'GET', url: '/docs/static/index.html' }),
    // Swagger UI sends its own page's address to the page it serves, for everyone.
    expect: everyone((res) => {
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${API}/docs/`);
    }),
  },
  {
    route: 'GET /docs/static/swagger-initializer.js',
    request: () => ({ method: 'GET', url: '/docs/static/swagger-initializer.js' }),
    expect: everyone(served('javascript')),
  },
  { route: 'GET /docs/static/*', request: () => ({ method: 'GET', url: '/docs/static/swagger-ui.css' }), expect: everyone(served('text/css')) },
  {
    route: 'GET /docs/json',
    request: () => ({ method: 'GET', url: '/docs/json' }),
    expect: everyone(ok((d) => expect(d).toMatchObject({ openapi: '3.1.0' }))),
  },
  { route: 'GET /docs/yaml', request: () => ({ method: 'GET', url: '/docs/yaml' }), expect: everyone(served('yaml')) },
  {
    // No session matter: loopback callers (and holders of METRICS_TOKEN) read it, whoever they are (docs/deploy.md).
    route: 'GET /metrics',
    request: () => ({ method: 'GET', url: '/metrics' }),
    expect: everyone(async (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('lawrisk_http_requests_total');
    }),
  },
  {
    route: 'GET /admin/test',
    request: () => ({ method: 'GET', url: '/admin/test' }),
    expect: everyone(ok((_d, { res }) => expect(res.json()).toEqual({ success: true, message: 'Test route works!' }))),
  },
  {
    // Visible permits of every region are public search data; hidden ones never are.
    route: 'GET /v2',
    request: () => ({ method: 'GET', url: `/v2?query=${encodeURIComponent('食品经营许可')}` }),
    expect: everyone(
      ok((d, { res }) => {
        expect(d.workflowStatus).toBe('ok');
        expect(res.body).toContain('乙区食品经营许可');
        expect(res.body).not.toContain('隐藏事项');
      }),
    ),
  },
  {
    route: 'POST /v2',
    request: () => ({ method: 'POST', url: '/v2', payload: { query: '隐藏事项' } }),
    expect: everyone(ok((_d, { res }) => expect(res.body).not.toContain('隐藏事项'))),
  },
  // The assistants' tools: public like /v2, and as blind to hidden permits.
  {
    route: 'POST /mcp',
    request: () => ({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_permits', arguments: { query: '隐藏事项' } } },
    }),
    expect: everyone(
      ok((d) => {
        expect(d.result.content[0].type).toBe('text');
        expect(JSON.stringify(d.result.structuredContent.results)).not.toContain('隐藏事项');
      }),
    ),
  },
  ...(['GET', 'DELETE'] as const).map((method) => ({
    route: `${method} /mcp`,
    request: () => ({ method, url: '/mcp' }),
    expect: everyone(fails(405, '此端点为无状态 MCP 服务，只接受 POST')),
  })),
  // The applicants' page and what it reads beside /v2: public, and as blind to hidden permits.
  {
    route: 'GET /v2/suggest',
    request: () => ({ method: 'GET', url: `/v2/suggest?q=${encodeURIComponent('区未绑定')}` }),
    expect: everyone(
      ok((d) =>
        expect(d.suggestions).toEqual([
          { text: '乙区未绑定事项', kind: 'permit' },
          { text: '甲区未绑定事项', kind: 'permit' },
        ]),
      ),
    ),
  },
  {
    route: 'GET /v2/permits',
    request: (w) => ({ method: 'GET', url: `/v2/permits?ids=${w.permits['B-001']},${w.permits['B-003']}` }),
    expect: everyone(ok((d) => expect(d.permits.map((p: { permit: { name: string } }) => p.permit.name)).toEqual(['乙区食品经营许可']))),
  },
  { route: 'GET /', request: () => ({ method: 'GET', url: '/' }), expect: everyone(html) },
  { route: 'GET /search', request: () => ({ method: 'GET', url: '/search' }), expect: everyone(html) },
  ...(['site:/', '{api_root}'] as const).map((path) => ({
    route: `GET ${path}`,
    request: () => ({ method: 'GET' as const, url: path }),
    expect: everyone((res) => {
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${API}/`);
    }),
  })),
  { route: 'GET site:/favicon.ico', request: () => ({ method: 'GET', url: 'site:/favicon.ico' }), expect: everyone(served('image/svg+xml')) },
  {
    route: 'GET /v2/regions',
    request: () => ({ method: 'GET', url: '/v2/regions' }),
    expect: everyone(ok((d) => expect(names(d.regions)).toEqual(expect.arrayContaining(['甲区', '乙区'])))),
  },
  { route: 'GET /v2/themes', request: () => ({ method: 'GET', url: '/v2/themes' }), expect: everyone(ok((d) => expect(names(d)).toContain('餐饮服务'))) },
  {
    // Hidden permits need a login, and then only those of the caller's data scope.
    route: 'GET /v2/unbound-permits',
    request: () => ({ method: 'GET', url: '/v2/unbound-permits?visibility=hidden' }),
    expect: loggedIn(
      ok((d) => expect(names(d)).toEqual(['甲区隐藏事项'])),
      ok((d) => expect(names(d).sort()).toEqual(['乙区隐藏事项', '甲区隐藏事项'].sort())),
    ),
  },
  {
    // Anonymous: the region's visible permits; logged in: within the data scope.
    route: 'GET /getPermits',
    request: (w) => ({ method: 'GET', url: `/getPermits?region=${w.regionB}` }),
    expect: {
      anon: ok((d) => expect(names(d.permits)).toContain('乙区食品经营许可')),
      district: ok((d) => expect(d).toEqual({ region: expect.any(String), permits: [] })),
      city: ok((d, { res }) => {
        expect(names(d.permits)).toContain('乙区食品经营许可');
        expect(res.body).not.toContain(B_HIDDEN);
      }),
      admin: ok((d) => expect(names(d.permits)).toContain('乙区食品经营许可')),
    },
  },
  {
    route: 'POST /getPermits',
    request: (w) => ({ method: 'POST', url: '/getPermits', payload: { region: w.regionA } }),
    expect: everyone(
      ok((d, { res }) => {
        expect(names(d.permits)).toContain('甲区食品经营许可');
        expect(res.body).not.toContain('隐藏事项');
      }),
    ),
  },
  { route: 'GET /login', request: () => ({ method: 'GET', url: '/login' }), expect: everyone(html) },
  { route: 'GET /assets/:name', request: () => ({ method: 'GET', url: `/assets/${ASSET}` }), expect: everyone(ok()) },
  { route: 'GET /admin/assets/:name', request: () => ({ method: 'GET', url: `/admin/assets/${ASSET}` }), expect: everyone(ok()) },

  // Authentication.
  {
    route: 'POST /auth/login',
    request: (_w, role) => ({
      method: 'POST',
      url: '/auth/login',
      cookie: null,
      payload: role === 'anon' ? { username: 'nobody', password: 'Nobody-Pass-1' } : { username: role, password: PASSWORDS[role] },
    }),
    expect: {
      anon: fails(401, '用户名或密码错误'),
      district: ok((d) => expect(d.user).toMatchObject({ username: 'district', grade: 50 })),
      city: ok((d) => expect(d.user).toMatchObject({ username: 'city', grade: 90, role: 'department_admin' })),
      admin: ok((d) => expect(d.user).toMatchObject({ username: 'admin', role: 'admin' })),
    },
  },
  {
    // A fresh session per caller: logging out must not end the sessions the matrix goes on using.
    route: 'POST /auth/logout',
    request: async (w, role) => ({ method: 'POST', url: '/auth/logout', cookie: role === 'anon' ? null : await w.login(role, PASSWORDS[role]) }),
    expect: everyone(async (res, { w, req }) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      if (req.cookie) expect((await w.call('anon', { method: 'GET', url: '/auth/me', cookie: req.cookie })).statusCode).toBe(401);
    }),
  },
  {
    route: 'GET /auth/me',
    request: () => ({ method: 'GET', url: '/auth/me' }),
    expect: {
      anon: UNAUTH,
      district: ok((d, { w }) => expect(d.user).toMatchObject({ username: 'district', region_id: w.regionA })),
      city: ok((d) => expect(d.user.username).toBe('city')),
      admin: ok((d) => expect(d.user.username).toBe('admin')),
    },
  },
  {
    // A wrong old password: the guard let the caller through, and no password changes.
    route: 'POST /auth/password',
    request: () => ({ method: 'POST', url: '/auth/password', payload: { old_password: 'Not-The-Password-1', new_password: 'Another-Pass-123' } }),
    expect: loggedIn(fails(400, '原密码不正确')),
  },

  // Pages: login redirect, 403 page; the two consoles are for role admin only.
  { route: 'GET /db_admin', request: () => ({ method: 'GET', url: '/db_admin' }), expect: { anon: TO_LOGIN, district: html, city: html, admin: html } },
  {
    route: 'GET /admin/super',
    request: () => ({ method: 'GET', url: '/admin/super' }),
    expect: { anon: TO_LOGIN, district: DENIED_PAGE, city: DENIED_PAGE, admin: html },
  },
  {
    route: 'GET /admin/v2-debug',
    request: () => ({ method: 'GET', url: '/admin/v2-debug' }),
    expect: { anon: TO_LOGIN, district: DENIED_PAGE, city: DENIED_PAGE, admin: html },
  },

  // Users, departments, theme catalog, template (admin guard).
  {
    route: 'GET /admin/users',
    request: () => ({ method: 'GET', url: '/admin/users' }),
    expect: adminOnly(ok((d) => expect(d.users.map((u: { username: string }) => u.username)).toContain('district'))),
  },
  {
    route: 'POST /admin/users',
    request: (w, role) => ({
      method: 'POST',
      url: '/admin/users',
      payload: { username: `new-${role}`, password: 'New-User-Pass-1', service_department_id: w.deptA },
    }),
    expect: adminOnly(
      ok((d, { role }) => expect(d.user.username).toBe(`new-${role}`)),
      async (w) => expect(await w.t.dbh.db.selectFrom('users').select('id').where('username', 'like', 'new-%').execute()).toEqual([]),
    ),
  },
  {
    route: 'PATCH /admin/users/:user_id',
    request: (w, role) => ({ method: 'PATCH', url: `/admin/users/${w.targets.patchUser}`, payload: { display_name: `改-${role}` } }),
    expect: adminOnly(
      ok((d, { role }) => expect(d.user.display_name).toBe(`改-${role}`)),
      async (w) => {
        const u = await w.t.dbh.db.selectFrom('users').select('display_name').where('id', '=', w.targets.patchUser).executeTakeFirstOrThrow();
        expect(u.display_name).toBeNull();
      },
    ),
  },
  {
    route: 'DELETE /admin/users/:user_id',
    request: (w, role) => ({ method: 'DELETE', url: `/admin/users/${pick(w.targets.users, role)}` }),
    expect: adminOnly(
      async (res, ctx) => {
        await ok((_d, { res: r }) => expect(r.json()).toEqual({ success: true, message: '用户已删除' }))(res, ctx);
        expect(await dbCount(ctx.w, 'users', ['id', pick(ctx.w.targets.users, ctx.role)])).toBe(0);
      },
      (w) => exists(w, 'users', w.targets.users.city),
    ),
  },
  {
    route: 'GET /admin/service-departments',
    request: () => ({ method: 'GET', url: '/admin/service-departments' }),
    expect: adminOnly(ok((d) => expect(names(d.departments)).toContain('甲区住建局'))),
  },
  {
    route: 'GET /admin/service-departments/tree',
    request: () => ({ method: 'GET', url: '/admin/service-departments/tree' }),
    expect: adminOnly(ok((d) => expect(d.tree.length).toBeGreaterThan(0))),
  },
  {
    route: 'GET /admin/departments/children',
    request: (w) => ({ method: 'GET', url: `/admin/departments/children?parent_id=${w.deptA}` }),
    expect: adminOnly(ok((d) => expect(d.units).toEqual([]))),
  },
  {
    route: 'POST /admin/service-departments',
    request: (_w, role) => ({ method: 'POST', url: '/admin/service-departments', payload: { name: `新部门-${role}`, code: `NEW${role}` } }),
    expect: adminOnly(
      ok((d, { role }) => expect(d.department.name).toBe(`新部门-${role}`)),
      async (w) => expect(await w.t.dbh.db.selectFrom('service_departments').select('id').where('name', '=', '新部门-district').execute()).toEqual([]),
    ),
  },
  {
    route: 'PATCH /admin/service-departments/:dept_id',
    request: (w, role) => ({ method: 'PATCH', url: `/admin/service-departments/${w.deptA}`, payload: { description: `改-${role}` } }),
    expect: adminOnly(
      ok((d, { role }) => expect(d.department.description).toBe(`改-${role}`)),
      async (w) => {
        const dept = await w.t.dbh.db.selectFrom('service_departments').select('description').where('id', '=', Number(w.deptA)).executeTakeFirstOrThrow();
        expect(dept.description).toBeNull();
      },
    ),
  },
  {
    route: 'DELETE /admin/service-departments/:dept_id',
    request: (w, role) => ({ method: 'DELETE', url: `/admin/service-departments/${pick(w.targets.departments, role)}` }),
    expect: adminOnly(
      ok((d) => expect(d.deleted).toBe(true)),
      (w) => exists(w, 'service_departments', w.targets.departments.city),
    ),
  },
  {
    route: 'GET /admin/themes/catalog',
    request: () => ({ method: 'GET', url: '/admin/themes/catalog' }),
    expect: adminOnly(ok((d) => expect(names(d.themes)).toContain('餐饮服务'))),
  },
  {
    route: 'POST /admin/themes/catalog',
    request: (_w, role) => ({ method: 'POST', url: '/admin/themes/catalog', payload: { name: `主题-${role}` } }),
    expect: adminOnly(
      ok((d, { role }) => expect(d.theme.name).toBe(`主题-${role}`)),
      async (w) => expect(await w.t.dbh.db.selectFrom('themes').select('id').where('name', '=', '主题-district').execute()).toEqual([]),
    ),
  },
  {
    route: 'PATCH /admin/themes/catalog/:theme_id',
    request: (w, role) => ({ method: 'PATCH', url: `/admin/themes/catalog/${w.targets.patchTheme}`, payload: { name: `改名-${role}` } }),
    expect: adminOnly(
      ok((d, { role }) => expect(d.theme.name).toBe(`改名-${role}`)),
      async (w) => expect(await w.t.dbh.db.selectFrom('themes').select('id').where('name', '=', '改名-district').execute()).toEqual([]),
    ),
  },
  {
    route: 'DELETE /admin/themes/catalog/:theme_id',
    request: (w, role) => ({ method: 'DELETE', url: `/admin/themes/catalog/${pick(w.targets.themes, role)}` }),
    expect: adminOnly(ok(), (w) => exists(w, 'themes', w.targets.themes.city)),
  },
  {
    route: 'GET /admin/templates/permit',
    request: () => ({ method: 'GET', url: '/admin/templates/permit' }),
    expect: adminOnly(ok((d) => expect(d).toMatchObject({ size: expect.any(Number) }))),
  },
  {
    route: 'POST /admin/templates/permit',
    request: (w) => {
      const { payload, headers } = multipartBody({}, { file: { filename: 'template.xlsx', content: w.targets.template } });
      return { method: 'POST', url: '/admin/templates/permit', payload, headers };
    },
    expect: adminOnly(ok((d, { w }) => expect(d.size).toBe(w.targets.template.length))),
  },

  // Checkpoints (admin guard: they hold every region's data).
  {
    route: 'GET /admin/checkpoints',
    request: () => ({ method: 'GET', url: '/admin/checkpoints' }),
    expect: adminOnly(ok((d) => expect(d.checkpoints.length).toBeGreaterThan(0))),
  },
  {
    route: 'POST /admin/checkpoints',
    request: (_w, role) => ({ method: 'POST', url: '/admin/checkpoints', payload: { description: `矩阵-${role}` } }),
    expect: adminOnly(ok((d, { role }) => expect(d.description).toBe(`矩阵-${role}`))),
  },
  {
    // Restoring replaces every table: the guard is proven on an unknown checkpoint (404 past the guard).
    route: 'POST /admin/checkpoints/:checkpoint_id/restore',
    request: () => ({ method: 'POST', url: '/admin/checkpoints/999999/restore', payload: {} }),
    expect: adminOnly(fails(404, 'Checkpoint not found')),
  },
  {
    route: 'DELETE /admin/checkpoints/:checkpoint_id',
    request: (w, role) => ({ method: 'DELETE', url: `/admin/checkpoints/${pick(w.targets.checkpoints, role)}` }),
    expect: adminOnly(
      ok((_d, { res }) => expect(res.json()).toEqual({ success: true, message: 'Checkpoint deleted' })),
      (w) => exists(w, 'checkpoints', w.targets.checkpoints.city),
    ),
  },

  // Region administration (admin guard) and the approval-department setup.
  {
    route: 'POST /admin/regions',
    request: (_w, role) => ({ method: 'POST', url: '/admin/regions', payload: { name: `丙区-${role}` } }),
    expect: adminOnly(ok((d, { role }) => expect(d.region.name).toBe(`丙区-${role}`))),
  },
  {
    route: 'PATCH /admin/regions/:region_id',
    request: (w, role) => ({ method: 'PATCH', url: `/admin/regions/${w.targets.patchRegion}`, payload: { code: `P-${role}` } }),
    expect: adminOnly(ok((d, { role }) => expect(d.region.code).toBe(`P-${role}`))),
  },
  {
    route: 'DELETE /admin/regions/:region_id',
    request: (w, role) => ({ method: 'DELETE', url: `/admin/regions/${pick(w.targets.regions, role)}` }),
    expect: adminOnly(
      ok((d) => expect(d.deleted).toBe(true)),
      (w) => exists(w, 'regions', w.targets.regions.city),
    ),
  },
  {
    route: 'POST /admin/approval-departments/setup',
    request: () => ({ method: 'POST', url: '/admin/approval-departments/setup' }),
    expect: adminOnly(ok((d) => expect(d.total).toBeGreaterThan(0))),
  },

  // Browsing and maintenance (login guard, data scope).
  {
    route: 'GET /admin/regions',
    request: () => ({ method: 'GET', url: '/admin/regions' }),
    expect: loggedIn(
      ok((d) => expect(names(d.regions)).toEqual(['甲区'])),
      ok((d) => expect(names(d.regions)).toEqual(expect.arrayContaining(['甲区', '乙区']))),
    ),
  },
  {
    route: 'GET /admin/themes',
    request: (w) => ({ method: 'GET', url: `/admin/themes?region_id=${w.regionB}` }),
    expect: loggedIn(
      sameAsUnknown('/admin/themes?region_id=999999'),
      ok((d) => expect(names(d.themes)).toContain('餐饮服务')),
    ),
  },
  {
    route: 'GET /admin/permits',
    request: (w) => ({ method: 'GET', url: `/admin/permits?region=${w.regionB}` }),
    expect: loggedIn(
      sameAsUnknown('/admin/permits?region=999999'),
      ok((d) => expect(names(d.permits)).toEqual(expect.arrayContaining(['乙区食品经营许可', B_HIDDEN]))),
    ),
  },
  {
    route: 'GET /admin/permit-details',
    request: (w) => ({ method: 'GET', url: `/admin/permit-details?region=${w.regionB}&permit=B-001` }),
    expect: loggedIn(
      async (res, ctx) => {
        await sameAsUnknown(`/admin/permit-details?region=${ctx.w.regionA}&permit=no-such-permit`)(res, ctx);
        expect(json(res)).toEqual({ success: false, message: 'Permit not found', data: {} });
      },
      ok((d) => expect(d.permit.name).toBe('乙区食品经营许可')),
    ),
  },
  {
    route: 'DELETE /admin/permits',
    request: (w, role) => ({
      method: 'DELETE',
      url: '/admin/permits',
      payload: { region_id: w.regionB, permit_id: w.permits[{ anon: 'B-001', district: 'B-001', city: 'B-101', admin: 'B-102' }[role]] },
    }),
    expect: loggedIn(
      fails(403, '无权操作该区域的数据', (w) => exists(w, 'permits', w.permits['B-001'])),
      ok((d) => expect(d.snapshot_batch_id).toEqual(expect.any(String))),
    ),
  },
  {
    // Each caller edits a permit of its own, with the version it reads just before.
    route: 'PATCH /admin/permits/:permit_id',
    request: async (w, role) => {
      const id = w.permits[{ anon: 'B-004', district: 'B-004', city: 'B-301', admin: 'B-302' }[role]];
      const row = await w.t.dbh.db.selectFrom('permits').select('updated_at').where('id', '=', Number(id)).executeTakeFirstOrThrow();
      return { method: 'PATCH', url: `/admin/permits/${id}`, payload: { updated_at: row.updated_at, contact_info: `已改-${role}` } };
    },
    expect: loggedIn(
      fails(404, '许可事项不存在', async (w) => {
        const row = await w.t.dbh.db.selectFrom('permits').select('contact_info').where('id', '=', Number(w.permits['B-004'])).executeTakeFirstOrThrow();
        expect(row.contact_info ?? '').not.toContain('已改');
      }),
      ok((d, { role }) => expect([d.permit.contact_info, d.snapshot_batch_id]).toEqual([`已改-${role}`, expect.any(String)])),
    ),
  },
  {
    route: 'POST /admin/permits/filter',
    request: (w) => ({ method: 'POST', url: '/admin/permits/filter', payload: { region: w.regionB } }),
    expect: loggedIn(
      ok((d) => expect(d).toEqual({ permits: [], pagination: { total: 0, page: 1, page_size: 0 } })),
      ok((d) => expect(names(d.permits)).toContain('乙区食品经营许可')),
    ),
  },
  {
    route: 'GET /admin/permits/advanced-filter',
    request: (w) => ({ method: 'GET', url: `/admin/permits/advanced-filter?regions=${w.regionB}` }),
    expect: loggedIn(
      ok((d) => expect(d).toMatchObject({ permits: [], total: 0 })),
      ok((d) => expect(names(d.permits)).toContain(B_HIDDEN)),
    ),
  },
  {
    route: 'POST /admin/permits/advanced-filter',
    request: () => ({ method: 'POST', url: '/admin/permits/advanced-filter', payload: { limit: 1000 } }),
    expect: loggedIn(
      ok(async (d, { w }) => expect(d.total).toBe(await dbCount(w, 'permits', ['region_id', Number(w.regionA)]))),
      ok(async (d, { w }) => expect(d.total).toBe(await dbCount(w, 'permits'))),
    ),
  },
  {
    route: 'GET /admin/permits/filter-options',
    request: () => ({ method: 'GET', url: '/admin/permits/filter-options' }),
    expect: loggedIn(
      ok((d) => {
        expect(names(d.regions)).toEqual(['甲区']);
        expect(names(d.departments)).toEqual(['甲区市场监管局']);
      }),
      ok((d) => expect(names(d.departments).sort()).toEqual(['乙区市场监管局', '甲区市场监管局'].sort())),
    ),
  },
  {
    route: 'GET /admin/permit-risk-snapshots',
    request: () => ({ method: 'GET', url: '/admin/permit-risk-snapshots?limit=200' }),
    expect: loggedIn(
      ok(async (d, { w }) => {
        expect(d.snapshots.length).toBeGreaterThan(0);
        expect(d.snapshots.every((s: { region_id: string }) => s.region_id === w.regionA)).toBe(true);
        expect(d.pagination.total).toBe(await snapshotEntries(w, w.regionA));
      }),
      ok(async (d, { w }) => expect(d.pagination.total).toBe(await snapshotEntries(w))),
    ),
  },
  {
    route: 'POST /admin/permit-risk-snapshots/:batch_id/restore',
    request: (w, role) => ({
      method: 'POST',
      url: `/admin/permit-risk-snapshots/${w.batches.b[{ anon: 0, district: 0, city: 1, admin: 2 }[role]]}/restore`,
      payload: {},
    }),
    expect: loggedIn(
      fails(404, '快照批次不存在', async (w) => expect(await dbCount(w, 'permits', ['code', 'B-201'])).toBe(0)),
      ok((d) => expect(d.restored_permits).toHaveLength(1)),
    ),
  },

  // Import (login guard; below grade 90 only one's own sessions and region).
  {
    route: 'POST /admin/permit-import/upload',
    request: async () => {
      const { payload, headers } = multipartBody(
        {},
        { file: { filename: '甲区新增.xlsx', content: await ledger({ 新增: [permitRow(REGION_A.name, 'A-901', '新增事项')] }) } },
      );
      return { method: 'POST', url: '/admin/permit-import/upload', payload, headers };
    },
    expect: loggedIn(
      ok((d, { w }) => expect(d).toMatchObject({ binding_mode: 'department', department: { id: w.deptA } })),
      ok((d) => expect(d).toMatchObject({ binding_mode: 'auto', department: null })),
    ),
  },
  {
    route: 'GET /admin/permit-import/session/:session_id/preview',
    request: (w) => ({ method: 'GET', url: `/admin/permit-import/session/${w.sessionB}/preview` }),
    expect: loggedIn(
      fails(400, '导入会话不存在或已过期，请重新上传文件'),
      ok((d, { w }) => expect(d.session_id).toBe(w.sessionB)),
    ),
  },
  {
    route: 'GET /admin/permit-import/preview',
    request: (w) => ({ method: 'GET', url: `/admin/permit-import/preview?session_id=${w.sessionB}` }),
    expect: loggedIn(
      fails(400, '导入会话不存在或已过期，请重新上传文件'),
      ok((d, { w }) => expect(d.session_id).toBe(w.sessionB)),
    ),
  },
  {
    route: 'POST /admin/permit-import/commit',
    request: (w) => ({ method: 'POST', url: '/admin/permit-import/commit', payload: { session_id: w.sessionB } }),
    expect: loggedIn(
      fails(400, '导入会话不存在或已过期，请重新上传文件', async (w) => expect(await dbCount(w, 'permits', ['code', 'B-401'])).toBe(0)),
      ok((d) => expect(d.totals.permits).toBe(1)),
    ),
  },
  { route: 'GET /admin/permit-import/template', request: () => ({ method: 'GET', url: '/admin/permit-import/template' }), expect: loggedIn(xlsx) },
  { route: 'GET /admin/permit-import/sample', request: () => ({ method: 'GET', url: '/admin/permit-import/sample' }), expect: loggedIn(xlsx) },

  // The file archive.
  {
    route: 'GET /admin/permit-files',
    request: () => ({ method: 'GET', url: '/admin/permit-files?limit=100' }),
    expect: loggedIn(
      ok((d, { w }) => {
        expect(d.files.map((f: { id: string }) => f.id).sort()).toEqual([w.files.a, w.files.mixed].sort());
        expect(d.total).toBe(2);
        expect(d.files.find((f: { id: string }) => f.id === w.files.mixed).permit_count).toBe(1);
      }),
      ok((d, { w }) => expect(d.files.map((f: { id: string }) => f.id)).toContain(w.files.b)),
    ),
  },
  {
    route: 'POST /admin/permit-files/:file_id/reimport',
    request: (w) => ({ method: 'POST', url: `/admin/permit-files/${w.files.b}/reimport` }),
    expect: {
      anon: UNAUTH,
      district: fails(404, '文件不存在'),
      // Interface 4.7: a user who is not role admin re-imports into its own department, which it must have.
      city: fails(403, '该账号未绑定服务部门,无法执行重新导入'),
      admin: ok((d) => expect(d).toMatchObject({ binding_mode: 'auto', filename: '乙区台账.xlsx' })),
    },
  },
  {
    route: 'DELETE /admin/permit-files/:file_id',
    request: (w, role) => ({
      method: 'DELETE',
      url: `/admin/permit-files/${role === 'admin' ? w.files.spareAdmin : role === 'city' ? w.files.spareCity : w.files.b}`,
    }),
    expect: loggedIn(
      fails(404, '文件不存在'),
      ok((_d, { res }) => expect(res.json()).toEqual({ success: true, message: '文件已删除' })),
    ),
  },
  {
    route: 'GET /admin/permit-files/:file_id/download',
    request: (w) => ({ method: 'GET', url: `/admin/permit-files/${w.files.b}/download` }),
    expect: loggedIn(fails(404, '文件不存在'), xlsx),
  },
  {
    route: 'GET /admin/permit-file/download',
    request: (w) => ({ method: 'GET', url: `/admin/permit-file/download?region=${w.regionB}&permit=B-001` }),
    expect: loggedIn(fails(404, 'Permit not found'), xlsx),
  },

  // Operation log, images, statistics.
  {
    route: 'GET /admin/operation-logs',
    request: () => ({ method: 'GET', url: '/admin/operation-logs?limit=500' }),
    expect: loggedIn(
      ok(async (d, { w }) => {
        expect(d.logs.length).toBeGreaterThan(0);
        expect(d.logs.every((l: { operator: { id: string } }) => l.operator.id === String(w.userIds.district))).toBe(true);
        expect(d.total).toBe(await logEntries(w, w.userIds.district));
      }),
      ok(async (d, { w }) => expect(d.total).toBe(await logEntries(w))),
    ),
  },
  { route: 'GET /admin/images/:filename', request: () => ({ method: 'GET', url: '/admin/images/import-step-upload.svg' }), expect: loggedIn(ok()) },
  {
    route: 'GET /admin/statistics',
    request: () => ({ method: 'GET', url: '/admin/statistics' }),
    expect: loggedIn(
      ok(async (d, { w }) => expect(d.permits.total).toBe(await dbCount(w, 'permits', ['region_id', Number(w.regionA)]))),
      ok(async (d, { w }) => expect(d.permits.total).toBe(await dbCount(w, 'permits'))),
    ),
  },
  // Why a permit is not found: it shows hidden permits and every region, so administrators only.
  {
    route: 'GET /admin/search/why-not',
    request: (w) => ({ method: 'GET', url: `/admin/search/why-not?query=${encodeURIComponent('食品经营许可')}&permit_id=${w.permits['B-001']}` }),
    expect: adminOnly(ok((d) => expect(d.verdict).toBe('found'))),
  },
  // Search analytics: every region's questions, so administrators only.
  {
    route: 'GET /admin/search-analytics',
    request: () => ({ method: 'GET', url: '/admin/search-analytics' }),
    expect: adminOnly(ok((d) => expect(d.daily).toHaveLength(30))),
  },
  { route: 'GET /admin/search-analytics/export', request: () => ({ method: 'GET', url: '/admin/search-analytics/export' }), expect: adminOnly(xlsx) },
  // The search lexicon: administrators only; each caller writes a regional entry of its own (global ones are the super administrator's: lexicon.test.ts).
  {
    route: 'GET /admin/search/lexicon',
    request: () => ({ method: 'GET', url: '/admin/search/lexicon' }),
    expect: adminOnly(ok((d) => expect(d.max_entries).toBe(10_000))),
  },
  {
    route: 'POST /admin/search/lexicon',
    request: (w, role) => ({
      method: 'POST',
      url: '/admin/search/lexicon',
      payload: { kind: 'synonym', words: [`${WORD[role]}甲`, `${WORD[role]}乙`], region_id: w.regionA },
    }),
    expect: adminOnly(
      ok(async (d, { w, role }) => expect(await lexiconEntries(w, `${WORD[role]}甲`)).toBe(1)),
      async (w) => expect(await lexiconEntries(w, `${WORD.district}甲`)).toBe(0),
    ),
  },
  {
    route: 'PATCH /admin/search/lexicon/:entry_id',
    request: async (w, role) => ({
      method: 'PATCH',
      url: `/admin/search/lexicon/${await lexiconEntry(w, `改${WORD[role]}`)}`,
      payload: { kind: 'synonym', words: [`改${WORD[role]}`, '已改'], region_id: w.regionA },
    }),
    expect: adminOnly(
      ok(async (d, { role }) => expect(d.entry.words).toEqual([`改${WORD[role]}`, '已改'])),
      async (w) => expect(await lexiconEntries(w, '已改')).toBe(0),
    ),
  },
  {
    route: 'DELETE /admin/search/lexicon/:entry_id',
    request: async (w, role) => ({ method: 'DELETE', url: `/admin/search/lexicon/${await lexiconEntry(w, `删${WORD[role]}`)}` }),
    expect: adminOnly(
      ok(async (d, { w, role }) => expect(await lexiconEntries(w, `删${WORD[role]}`)).toBe(0)),
      async (w) => expect(await lexiconEntries(w, `删${WORD.district}`)).toBe(1),
    ),
  },
  {
    route: 'POST /admin/search/lexicon/preview',
    request: (w) => ({
      method: 'POST',
      url: '/admin/search/lexicon/preview',
      payload: { entry: { kind: 'synonym', words: ['预览甲', '预览乙'], region_id: w.regionA } },
    }),
    expect: adminOnly(ok((d) => expect(d.changed).toBe(0))),
  },
  {
    route: 'GET /admin/search/lexicon/export',
    request: () => ({ method: 'GET', url: '/admin/search/lexicon/export' }),
    expect: adminOnly(ok((d) => expect(d.format).toBe('lawrisk-search-lexicon'))),
  },
  {
    route: 'POST /admin/search/lexicon/import',
    request: (_w, role) => ({
      method: 'POST',
      url: '/admin/search/lexicon/import',
      payload: {
        format: 'lawrisk-search-lexicon',
        version: 1,
        entries: [{ kind: 'expansion', region: REGION_A.code, from: `导入${WORD[role]}`, to: ['食品经营'] }],
      },
    }),
    expect: adminOnly(
      ok(async (d, { w, role }) => expect([d.added, await lexiconEntries(w, `导入${WORD[role]}`)]).toEqual([1, 1])),
      async (w) => expect(await lexiconEntries(w, `导入${WORD.district}`)).toBe(0),
    ),
  },
];

/** Each caller's own word in the lexicon's entries (a word is Chinese characters, or letters and digits: not both). */
const WORD: Record<Role, string> = { anon: '访客', district: '区县', city: '市级', admin: '超管' };

/** Entries of the search lexicon holding a word. */
async function lexiconEntries(w: MatrixWorld, word: string): Promise<number> {
  const rows = await w.t.dbh.db.selectFrom('search_lexicon').select('body').execute();
  return rows.filter((r) => r.body.includes(word)).length;
}

/** A regional entry of region A to change or remove, made behind the service's back. */
async function lexiconEntry(w: MatrixWorld, word: string): Promise<number> {
  const at = '2026-11-20T00:00:00.000Z';
  const row = await w.t.dbh.db
    .insertInto('search_lexicon')
    .values({
      kind: 'synonym',
      region_id: Number(w.regionA),
      body: JSON.stringify({ words: [word, `${word}乙`], replace: false }),
      note: null,
      created_by: 'admin',
      created_at: at,
      updated_by: 'admin',
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Outside the scope a record answers exactly as one that does not exist. */
function sameAsUnknown(unknownUrl: string): Check {
  return async (res, { w, role }) => {
    const unknown = await w.call(role, { method: 'GET', url: unknownUrl });
    expect(res.statusCode).toBe(404);
    expect(res.statusCode).toBe(unknown.statusCode);
    expect(res.json()).toEqual(unknown.json());
  };
}

async function snapshotEntries(w: MatrixWorld, regionId?: string): Promise<number> {
  let q = w.t.dbh.db.selectFrom('snapshot_permits').select((eb) => eb.fn.countAll<number>().as('n'));
  if (regionId) q = q.where('region_id', '=', Number(regionId));
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function logEntries(w: MatrixWorld, operatorId?: number): Promise<number> {
  let q = w.t.dbh.db.selectFrom('operation_logs').select((eb) => eb.fn.countAll<number>().as('n'));
  if (operatorId !== undefined) q = q.where('operator_id', '=', operatorId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Routes whose answers to the region-A user are searched for the region-B marker (public search data is not). */
export const scopedRoute = (route: string) => {
  const path = route.split(' ')[1];
  return path.startsWith('/admin/') || path === '/getPermits' || path === '/v2/unbound-permits';
};
