import ExcelJS from 'exceljs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RouteOptions } from 'fastify';
import type { DialectKind } from '../../src/db/connect.js';
import { createDepartment, createUser } from '../helpers/fixtures.js';
import { multipartBody } from '../helpers/multipart.js';
import { ADMIN_PASSWORD, API, buildTestApp, cookieOf, type TestApp } from '../helpers/test-app.js';

/**
 * Two regions seeded through the real import path, and the four kinds of caller of the
 * authorisation matrix. Every text of region B carries the marker 乙区, so "nothing of region B
 * reaches a region-A user" is checked by looking for the marker in whole response bodies.
 */

export const REGION_A = { name: '甲区', code: 'A01' };
export const REGION_B = { name: '乙区', code: 'B02' };
/** In every text of region B (region name, permits, risks, contacts, departments, file names). */
export const B_MARK = '乙区';
/** The hidden permit of region B: never in a public answer, never shown to a region-A user. */
export const B_HIDDEN = '乙区隐藏事项';
/** The workbook naming both regions: a region-A user sees it listed but never gets its content. */
export const MIXED_FILE = '全市合并台账（修订）.xlsx';

export type Role = 'anon' | 'district' | 'city' | 'admin';
export const ROLES: Role[] = ['anon', 'district', 'city', 'admin'];

export const PASSWORDS = { district: 'District-A-Pass-1', districtB: 'District-B-Pass-1', city: 'City-Level-Pass-1', admin: ADMIN_PASSWORD };

interface LedgerRow {
  region?: string;
  theme?: string;
  name: string;
  code: string;
  dept: string;
  contact: string;
  risk: string;
  visible?: boolean;
}

const HEADER = ['区域', '主题', '许可事项', '事项编码', '审批部门', '内部联系人', '对外咨询电话', '风险点', '法律依据', '风险等级', '检索可见'];

