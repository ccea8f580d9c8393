import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { seedCatalog } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

describe.each(testDialects())('dashboard statistics on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let dept = '';
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const seed = await seedCatalog(t.dbh.db);
    const d = await createDepartment(t.dbh.db, { name: '前锋区政务中心', code: 'QF', region_id: seed.regions.get('511603')! });
    await createUser(t.dbh.db, { username: 'qf', password: 'Qf-Pass-1234', department_id: d });
    admin = await t.login();
    dept = await t.login('qf', 'Qf-Pass-1234');
  });
  afterAll(async () => t?.close());

  it('counts permits and risks by level, within the data scope', async () => {
    expect((await t.app.inject(`${API}/admin/statistics`)).statusCode).toBe(401);
    const all = (await t.app.inject({ url: `${API}/admin/statistics`, headers: { cookie: admin } })).json();
    expect(all.success).toBe(true);
    expect(all.data.permits).toEqual({ total: 990, visible: 960, hidden: 30 });
    expect(all.data.risks.total).toBe(3397);
    expect(all.data.risks.by_level.map((l: { level: string }) => l.level)).toEqual(['高', '中', '低']);
    const own = (await t.app.inject({ url: `${API}/admin/statistics`, headers: { cookie: dept } })).json();
    expect(own.data.permits.total).toBe(295);
    expect(own.data.risks.total).toBe(988);
  });
});
