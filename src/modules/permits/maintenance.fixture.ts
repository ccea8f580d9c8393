import type { LightMyRequestResponse } from 'fastify';
import type { DataChange } from '../../context.js';
import type { DialectKind } from '../../db/connect.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { seedCatalog, type SeedOptions, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

export const GUANGAN = '511602';
export const QIANFENG = '511603';
export const CITY = '511600';

/** The maintenance suites' world: the corpus, and three users of different reach. */
export interface MaintenanceWorld {
  t: TestApp;
  seed: SeedResult;
  /** How long seeding the catalogue took. */
  /** Every data change reported by the routes (what the search index would follow). */
  changes: DataChange[];
  /** Super administrator (grade 100). */
  admin: string;
  /** City-level account (grade 90): every region, not role admin. */
  city: string;
  /** Department administrator (grade 50) of 广安区 only. */
  district: string;
  /** Grade 50 account whose department has no region: sees nothing. */
  unbound: string;
  /** Requests go out as the super administrator unless another cookie, or null (anonymous), is given. */
  get(url: string, cookie?: string | null): Promise<LightMyRequestResponse>;
  send(method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, cookie?: string | null): Promise<LightMyRequestResponse>;
  /** Sends a form-encoded body. */
  form(method: 'POST' | 'DELETE', url: string, fields: Record<string, string>, cookie?: string | null): Promise<LightMyRequestResponse>;
  /** The newest operation-log entry. */
  lastLog(): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

export async function maintenanceWorld(dialect: DialectKind, seedOpts: SeedOptions = {}): Promise<MaintenanceWorld> {
  const t = await buildTestApp(dialect);
  const seed = await seedCatalog(t.dbh.db, seedOpts);
  const db = t.dbh.db;
  const gaDept = await createDepartment(db, { name: '区住建局', code: 'GAZJJ', region_id: seed.regions.get(GUANGAN)! });
  const looseDept = await createDepartment(db, { name: '无区域单位', code: 'LOOSE' });
  await createUser(db, { username: 'district', password: 'District-Pass-1', department_id: gaDept, grade: 50 });
  await createUser(db, { username: 'city', password: 'City-Pass-123', grade: 90, display_name: '市级账号' });
  await createUser(db, { username: 'unbound', password: 'Unbound-Pass-1', department_id: looseDept, grade: 50 });
  const [admin, city, district, unbound] = await Promise.all([
    t.login(),
    t.login('city', 'City-Pass-123'),
    t.login('district', 'District-Pass-1'),
    t.login('unbound', 'Unbound-Pass-1'),
  ]);
  const changes: DataChange[] = [];
  t.ctx.onDataChanged.push((c) => void changes.push(c));
  const cookieHeader = (cookie: string | null) => (cookie === null ? {} : { cookie });
  return {
    t,
    seed,
    changes,
    admin,
    city,
    district,
    unbound,
    get: (url, cookie = admin) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: cookieHeader(cookie) }),
    send: (method, url, payload, cookie = admin) =>
      t.app.inject({ method, url: `${API}${url}`, headers: cookieHeader(cookie), ...(payload === undefined ? {} : { payload: payload as object }) }),
    form: (method, url, fields, cookie = admin) =>
      t.app.inject({
        method,
        url: `${API}${url}`,
        payload: new URLSearchParams(fields).toString(),
        headers: { ...cookieHeader(cookie), 'content-type': 'application/x-www-form-urlencoded' },
      }),
    lastLog: () => db.selectFrom('operation_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst(),
    close: () => t.close(),
  };
}