/** A ledger workbook in the template's layout: one sheet per entry, one risk row per permit. */
export async function ledger(sheets: Record<string, LedgerRow[]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [sheet, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(sheet);
    ws.addRow(HEADER);
    for (const r of rows) {
      ws.addRow([
        r.region ?? '',
        r.theme ?? '',
        r.name,
        r.code,
        r.dept,
        r.contact,
        '0826-0000000',
        r.risk,
        '《行政许可法》第三十条',
        '中',
        r.visible === false ? '否' : '是',
      ]);
    }
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A permit of one region, its texts marked with the region's name. */
export function permitRow(region: string, code: string, label: string, extra: Partial<LedgerRow> = {}): LedgerRow {
  return {
    region,
    theme: '餐饮服务',
    name: `${region}${label}`,
    code,
    dept: `${region}市场监管局`,
    contact: `${region}联系人`,
    risk: `${region}${label}风险\n${region}风险说明`,
    ...extra,
  };
}

export interface TwoRegions {
  t: TestApp;
  /** Every route as registered (HEAD routes included), collected with the onRoute hook. */
  routes: RouteOptions[];
  regionA: string;
  regionB: string;
  deptA: string;
  userIds: Record<'district' | 'districtB' | 'city' | 'admin', number>;
  /** Session cookie of each role; null for the anonymous caller. */
  cookies: Record<Role, string | null>;
  districtB: string;
  /** Permit code → id. */
  permits: Record<string, string>;
  files: { a: string; b: string; mixed: string; spareCity: string; spareAdmin: string };
  /** Snapshot batches: one of region A, three of region B (one per caller that tries it), one spanning both. */
  batches: { a: string; b: string[]; mixed: string };
  /** An import session of the region-B department user, not committed. */
  sessionB: string;
  call(role: Role, opts: InjectOptions & { cookie?: string | null }): Promise<LightMyRequestResponse>;
  login(username: string, password: string): Promise<string>;
  upload(cookie: string, content: Buffer, filename: string): Promise<LightMyRequestResponse>;
  importWorkbook(
    cookie: string,
    content: Buffer,
    filename: string,
    body?: Record<string, unknown>,
  ): Promise<{ file_id: string; snapshot_batch_id: string | null }>;
  close(): Promise<void>;
}

const ok = (res: LightMyRequestResponse, what: string) => {
  if (res.statusCode !== 200) throw new Error(`${what} failed (${res.statusCode}): ${res.body}`);
  return res.json().data;
};

/** The operator routes live outside {api_root}. */
const OUTSIDE_API_ROOT = ['/healthz', '/readyz', '/metrics'];
/** How the matrix names a path outside {api_root} other than the operator routes (the site's root, its icon). */
const SITE = 'site:';
const API_ROOT_ITSELF = '{api_root}';

/** The URL a row's request path stands for. */
function fullUrl(path: string): string {
  if (path.startsWith(SITE)) return path.slice(SITE.length);
  if (path === API_ROOT_ITSELF) return API;
  return OUTSIDE_API_ROOT.some((p) => path.startsWith(p)) ? path : `${API}${path}`;
}

/** A registered route as the matrix's rows name it: `METHOD path`, the path as its request sends it. */
export function routeKey(method: string, url: string): string {
  if (url === API) return `${method} ${API_ROOT_ITSELF}`;
  if (url.startsWith(API)) return `${method} ${url.slice(API.length)}`;
  return `${method} ${OUTSIDE_API_ROOT.includes(url) ? url : `${SITE}${url}`}`;
}

export async function twoRegions(dialect: DialectKind): Promise<TwoRegions> {
  const routes: RouteOptions[] = [];
  const t = await buildTestApp(dialect, { env: { LOGIN_RATE_LIMIT: '0', SEARCH_RATE_LIMIT: '0' }, build: { onRoute: (r) => void routes.push(r) } });
  const db = t.dbh.db;
  const inject = (opts: InjectOptions & { cookie?: string | null }) => {
    const { cookie, ...rest } = opts;
    return t.app.inject({ ...rest, url: fullUrl(String(rest.url ?? '')), headers: { ...(rest.headers ?? {}), ...(cookie ? { cookie } : {}) } });
  };
  const admin = await t.login();

  const region = async (r: { name: string; code: string }) =>
    String(ok(await inject({ method: 'POST', url: '/admin/regions', payload: r, cookie: admin }), 'region').region.id);
  const regionA = await region(REGION_A);
  const regionB = await region(REGION_B);
  const deptA = await createDepartment(db, { name: '甲区住建局', code: 'JQZJJ', region_id: Number(regionA), grade: 80 });
  const deptB = await createDepartment(db, { name: '乙区住建局', code: 'YQZJJ', region_id: Number(regionB), grade: 80 });
  const userIds = {
    admin: (await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id,
    district: await createUser(db, { username: 'district', password: PASSWORDS.district, grade: 50, department_id: deptA, display_name: '甲区管理员' }),
    districtB: await createUser(db, { username: 'districtb', password: PASSWORDS.districtB, grade: 50, department_id: deptB, display_name: '乙区管理员' }),
    city: await createUser(db, { username: 'city', password: PASSWORDS.city, grade: 90, display_name: '市级账号' }),
  };
  const login = async (username: string, password: string) =>
    cookieOf(await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username, password } }));
  const [district, city, districtB] = await Promise.all([
    login('district', PASSWORDS.district),
    login('city', PASSWORDS.city),
    login('districtb', PASSWORDS.districtB),
  ]);
  const cookies: Record<Role, string | null> = { anon: null, district, city, admin };

  const upload = (cookie: string, content: Buffer, filename: string) => {
    const { payload, headers } = multipartBody({}, { file: { filename, content } });
    return t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers: { ...headers, cookie } });
  };
  const importWorkbook = async (cookie: string, content: Buffer, filename: string, body: Record<string, unknown> = {}) => {
    const session = ok(await upload(cookie, content, filename), `upload of ${filename}`);
    return ok(
      await inject({ method: 'POST', url: '/admin/permit-import/commit', payload: { session_id: session.session_id, ...body }, cookie }),
      `commit of ${filename}`,
    );
  };

  const A = REGION_A.name;
  const B = REGION_B.name;
  const sideOf = (r: string) => [
    permitRow(r, `${r === A ? 'A' : 'B'}-001`, '食品经营许可'),
    permitRow(r, `${r === A ? 'A' : 'B'}-002`, '建筑施工许可', { theme: '工程建设' }),
    permitRow(r, `${r === A ? 'A' : 'B'}-003`, '隐藏事项', { theme: '', visible: false }),
    permitRow(r, `${r === A ? 'A' : 'B'}-004`, '未绑定事项', { theme: '' }),
    ...[1, 2, 3, 4].map((n) => permitRow(r, `${r === A ? 'A' : 'B'}-20${n}`, `快照事项${n}`)),
    permitRow(r, `${r === A ? 'A' : 'B'}-101`, '可删事项一'),
    permitRow(r, `${r === A ? 'A' : 'B'}-102`, '可删事项二'),
  ];
  const files = {
    mixed: '',
    a: (await importWorkbook(admin, await ledger({ 甲区台账: sideOf(A) }), '甲区台账.xlsx')).file_id,
    b: (await importWorkbook(admin, await ledger({ 乙区台账: sideOf(B) }), '乙区台账.xlsx')).file_id,
    spareCity: (await importWorkbook(admin, await ledger({ 补充: [permitRow(B, 'B-301', '补充事项一')] }), '乙区补充一.xlsx')).file_id,
    spareAdmin: (await importWorkbook(admin, await ledger({ 补充: [permitRow(B, 'B-302', '补充事项二')] }), '乙区补充二.xlsx')).file_id,
  };
  await importWorkbook(admin, await ledger({ 合并: [permitRow(A, 'A-005', '合并事项'), permitRow(B, 'B-005', '合并事项')] }), '全市合并台账.xlsx');
  const permitRows = await db.selectFrom('permits').select(['id', 'code']).execute();
  const permits = Object.fromEntries(permitRows.map((p) => [p.code ?? '', String(p.id)]));

  const deletePermit = async (regionId: string, code: string) =>
    String(
      ok(await inject({ method: 'DELETE', url: '/admin/permits', payload: { region_id: regionId, permit_id: permits[code] }, cookie: admin }), 'delete')
        .snapshot_batch_id,
    );
  // The revised city-wide workbook replaces both regions' risks: one snapshot batch spanning both
  // regions, and the permits now link to the revised file.
  const revised = await importWorkbook(
    admin,
    await ledger({
      合并: [permitRow(A, 'A-005', '合并事项', { risk: `${A}合并事项新风险` }), permitRow(B, 'B-005', '合并事项', { risk: `${B}合并事项新风险` })],
    }),
    MIXED_FILE,
  );
  const batches = {
    a: await deletePermit(regionA, 'A-201'),
    b: [await deletePermit(regionB, 'B-201'), await deletePermit(regionB, 'B-202'), await deletePermit(regionB, 'B-203')],
    mixed: String(revised.snapshot_batch_id),
  };
  files.mixed = revised.file_id;
  const sessionB = ok(await upload(districtB, await ledger({ 乙区新增: [permitRow('', 'B-401', '乙区新增事项')] }), '乙区新增.xlsx'), 'upload B')
    .session_id as string;

  return {
    t,
    routes,
    regionA,
    regionB,
    deptA: String(deptA),
    userIds,
    cookies,
    districtB,
    permits,
    files,
    batches,
    sessionB,
    call: (role, opts) => inject({ ...opts, cookie: 'cookie' in opts ? opts.cookie : cookies[role] }),
    login,
    upload,
    importWorkbook,
    close: () => t.close(),
  };
}
