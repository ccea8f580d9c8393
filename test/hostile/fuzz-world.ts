import { randomBytes } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { sessionIdOf } from '../../src/modules/auth/auth.service.js';
import { SESSION_COOKIE } from '../../src/modules/auth/session-cookie.js';
import { insertSession } from '../../src/modules/sessions/sessions.repository.js';
import { hashPassword } from '../../src/modules/auth/password.js';
import { nowIso } from '../../src/db/dialect.js';
import type { DialectKind } from '../../src/db/connect.js';
import { importer, seedCorpusRegions } from '../../src/modules/importer/import.test-helpers.js';
import { CANONICAL_HEADER, row, workbookBuffer } from '../../src/modules/importer/parser/test-support.js';
import { createDepartment, createUser } from '../helpers/fixtures.js';
import { API, buildTestApp, type TestApp } from '../helpers/test-app.js';
import { routesOf, type RouteUnderTest } from './hostile-requests.js';

/** The acting super administrator's id: far from any id the fuzz pass guesses, so it never edits itself away. */
export const FUZZ_ADMIN_ID = 424_242;
export const FUZZ_ADMIN = { username: 'fuzz-admin', password: 'Fuzz-Admin-Pass-1' };

export interface FuzzWorld {
  t: TestApp;
  routes: RouteUnderTest[];
  /** Ids, names and codes of real records (never the acting administrator's). */
  known: string[];
  /** A new session of the acting super administrator: the Cookie header value. */
  login(): Promise<string>;
}

/** Four permits of two regions with a few risks: enough for every route to find something, small enough to compare after each request. */
function smallWorkbook(): Promise<Buffer> {
  const permit = (区域: string, 许可事项: string, 事项编码: string, 主题: string) => ({ 区域, 许可事项, 事项编码, 主题, 审批部门: '市场监督管理局' });
  return workbookBuffer(
    [
      CANONICAL_HEADER,
      row({ ...permit('广安市', '食品经营许可', 'F001', '开办餐饮店'), 风险点: '无证经营', 法律依据: '《食品安全法》第一百二十二条' }),
      row({ 风险点: '超范围经营', 风险等级: '中' }),
      row({ ...permit('广安市', '公共场所卫生许可', 'F002', '开办宾馆'), 风险点: '未取得卫生许可证' }),
      row({ ...permit('广安区', '旅馆业特种行业许可证核发', 'F003', '开办宾馆'), 风险点: '未登记旅客信息', 检索可见: '否' }),
      row({ ...permit('前锋区', '建筑工程施工许可', 'F004', '工程建设'), 风险点: '未批先建' }),
    ],
    undefined,
    '市级许可事项',
  );
}

/**
 * An application on a fresh database holding a little of everything the routes act on: the
 * corpus regions, an imported workbook (permits, risks, themes, an archived file, an import
 * session), a department with its users, a checkpoint and a snapshot batch. Rate limits are off
 * here: the pass is about input, the limits have their own tests.
 */
export async function buildFuzzWorld(dialect: DialectKind): Promise<FuzzWorld> {
  const seen: RouteOptions[] = [];
  const t = await buildTestApp(dialect, {
    env: { LOGIN_RATE_LIMIT: '0', SEARCH_RATE_LIMIT: '0', IMPORT_RATE_LIMIT: '0' },
    build: { onRoute: (r) => void seen.push(r) },
  });
  const db = t.dbh.db;
  const now = nowIso();
  await db
    .insertInto('users')
    .values({
      id: FUZZ_ADMIN_ID,
      username: FUZZ_ADMIN.username,
      password_hash: await hashPassword(FUZZ_ADMIN.password),
      display_name: '安全测试管理员',
      role: 'admin',
      grade: 100,
      service_department_id: null,
      department_role: null,
      is_active: 1,
      must_change_password: 0,
      created_at: now,
      updated_at: now,
      last_login_at: null,
    })
    .execute();

  const regions = await seedCorpusRegions(db);
  const admin = await t.login();
  const imp = importer(t);
  const workbook = await smallWorkbook();
  await imp.importFile(admin, 'small.xlsx', {}, workbook);
  const pending = await imp.upload(admin, workbook, 'again.xlsx');
  const dept = await createDepartment(db, { name: '测试部门', code: 'FUZZDEPT', region_id: regions['广安市'] });
  const clerk = await createUser(db, { username: 'fuzz-clerk', password: 'Clerk-Pass-1', department_id: dept });
  await createUser(db, { username: 'fuzz-other', password: 'Other-Pass-1', role: 'admin', grade: 100 });
  const checkpoint = await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints`, payload: { description: '测试' }, headers: { cookie: admin } });
  const permits = await db
    .selectFrom('permits')
    .innerJoin('permit_themes', 'permit_themes.permit_id', 'permits.id')
    .select(['permits.id', 'permits.code', 'permits.name', 'permits.region_id'])
    .distinct()
    .orderBy('permits.id')
    .limit(3)
    .execute();
  const deleted = await t.app.inject({
    method: 'DELETE',
    url: `${API}/admin/permits`,
    payload: { region_id: String(permits[2].region_id), permit_id: String(permits[2].id) },
    headers: { cookie: admin },
  });
  for (const res of [pending, checkpoint, deleted]) if (res.statusCode !== 200) throw new Error(`fuzz world setup failed: ${res.body}`);

  const ids = async (table: 'regions' | 'themes' | 'permit_files' | 'snapshot_batches' | 'checkpoints' | 'service_departments') =>
    (await db.selectFrom(table).select('id').execute()).map((r) => String(r.id));
  const known = [
    ...(await ids('regions')),
    ...Object.keys(regions),
    '511600',
    ...(await ids('themes')),
    ...(await ids('permit_files')),
    ...(await ids('snapshot_batches')),
    ...(await ids('checkpoints')),
    ...(await ids('service_departments')),
    String(clerk),
    ...permits.flatMap((p) => [String(p.id), p.code ?? '', p.name]),
    pending.json().data.session_id as string,
    '市级许可事项',
  ].filter((v) => v !== '');

  const routes = seen.flatMap((r) => routesOf(r, API)).sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
  // A session exactly as the login route stores one, without hashing the password again for
  // every renewal (the pass logs out a hundred times; login itself is fuzzed like any route).
  const login = async () => {
    const token = randomBytes(32).toString('base64url');
    await insertSession(db, { id: sessionIdOf(token), user_id: FUZZ_ADMIN_ID, now: nowIso(t.ctx.now), ip: null, user_agent: null });
    return `${SESSION_COOKIE}=${token}`;
  };
  return { t, routes, known, login };
}
