import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../test/helpers/databases.js';
import { dumpDifference, dumpTables, liveTableNames, type DataDump } from '../../test/helpers/data-dump.js';
import { createDepartment, createRegion, createUser } from '../../test/helpers/fixtures.js';
import { multipartBody } from '../../test/helpers/multipart.js';
import { API, buildTestApp, type TestApp } from '../../test/helpers/test-app.js';

/**
 * Ids beyond PostgreSQL's `integer` (2147483647) are not ids (src/http/record-id.ts): each route
 * answers them as it answers an unknown id, on both databases, and changes nothing. Before, the
 * checkpoint routes and the upload's `department_id` took up to 15 digits and sent them to the
 * database (an error on PostgreSQL), and the other families here read ids with parsers of their own.
 */
const OUT_OF_RANGE = ['2147483648', '123456789012345'];

describe.each(testDialects())('ids beyond the integer range on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let tables: string[] = [];

  beforeAll(async () => {
    // Uploads more often in a minute than a clerk would: IMPORT_RATE_LIMIT has its own test.
    t = await buildTestApp(dialect, { env: { IMPORT_RATE_LIMIT: '0' } });
    const region = await createRegion(t.dbh.db, '广安区', '511602');
    const dept = await createDepartment(t.dbh.db, { name: '区住建局', code: 'ZJJ', region_id: region });
    await createUser(t.dbh.db, { username: 'zjj', password: 'Dept-Pass-123', department_id: dept, grade: 50 });
    admin = await t.login();
    // The request's own traces (its operation log line, the login's session) are not data it changed.
    tables = await liveTableNames(t.dbh.db, ['operation_logs', 'sessions', 'login_failures']);
  });
  afterAll(async () => t?.close());

  const dump = (): Promise<DataDump> => dumpTables(t.dbh.db, tables);

  /** Sends the request for each out-of-range id and expects the answer, with the data unchanged. */
  async function answersAsUnknown(
    send: (id: string) => Promise<{ statusCode: number; json: () => unknown; body: string }>,
    status: number,
    body: (id: string) => unknown,
  ) {
    for (const id of OUT_OF_RANGE) {
      const before = await dump();
      const res = await send(id);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(status);
      expect(res.json()).toEqual(body(id));
      expect(dumpDifference(before, await dump()), id).toEqual({});
    }
  }

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
    t.app.inject({ method, url: `${API}${path}`, ...(payload ? { payload } : {}), headers: { cookie: admin } });
  const refusal = (message: string) => () => ({ success: false, message });

  it('checkpoints: restore and delete answer 404 Checkpoint not found', async () => {
    await answersAsUnknown((id) => call('POST', `/admin/checkpoints/${id}/restore`, {}), 404, refusal('Checkpoint not found'));
    await answersAsUnknown((id) => call('DELETE', `/admin/checkpoints/${id}`), 404, refusal('Checkpoint not found'));
  });

  it('workbook upload: a department_id to bind answers 400 部门不存在', async () => {
    const upload = (id: string) => {
      const { payload, headers } = multipartBody(
        { binding_mode: 'department', department_id: id },
        { file: { filename: 'x.xlsx', content: Buffer.from('not read: the binding is checked first') } },
      );
      return t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers: { ...headers, cookie: admin } });
    };
    await answersAsUnknown(upload, 400, (id) => ({ success: false, message: `部门不存在：${id}` }));
  });

  it('users: update and delete answer 404 用户不存在; a service department to bind 400', async () => {
    await answersAsUnknown((id) => call('PATCH', `/admin/users/${id}`, { grade: 10 }), 404, refusal('用户不存在'));
    await answersAsUnknown((id) => call('DELETE', `/admin/users/${id}`), 404, refusal('用户不存在'));
    const user = (await t.dbh.db.selectFrom('users').select('id').where('username', '=', 'zjj').executeTakeFirstOrThrow()).id;
    await answersAsUnknown(
      (id) => call('PATCH', `/admin/users/${user}`, { service_department_id: id }),
      400,
      (id) => ({ success: false, message: `服务部门不存在：${id}` }),
    );
  });

  it('service departments: update 404, delete 400 服务部门不存在; a parent or region to place under 400', async () => {
    await answersAsUnknown((id) => call('PATCH', `/admin/service-departments/${id}`, { name: '改名' }), 404, refusal('服务部门不存在'));
    await answersAsUnknown((id) => call('DELETE', `/admin/service-departments/${id}`), 400, refusal('服务部门不存在'));
    await answersAsUnknown((id) => call('POST', '/admin/service-departments', { name: '新部门', parent_id: id }), 400, refusal('上级部门不存在'));
    await answersAsUnknown(
      (id) => call('POST', '/admin/service-departments', { name: '新部门', region_id: id }),
      400,
      (id) => ({ success: false, message: `区域不存在：${id}` }),
    );
    await answersAsUnknown(
      (id) => call('GET', `/admin/departments/children?parent_id=${id}`),
      200,
      () => ({ success: true, data: { units: [] } }),
    );
  });

  it('theme catalogue: rename and delete answer 404 主题不存在', async () => {
    await answersAsUnknown((id) => call('PATCH', `/admin/themes/catalog/${id}`, { name: '改名' }), 404, refusal('主题不存在'));
    await answersAsUnknown((id) => call('DELETE', `/admin/themes/catalog/${id}`), 404, refusal('主题不存在'));
  });

  it('regions, archived files, snapshot batches and permits: each answers as for an unknown id', async () => {
    await answersAsUnknown((id) => call('PATCH', `/admin/regions/${id}`, { name: '改名' }), 404, refusal('区域不存在'));
    await answersAsUnknown((id) => call('DELETE', `/admin/regions/${id}`), 404, refusal('区域不存在'));
    await answersAsUnknown((id) => call('POST', `/admin/permit-files/${id}/reimport`), 404, refusal('文件不存在'));
    await answersAsUnknown((id) => call('DELETE', `/admin/permit-files/${id}`), 404, refusal('文件不存在'));
    await answersAsUnknown((id) => call('GET', `/admin/permit-files/${id}/download`), 404, refusal('文件不存在'));
    await answersAsUnknown((id) => call('POST', `/admin/permit-risk-snapshots/${id}/restore`, {}), 404, refusal('快照批次不存在'));
    await answersAsUnknown(
      (id) => call('PATCH', `/admin/permits/${id}`, { updated_at: '2026-01-01T00:00:00.000Z', name: '改名' }),
      404,
      refusal('许可事项不存在'),
    );
    await answersAsUnknown(
      (id) => call('GET', `/admin/permit-details?region=511602&permit=${id}`),
      404,
      () => ({ success: false, message: 'Permit not found', data: {} }),
    );
    await answersAsUnknown((id) => call('DELETE', '/admin/permits', { region_id: '511602', permit_id: id }), 404, refusal('Permit not found'));
  });

  it('department filter: an out-of-range department or region matches nothing', async () => {
    const empty = { success: true, data: { permits: [], pagination: { total: 0, page: 1, page_size: 0 } } };
    await answersAsUnknown(
      (id) => call('POST', '/admin/permits/filter', { district_dept_id: id }),
      200,
      () => empty,
    );
    await answersAsUnknown(
      (id) => call('POST', '/admin/permits/filter', { municipal_dept_id: id }),
      200,
      () => empty,
    );
    await answersAsUnknown(
      (id) => call('POST', '/admin/permits/filter', { region: id }),
      200,
      () => empty,
    );
  });
});
