import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { within } from '../../../test/helpers/instances.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

/** Editing a permit (docs/maintenance.md, "Editing a permit") on both databases, with a second instance watching. */

const HOTEL = '511603:511A0146000000'; // 旅馆业特种行业许可证核发 (前锋区)
const OTHER_REGION = '511602:511A0146000000'; // the same permit in 广安区

interface EditedRisk {
  id: string;
  title: string;
  level: string | null;
  position: number;
  legal_basis: string | null;
}

describe.each(testDialects())('editing a permit on %s', (dialect) => {
  let t: TestApp;
  let other: FastifyInstance;
  let seed: SeedResult;
  let admin = '';
  let district = '';
  let hotel = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0', LOGIN_RATE_LIMIT: '0' } });
    seed = await seedCatalog(t.dbh.db, { regions: ['511602', '511603'] });
    await t.app.searchIndex.rebuild();
    other = (await t.reopen()).app;
    await other.searchIndex.rebuild();
    const dept = await createDepartment(t.dbh.db, { name: '前锋区政务中心', code: 'QFZW', region_id: seed.regions.get('511603')! });
    await createUser(t.dbh.db, { username: 'qf', password: 'Qf-Pass-12345', department_id: dept });
    admin = await t.login();
    district = await t.login('qf', 'Qf-Pass-12345');
    hotel = seed.permits.get(HOTEL)!;
  });
  afterAll(async () => t?.close());

  const details = async (id: number) => {
    const row = await t.dbh.db.selectFrom('permits').select('region_id').where('id', '=', id).executeTakeFirstOrThrow();
    const res = await t.app.inject({ url: `${API}/admin/permit-details?region=${row.region_id}&permit=${id}`, headers: { cookie: admin } });
    return res.json().data.permit as {
      name: string;
      updated_at: string;
      risks: EditedRisk[];
      themes: { id: string; name: string }[];
      approval_departments: string[];
    } & Record<string, unknown>;
  };
  const edit = (id: number, body: object, cookie = admin) =>
    t.app.inject({ method: 'PATCH', url: `${API}/admin/permits/${id}`, payload: body, headers: { cookie } });
  const state = async (id: number) => ({
    permit: await t.dbh.db.selectFrom('permits').selectAll().where('id', '=', id).executeTakeFirst(),
    risks: await t.dbh.db.selectFrom('risks').selectAll().where('permit_id', '=', id).orderBy('position').execute(),
    themes: await t.dbh.db.selectFrom('permit_themes').selectAll().where('permit_id', '=', id).orderBy('theme_id').execute(),
    departments: await t.dbh.db.selectFrom('permit_approval_departments').selectAll().where('permit_id', '=', id).orderBy('position').execute(),
    batches: Number(
      (
        await t.dbh.db
          .selectFrom('snapshot_batches')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });
  const searchOn = async (app: FastifyInstance, query: string) =>
    (await app.inject({ url: `${API}/v2`, query: { query } })).json().data.risk_subject as { permit: { id: string; name: string } }[];

  it('saves every field at once in one snapshotted change, and the other instance finds the permit by its new name', async () => {
    const before = await details(hotel);
    const fields = {
      name: '旅馆业特种行业许可证核发（新版）',
      code: 'QF-LG-001',
      implementation_level: '区级',
      internal_contact: '治安科 张三',
      contact_info: '0826-8888888',
      visible: true,
      approval_departments: ['区公安分局', '区行政审批局'],
    };
    const res = await edit(hotel, { updated_at: before.updated_at, ...fields, change_summary: '按新目录更新' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: '许可事项已保存' });
    expect(body.data.permit).toMatchObject({ id: String(hotel), ...fields });
    expect(body.data.permit.updated_at > before.updated_at).toBe(true);
    expect(body.data.changes).toContain(`名称：${before.name} → 旅馆业特种行业许可证核发（新版）`);
    expect(body.data.changes).toContain('审批部门：');
    // The permit as it was is a snapshot batch of its own, reason edit.
    const batch = await t.dbh.db.selectFrom('snapshot_batches').selectAll().where('id', '=', Number(body.data.snapshot_batch_id)).executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ reason: 'edit', edited_by: 'admin', change_summary: '按新目录更新', permit_count: 1, risk_count: before.risks.length });
    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().where('target_type', '=', 'permit').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ operation_type: 'update', outcome: 'success', target_id: String(hotel), target_name: '旅馆业特种行业许可证核发（新版）' });
    expect(log.summary).toBe(
      `修改许可事项 旅馆业特种行业许可证核发（新版）：${body.data.changes}（修改前的内容已保存为快照批次 #${body.data.snapshot_batch_id}）`,
    );
    // Every instance's index follows within a second.
    const found = await within(1000, async () =>
      (await searchOn(other, '旅馆业特种行业许可证核发（新版）'))[0]?.permit.id === String(hotel) ? true : undefined,
    );
    expect(found.value).toBe(true);
  });

  it("binds and unbinds themes (offered in the permit's region from then on) and hides the permit from search", async () => {
    const before = await details(hotel);
    const themes = [seed.themesByName.get('开办网吧')!, seed.themesByName.get('举办大型活动')!];
    const res = await edit(hotel, { updated_at: before.updated_at, theme_ids: themes.map(String), visible: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .data.permit.themes.map((t: { id: string }) => Number(t.id))
        .sort(),
    ).toEqual([...themes].sort());
    const offered = await t.dbh.db.selectFrom('region_themes').select('theme_id').where('region_id', '=', seed.regions.get('511603')!).execute();
    expect(offered.map((r) => r.theme_id)).toEqual(expect.arrayContaining(themes));
    await within(1000, async () => ((await searchOn(other, '旅馆业特种行业许可证核发（新版）')).some((r) => r.permit.id === String(hotel)) ? undefined : true));

    const again = await details(hotel);
    const unbound = await edit(hotel, { updated_at: again.updated_at, theme_ids: [String(themes[1])], visible: true });
    expect(unbound.json().data.permit.themes.map((t: { id: string }) => Number(t.id))).toEqual([themes[1]]);
    expect(unbound.json().data.changes).toContain('−开办网吧');
  });

  it('adds, changes, moves and deletes risks in one save, keeping the ids of the risks it keeps', async () => {
    const before = await details(hotel);
    expect(before.risks.length).toBeGreaterThan(2);
    const [first, second, ...rest] = before.risks;
    const res = await edit(hotel, {
      updated_at: before.updated_at,
      risks: [
        { id: rest[0].id }, // moved up, unchanged: a field left out keeps its value
        { id: second.id, level: '高', legal_basis: '《旅馆业治安管理办法》第四条' }, // changed
        { title: '新增：未按规定登记住宿旅客身份', level: '中', prevention: '逐一查验身份证件并如实登记' },
        ...rest.slice(1).map((r) => ({ id: r.id })),
      ], // `first` left out: deleted
    });
    expect(res.statusCode, res.body).toBe(200);
    const risks = res.json().data.permit.risks as EditedRisk[];
    expect(risks.map((r) => r.title)).toEqual([rest[0].title, second.title, '新增：未按规定登记住宿旅客身份', ...rest.slice(1).map((r) => r.title)]);
    expect(risks.map((r) => r.position)).toEqual(risks.map((_, i) => i + 1));
    expect(risks[0]).toEqual({ ...rest[0], position: 1 });
    expect(risks[1]).toMatchObject({ id: second.id, title: second.title, level: '高', legal_basis: '《旅馆业治安管理办法》第四条' });
    expect(risks[2]).toMatchObject({ level: '中', prevention: '逐一查验身份证件并如实登记', legal_basis: null, description: null });
    expect(risks.slice(3).map((r) => r.id)).toEqual(rest.slice(1).map((r) => r.id));
    expect(await t.dbh.db.selectFrom('risks').select('id').where('id', '=', Number(first.id)).executeTakeFirst()).toBeUndefined();
    expect(res.json().data.changes).toContain('风险：新增 1 条、修改 1 条、删除 1 条、调整顺序');
  });

  it("restores the permit as it was before an edit from that edit's snapshot", async () => {
    const before = await state(hotel);
    const read = await details(hotel);
    const res = await edit(hotel, {
      updated_at: read.updated_at,
      name: '改坏了的名字',
      risks: [{ title: '只剩一条' }],
      theme_ids: [],
      approval_departments: [],
    });
    expect(res.statusCode).toBe(200);
    const restore = await t.app.inject({
      method: 'POST',
      url: `${API}/admin/permit-risk-snapshots/${res.json().data.snapshot_batch_id}/restore`,
      payload: {},
      headers: { cookie: admin },
    });
    expect(restore.statusCode, restore.body).toBe(200);
    const after = await state(hotel);
    const fields = ({ updated_at: _u, ...p }: Record<string, unknown>) => p;
    expect(fields(after.permit!)).toEqual(fields(before.permit!));
    expect(after.risks.map(({ id: _i, ...r }) => r)).toEqual(before.risks.map(({ id: _i, ...r }) => r));
    expect(after.themes).toEqual(before.themes);
    expect(after.departments.map((d) => d.approval_department_id)).toEqual(before.departments.map((d) => d.approval_department_id));
  });

  it('refuses an edit of a permit changed since it was read (409), overwriting nothing', async () => {
    const read = await details(hotel);
    const first = await edit(hotel, { updated_at: read.updated_at, contact_info: '第一个人改的' });
    expect(first.statusCode).toBe(200);
    const before = await state(hotel);
    const second = await edit(hotel, { updated_at: read.updated_at, contact_info: '第二个人改的' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      success: false,
      message: `该许可事项已在 ${first.json().data.permit.updated_at} 被修改，您看到的不是最新内容；请刷新后重新编辑`,
      data: { updated_at: first.json().data.permit.updated_at },
    });
    expect(await state(hotel)).toEqual(before);
  });

  it('saves nothing for an edit that changes nothing', async () => {
    const read = await details(hotel);
    const before = await state(hotel);
    const res = await edit(hotel, { updated_at: read.updated_at, name: read.name, contact_info: read.contact_info });
    expect([res.statusCode, res.json().message, res.json().data.snapshot_batch_id, res.json().data.changes]).toEqual([200, '没有需要保存的修改', null, '']);
    expect(await state(hotel)).toEqual(before);
  });

  it("lets a department account edit its own region's permits only: another region's do not exist for it", async () => {
    const mine = await details(hotel);
    const own = await edit(hotel, { updated_at: mine.updated_at, contact_info: '区里改的' }, district);
    expect(own.statusCode, own.body).toBe(200);
    const elsewhere = seed.permits.get(OTHER_REGION)!;
    const theirs = await details(elsewhere);
    const before = await state(elsewhere);
    const refused = await edit(elsewhere, { updated_at: theirs.updated_at, contact_info: '越权' }, district);
    expect([refused.statusCode, refused.json()]).toEqual([404, { success: false, message: '许可事项不存在' }]);
    expect(await state(elsewhere)).toEqual(before);
    for (const id of ['999999', 'abc', '0'])
      expect(
        (await t.app.inject({ method: 'PATCH', url: `${API}/admin/permits/${id}`, payload: { updated_at: 'x' }, headers: { cookie: admin } })).statusCode,
      ).toBe(404);
  });

  it('refuses bad input with a message for each field, changing nothing', async () => {
    const read = await details(hotel);
    const base = { updated_at: read.updated_at };
    const otherRisk = await t.dbh.db.selectFrom('risks').select('id').where('permit_id', '=', seed.permits.get(OTHER_REGION)!).executeTakeFirstOrThrow();
    const takenCode = await t.dbh.db
      .selectFrom('permits')
      .select(['code', 'name'])
      .where('region_id', '=', seed.regions.get('511603')!)
      .where('id', '!=', hotel)
      .where('code', 'is not', null)
      .executeTakeFirstOrThrow();
    const cases: [object, string, string][] = [
      [{ ...base, name: '   ' }, 'name', '事项名称不能为空'],
      [{ ...base, code: takenCode.code }, 'code', `该区域已有事项编码为 ${takenCode.code} 的许可事项“${takenCode.name}”`],
      [{ ...base, contact_info: '电'.repeat(5_001) }, 'contact_info', '对外咨询电话不能超过 5000 个字符（现有 5001 个）'],
      [{ ...base, visible: 'maybe' }, 'visible', '检索可见应为 true 或 false'],
      [{ ...base, risks: [{ title: '无等级' }, { title: '等级错', level: '严重' }] }, 'risks[1].level', '第 2 条风险的风险等级只能是 高、中 或 低'],
      // A level that is not text (a number, a list) is no level, not an empty one.
      [{ ...base, risks: [{ title: '数字等级', level: 1 }] }, 'risks[0].level', '第 1 条风险的风险等级只能是 高、中 或 低'],
      [{ ...base, risks: [{ title: '列表等级', level: [] }] }, 'risks[0].level', '第 1 条风险的风险等级只能是 高、中 或 低'],
      [{ ...base, risks: [{ title: '  ', level: '高' }] }, 'risks[0].title', '第 1 条风险的风险点不能为空'],
      [{ ...base, risks: [{ id: String(otherRisk.id), title: '别人的风险' }] }, 'risks[0].id', `第 1 条风险（#${otherRisk.id}）不属于该许可事项`],
      [{ ...base, risks: [{ title: 'x', color: 'red' }] }, 'risks[0].color', '第 1 条风险不支持字段 color'],
      [{ ...base, risks: Array.from({ length: 501 }, () => ({ title: 'x' })) }, 'risks', '一个许可事项最多 500 条风险'],
      [{ ...base, theme_ids: ['424242'] }, 'theme_ids[0]', '主题不存在：424242'],
      [{ ...base, approval_departments: '区公安分局' }, 'approval_departments', '审批部门应为列表'],
      [{ ...base, region_id: '1' }, 'region_id', '不支持的参数 region_id'],
      [{ contact_info: '没有版本' }, 'updated_at', '缺少 updated_at：请先读取许可事项，再带上它的更新时间提交修改'],
    ];
    const before = await state(hotel);
    for (const [body, field, message] of cases) {
      const res = await edit(hotel, body);
      expect([field, res.statusCode], res.body).toEqual([field, 400]);
      expect(res.json()).toMatchObject({ success: false, message, data: { errors: [{ field, message }] } });
    }
    const many = await edit(hotel, { ...base, name: '', visible: 1, risks: [{ title: '' }, { title: 'x', level: 'H' }] });
    expect(many.json().data.errors.map((e: { field: string }) => e.field)).toEqual(['name', 'visible', 'risks[0].title', 'risks[1].level']);
    expect(many.json().message).toBe('事项名称不能为空；检索可见应为 true 或 false；第 1 条风险的风险点不能为空；等共 4 处问题');
    expect(await state(hotel)).toEqual(before);
  });
});
