import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment } from '../../../test/helpers/fixtures.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { maintenanceWorld, type MaintenanceWorld } from '../permits/maintenance.fixture.js';
import { bestServiceDepartment } from './approval-departments.service.js';

describe('bestServiceDepartment', () => {
  it('takes the equal name, else the longest prefix', () => {
    const candidates = [{ name: '区' }, { name: '区住建局' }, { name: '区住建局（区人防办）' }, { name: '' }];
    expect(bestServiceDepartment('区住建局', candidates)?.name).toBe('区住建局');
    expect(bestServiceDepartment('区住建局（区人防办）', candidates)?.name).toBe('区住建局（区人防办）');
    expect(bestServiceDepartment('区水务局', candidates)?.name).toBe('区');
    expect(bestServiceDepartment('市水务局', candidates)).toBeUndefined();
  });
});

describe.each(testDialects())('POST /admin/approval-departments/setup on %s', (dialect) => {
  let w: MaintenanceWorld;
  const links = async () =>
    Object.fromEntries(
      (await w.t.dbh.db.selectFrom('approval_departments').select(['name', 'service_department_id']).execute()).map((r) => [r.name, r.service_department_id]),
    );
  beforeAll(async () => {
    w = await maintenanceWorld(dialect);
  });
  afterAll(async () => w?.close());

  it('links each approval department to the service department with the equal or longest prefix name', async () => {
    const db = w.t.dbh.db;
    const zjj = (await db.selectFrom('service_departments').select('id').where('name', '=', '区住建局').executeTakeFirstOrThrow()).id;
    const district = await createDepartment(db, { name: '区', code: 'QU' });
    const tax = await createDepartment(db, { name: '广安区税务', code: 'TAX' });
    const names = [...new Set(loadCorpus().permits.flatMap((p) => p.approval_departments))].sort();

    const denied = await w.send('POST', '/admin/approval-departments/setup', {}, w.district);
    expect(denied.statusCode).toBe(403);
    expect(Object.values(await links()).every((v) => v === null)).toBe(true);

    const res = await w.send('POST', '/admin/approval-departments/setup', undefined, w.city);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    const expected = (name: string) => (name === '区住建局' ? zjj : name.startsWith('广安区税务') ? tax : name.startsWith('区') ? district : null);
    expect(data.total).toBe(names.length);
    expect(data.unmatched.sort()).toEqual(names.filter((n) => expected(n) === null));
    expect(data.linked).toHaveLength(names.length - data.unmatched.length);
    expect(data.linked).toContainEqual({
      approval_department: '区住建局',
      approval_department_id: expect.any(String),
      service_department: '区住建局',
      service_department_id: String(zjj),
    });
    expect(await links()).toEqual(Object.fromEntries(names.map((n) => [n, expected(n)])));
    expect(await w.lastLog()).toMatchObject({ operation_type: 'setup', target_type: 'approval_department', outcome: 'success', operator_username: 'city' });

    // Recomputed from scratch: a renamed service department no longer covers what it covered.
    await db.updateTable('service_departments').set({ name: '县' }).where('id', '=', district).execute();
    const again = (await w.send('POST', '/admin/approval-departments/setup')).json().data;
    expect(again.linked.map((l: { approval_department: string }) => l.approval_department).sort()).toEqual(['区住建局', '广安区税务局']);
    expect((await links())['区水务局']).toBeNull();
  });
});
