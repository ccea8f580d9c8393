import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '../../../../test/helpers/databases.js';
import { createUser } from '../../../../test/helpers/fixtures.js';
import { within } from '../../../../test/helpers/instances.js';
import { seedCatalog, type SeedResult } from '../../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';
import { MAX_ENTRIES } from './lexicon-rules.js';

const ROOT = `${API}/admin/search/lexicon`;
const SPORTS = '511603:511A33038003'; // 举办高危险性体育赛事活动许可（县级）
const SPORTS_CODE = '511A33038003';

describe.each(testDialects())('search lexicon and curation on %s', (dialect) => {
  let t: TestApp;
  let other: FastifyInstance;
  let seed: SeedResult;
  let admin = '';
  let city = '';
  let region = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0' } });
    seed = await seedCatalog(t.dbh.db, { regions: ['511602', '511603'] });
    await t.app.searchIndex.rebuild();
    other = (await t.reopen()).app; // a second instance on the same database
    admin = await t.login();
    await createUser(t.dbh.db, { username: 'city', password: 'City-Pass-123', grade: 90, role: 'department_admin' });
    city = await t.login('city', 'City-Pass-123');
    region = seed.regions.get('511603')!;
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.app.queryLog.flush();
    await other.queryLog.flush();
    await t.dbh.db.deleteFrom('search_lexicon').execute();
    await t.dbh.db.deleteFrom('query_log').execute();
    await t.app.searchIndex.apply({ kind: 'lexicon' });
  });

  const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: unknown, cookie = admin) =>
    t.app.inject({ method, url: `${ROOT}${url}`, payload: payload as object, headers: { cookie } });
  const ask = async (app: FastifyInstance, query: string, regionCode?: string) => {
    const res = await app.inject({ method: 'POST', url: `${API}/v2`, payload: { query, ...(regionCode ? { region: regionCode } : {}) } });
    return res.json().data.risk_subject.map((s: { permit: { id: string } }) => s.permit.id) as string[];
  };
  /** Waits until the second instance answers `query` as `expected` says; fails after a second. */
  const onOther = (query: string, expected: (ids: string[]) => boolean, regionCode?: string) =>
    within(1000, async () => (expected(await ask(other, query, regionCode)) ? true : undefined));
  const count = async () =>
    Number(
      (
        await t.dbh.db
          .selectFrom('search_lexicon')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const sports = () => String(seed.permits.get(SPORTS));

  it('an alias by code: found on the other instance within a second, logged, and reverted the same way', async () => {
    expect(await ask(t.app, '我想办嗷呜嗷呜')).toEqual([]);
    const res = await send('POST', '', { kind: 'alias', phrases: ['嗷呜嗷呜'], code: SPORTS_CODE, region_id: String(region), note: '群众说法' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: '词条已保存',
      data: {
        entry: { kind: 'alias', kind_label: '许可别名', phrases: ['嗷呜嗷呜'], code: SPORTS_CODE, region_name: expect.any(String), created_by: 'admin' },
      },
    });
    const id = res.json().data.entry.id;
    await onOther('我想办嗷呜嗷呜', (ids) => ids[0] === sports());
    // The same code in the other region is not this region's alias.
    expect(await ask(t.app, '嗷呜嗷呜', '511602')).toEqual([]);

    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().where('target_type', '=', 'search_lexicon').orderBy('id').execute();
    expect(log.at(-1)).toMatchObject({
      operation_type: 'create',
      outcome: 'success',
      operator_username: 'admin',
      target_id: id,
      summary: `添加许可别名 嗷呜嗷呜（${SPORTS_CODE}），区域 ${region}，备注：群众说法`,
    });

    const removed = await send('DELETE', `/${id}`);
    expect(removed.json()).toMatchObject({ success: true, message: '词条已撤销', data: { entry: { id } } });
    await onOther('我想办嗷呜嗷呜', (ids) => ids.length === 0);
    expect(await count()).toBe(0);
    expect((await send('DELETE', `/${id}`)).json()).toEqual({ success: false, message: '词条不存在' });
  });

  it('synonym groups, one-way expansions and curation each reach the other instance within a second', async () => {
    const netbar = seed.seeded.find((p) => p.region_code === '511603' && p.name.includes('互联网上网服务'))!;
    const netbarId = String(seed.permits.get(`511603:${netbar.code}`));
    expect(await ask(t.app, '噗噗屋', '511603')).toEqual([]);
    expect((await send('POST', '', { kind: 'synonym', words: '噗噗屋/上网服务' })).statusCode).toBe(200);
    await onOther('噗噗屋', (ids) => ids[0] === netbarId, '511603');

    expect(await ask(t.app, '呱呱呱呱', '511603')).toEqual([]);
    expect((await send('POST', '', { kind: 'expansion', from: '呱呱呱呱', to: ['高危险性体育赛事'], region_id: region })).statusCode).toBe(200);
    await onOther('呱呱呱呱', (ids) => ids[0] === sports(), '511603');
    // One way: the official words do not gain the nickname's meaning (nothing to gain), and the nickname applies only in its region.
    expect(await ask(other, '呱呱呱呱', '511602')).toEqual([]);

    const before = await ask(t.app, '网吧', '511603');
    expect(before[0]).toBe(netbarId);
    const pin = await send('POST', '', { kind: 'curation', phrase: '网吧', match: 'contains', pins: [sports()], hides: [netbarId], region_id: region });
    expect(pin.statusCode).toBe(200);
    expect(pin.json().data.entry.permits).toEqual({ [sports()]: expect.stringContaining('高危险性体育'), [netbarId]: netbar.name });
    await onOther('开网吧', (ids) => ids[0] === sports() && !ids.includes(netbarId), '511603');
    // A region's curation applies to questions filtered to that region only.
    expect((await ask(other, '开网吧')).includes(netbarId)).toBe(true);
  });

  it('the preview answers the logged questions both ways: exact figures on a fixed log, nothing saved', async () => {
    const at = (m: number) => new Date(Date.parse('2026-11-20T02:00:00Z') + m * 60_000).toISOString();
    const row = (query: string, asker: string, m: number, regionIds: string | null = null) => ({
      asked_at: at(m),
      query,
      region_ids: regionIds,
      result_count: 0,
      top_permit_ids: '',
      status: 'no_match' as const,
      latency_us: 100,
      channel: 'page',
      asker,
    });
    await t.dbh.db
      .insertInto('query_log')
      .values([
        row('我想办嗷呜嗷呜', 'a', 1),
        row('我想办嗷呜嗷呜', 'b', 2),
        row('我想办嗷呜嗷呜', 'a', 3),
        row('嗷呜嗷呜', 'c', 4, String(region)),
        row('嗷呜嗷呜', 'c', 5, String(seed.regions.get('511602'))),
        row('食品经营许可', 'd', 6),
        row('从没有人问过的问题', 'e', 0),
      ])
      .execute();
    const entry = { kind: 'alias', phrases: ['嗷呜嗷呜'], code: SPORTS_CODE, region_id: region };
    const res = await send('POST', '/preview', { action: 'create', entry, limit: 4 });
    expect(res.statusCode).toBe(200);
    const p = res.json().data;
    // The four last asked distinct (question, filter) pairs; the oldest question is beyond the limit.
    expect(p).toMatchObject({ checked: 4, changed: 2, asks: 4, askers: 3 });
    expect(p.changes.map((c: { query: string; asks: number; askers: number }) => [c.query, c.asks, c.askers])).toEqual([
      ['我想办嗷呜嗷呜', 3, 2],
      ['嗷呜嗷呜', 1, 1],
    ]);
    expect(p.changes[0]).toMatchObject({ before: [], left: [], moved: [], entered: [{ permit_id: sports(), rank: 1 }], region_ids: null });
    expect(p.changes[1].region_ids).toEqual([String(region)]);
    expect(await count()).toBe(0);
    // The index the preview re-indexed in place answers as before it.
    expect(await ask(t.app, '我想办嗷呜嗷呜')).toEqual([]);

    // Removing a saved entry previews the way back.
    const id = (await send('POST', '', entry)).json().data.entry.id;
    await t.app.searchIndex.apply({ kind: 'lexicon' });
    const back = (await send('POST', '/preview', { action: 'delete', entry_id: id })).json().data;
    expect(back).toMatchObject({ checked: 5, changed: 2, asks: 4 });
    expect(back.changes[0]).toMatchObject({ query: '我想办嗷呜嗷呜', entered: [], left: [{ permit_id: sports(), rank: 1 }] });
    // `limit` is clamped to 1..5000: 0 answers the last asked question alone, a huge one all five.
    const checked = async (limit: unknown) => (await send('POST', '/preview', { action: 'delete', entry_id: id, limit })).json().data.checked as number;
    expect([await checked(0), await checked(99999), await checked('abc')]).toEqual([1, 5, 5]);
  });

  it('export, then import into an empty lexicon, gives the same file', async () => {
    const entries = [
      { kind: 'synonym', words: ['噗噗屋', '网吧'], replace_bundled: true, note: '方言' },
      { kind: 'expansion', from: '呱呱呱呱', to: ['高危险性体育赛事', '体育赛事'], region_id: region },
      { kind: 'alias', phrases: ['嗷呜嗷呜', '嗷呜'], pattern: '高危险性体育&!延续' },
      { kind: 'curation', phrase: '办证', match: 'exact', pins: [sports()], hides: [] },
    ];
    for (const e of entries) expect((await send('POST', '', e)).statusCode).toBe(200);
    const first = await send('GET', '/export');
    expect(first.headers['content-disposition']).toContain('attachment');
    const file = first.json();
    expect(file).toMatchObject({ format: 'lawrisk-search-lexicon', version: 1 });
    expect(file.entries[1]).toEqual({ kind: 'expansion', region: '511603', from: '呱呱呱呱', to: ['高危险性体育赛事', '体育赛事'] });
    await t.dbh.db.deleteFrom('search_lexicon').execute();
    const imported = await send('POST', '/import', file);
    expect(imported.json()).toMatchObject({ success: true, data: { added: 4, skipped: 0 } });
    expect((await send('GET', '/export')).json().entries).toEqual(file.entries);
    // Curated permits travel as their region and code: ids mean nothing in another database.
    expect(file.entries[3].pins).toEqual([{ region: '511603', code: SPORTS_CODE, name: expect.stringContaining('高危险性体育') }]);
    // Again: everything is there already.
    expect((await send('POST', '/import', file)).json().data).toEqual({ added: 0, skipped: 4 });
    expect(await count()).toBe(4);
  });

  it('refuses a file with a bad entry, named by its place, and saves none of it', async () => {
    const file = (entries: unknown[]) => ({ format: 'lawrisk-search-lexicon', version: 1, entries });
    const good = { kind: 'synonym', words: ['噗噗屋', '网吧'] };
    const cases: [unknown, string][] = [
      [file([good, 'x'.repeat(1000)]), '第 2 条：词条必须是一个对象'],
      [
        file([good, { kind: 'curation', phrase: '办证', pins: [{ region: '511603', code: 'NO-SUCH', name: '没有' }] }]),
        '第 2 条：许可不存在：511603 NO-SUCH 没有',
      ],
      [file([good, { kind: 'synonym', words: ['甲甲', '乙乙'], region: '999999' }]), '第 2 条：区域不存在：999999'],
      [{ entries: [good] }, '不是词库导出文件（缺少 format 或 entries）'],
    ];
    for (const [body, message] of cases) expect((await send('POST', '/import', body)).json()).toEqual({ success: false, message });
    expect(await count()).toBe(0);
  });

  it('refuses bad input with a clear message and saves nothing', async () => {
    const hidden = await t.dbh.db
      .updateTable('permits')
      .set({ visible: 0 })
      .where('id', '=', seed.permits.get(`511602:${seed.seeded.find((p) => p.region_code === '511602')!.code}`)!)
      .returning('id')
      .executeTakeFirstOrThrow();
    await send('POST', '', { kind: 'expansion', from: '甲甲', to: ['乙乙'] });
    await send('POST', '', { kind: 'expansion', from: '乙乙', to: ['丙丙'] });
    const cases: [unknown, string][] = [
      [{ kind: 'synonym', words: [] }, '同义词组至少需要两个不同的词'],
      [{ kind: 'synonym', words: ['网吧', '網吧'] }, '同义词组至少需要两个不同的词'],
      [{ kind: 'synonym', words: ['网吧', ''] }, '同义词不能为空'],
      [{ kind: 'synonym', words: ['网吧', '长'.repeat(51)] }, `同义词不能超过 50 个字符：${'长'.repeat(10)}…`],
      [{ kind: 'curation', phrase: '办证', pins: ['999999'] }, '许可不存在：999999'],
      [{ kind: 'curation', phrase: '办证', pins: [String(hidden.id)] }, expect.stringMatching(/^许可已隐藏，不能置顶：/)],
      [{ kind: 'curation', phrase: '办证', pins: [sports()], region_id: seed.regions.get('511602') }, expect.stringMatching(/^许可不属于所选区域：/)],
      [{ kind: 'curation', phrase: '办证' }, '请至少置顶或隐藏一个许可'],
      [{ kind: 'expansion', from: '丙丙', to: ['甲甲'] }, '单向扩展形成循环：甲甲 → 乙乙 → 丙丙 → 甲甲'],
      [{ kind: 'expansion', from: '甲甲', to: '甲甲' }, '单向扩展形成循环：甲甲 → 甲甲'],
      [{ kind: 'alias', phrases: ['嗷呜'], code: 'NO-SUCH-CODE' }, '没有编码为 NO-SUCH-CODE 的许可'],
      [{ kind: 'alias', phrases: ['嗷呜'] }, '别名需要指定许可编码或名称模式（二选一）'],
      [{ kind: 'alias', phrases: ['嗷呜'], pattern: '没有这种许可' }, '名称模式 没有这种许可 没有匹配到任何许可'],
      [{ kind: 'expansion', from: '甲甲', to: ['乙乙'] }, '相同的词条已存在'],
      [{ kind: 'word' }, expect.stringMatching(/^词条类型必须是/)],
      [{ kind: 'synonym', words: ['a', 'b'], region_id: 987654 }, '区域不存在'],
      [{ kind: 'synonym', words: ['a', 'b'], region_id: true }, '区域编号不正确'],
      [{ kind: 'expansion', from: '4s店', to: ['汽车销售'] }, '源词不能混合汉字与字母、数字：4s店（可分成两个词）'],
      [{ kind: 'curation', phrase: '办证', pins: ['99999999999'] }, '许可编号不正确：99999999999'],
      // An entry is a rule, not a list: at most 50 words, 20 pinned and 50 hidden permits, a note of 200 characters.
      [
        { kind: 'synonym', words: Array.from({ length: 51 }, (_, i) => `词${'甲乙丙丁戊己庚辛壬癸'[i % 10]}${'子丑寅卯辰巳午未申酉'[Math.floor(i / 10)]}`) },
        '同义词最多 50 个',
      ],
      [{ kind: 'curation', phrase: '办证', pins: Array.from({ length: 21 }, (_, i) => String(i + 1)) }, '置顶最多 20 个许可'],
      [{ kind: 'curation', phrase: '办证', hides: Array.from({ length: 51 }, (_, i) => String(i + 1)) }, '隐藏最多 50 个许可'],
      [{ kind: 'synonym', words: ['网吧', '网咖'], note: '备'.repeat(201) }, '备注不能超过 200 个字符'],
      // Punctuation is no part of a word (the engine reads it as a space).
      [{ kind: 'synonym', words: ['网吧', '！？'.repeat(50)] }, '同义词不能为空'],
    ];
    for (const [body, message] of cases) {
      const res = await send('POST', '', body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([400, { success: false, message }]);
      expect((await send('POST', '/preview', { entry: body })).statusCode).toBe(400);
    }
    expect(await count()).toBe(2);
    const failures = await t.dbh.db
      .selectFrom('operation_logs')
      .select('outcome')
      .where('target_type', '=', 'search_lexicon')
      .where('outcome', '=', 'failure')
      .execute();
    expect(failures.length).toBeGreaterThanOrEqual(cases.length);
    await t.dbh.db.updateTable('permits').set({ visible: 1 }).where('id', '=', hidden.id).execute();
  });

  it('is in checkpoints: a restore brings back the lexicon of its time, on every instance', async () => {
    const entry = await send('POST', '', { kind: 'alias', phrases: ['嗷呜嗷呜'], code: SPORTS_CODE, region_id: region });
    const checkpoint = await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints`, payload: { description: '词库' }, headers: { cookie: admin } });
    expect(checkpoint.statusCode).toBe(200);
    await send('DELETE', `/${entry.json().data.entry.id}`);
    await onOther('嗷呜嗷呜', (ids) => ids.length === 0);
    const restored = await t.app.inject({
      method: 'POST',
      url: `${API}/admin/checkpoints/${checkpoint.json().data.checkpoint_id}/restore`,
      payload: {},
      headers: { cookie: admin },
    });
    expect(restored.statusCode).toBe(200);
    expect(await count()).toBe(1);
    await onOther('嗷呜嗷呜', (ids) => ids[0] === sports());
    expect((await ask(t.app, '嗷呜嗷呜'))[0]).toBe(sports());
  });

  it('holds at most 10,000 entries, and a grade-90 administrator writes only regional ones', async () => {
    const stamp = {
      created_at: '2026-11-20T00:00:00Z',
      updated_at: '2026-11-20T00:00:00Z',
      note: null,
      created_by: 'admin',
      updated_by: 'admin',
      region_id: null,
    };
    for (let i = 0; i < MAX_ENTRIES; i += 1000) {
      await t.dbh.db
        .insertInto('search_lexicon')
        .values(
          Array.from({ length: 1000 }, (_, j) => ({
            ...stamp,
            kind: 'synonym' as const,
            body: JSON.stringify({ words: [`词${i + j}`, `语${i + j}`], replace: false }),
          })),
        )
        .execute();
    }
    const full = await send('POST', '', { kind: 'synonym', words: ['网吧', '网咖'] });
    expect(full.json()).toEqual({ success: false, message: `词库条目不能超过 ${MAX_ENTRIES} 条` });
    expect(await count()).toBe(MAX_ENTRIES);
    await t.dbh.db.deleteFrom('search_lexicon').execute();

    const global = await send('POST', '', { kind: 'synonym', words: ['网吧', '网咖'] }, city);
    expect([global.statusCode, global.json().message]).toEqual([403, '权限不足']);
    const regional = await send('POST', '', { kind: 'synonym', words: ['网吧', '网咖'], region_id: region }, city);
    expect(regional.statusCode).toBe(200);
    const made = await send('POST', '', { kind: 'synonym', words: ['歌厅', 'ktv'] });
    expect((await send('DELETE', `/${made.json().data.entry.id}`, undefined, city)).statusCode).toBe(403);
    const listed = (await send('GET', '?kind=synonym&region_id=global', undefined, city)).json().data;
    expect(listed).toMatchObject({ total: 1, max_entries: MAX_ENTRIES, entries: [{ words: ['歌厅', 'ktv'], region_id: null }] });
    expect(await count()).toBe(2);
  });
});
