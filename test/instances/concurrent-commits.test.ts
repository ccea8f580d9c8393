import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_BUSY } from '../../src/db/catalogue-lock.js';
import { importer } from '../../src/modules/importer/import.test-helpers.js';
import { testDialects } from '../helpers/databases.js';
import { createRegion } from '../helpers/fixtures.js';
import { expectedContent, generatedPermits, generatedWorkbook, storedContent, within } from '../helpers/instances.js';
import { API, buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Two instances (two apps with their own connection pools) on one PostgreSQL database commit
 * overlapping workbooks at the same moment. On SQLite the same race needs two processes (one
 * process cannot wait for its own other connection): test/instances/server-processes.test.ts.
 */
describe.each(testDialects().filter((d) => d === 'postgres'))('concurrent import commits on two instances on %s', (dialect) => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let cookie = '';

  const upload = async (app: FastifyInstance, content: Buffer, filename: string) => {
    const res = await importer({ app }).upload(cookie, content, filename);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.session_id as string;
  };
  const commit = (app: FastifyInstance, sessionId: string) => importer({ app }).commit(cookie, { session_id: sessionId });
  /** The contact a search on `app` shows for the permit with this code in this region. */
  const contactOn = async (app: FastifyInstance, regionId: number, code: string) => {
    const res = await app.inject({ method: 'POST', url: `${API}/v2`, payload: { query: `生成许可事项${code.slice(3)}号`, region: String(regionId) } });
    const hit = res.json().data.risk_subject.find((s: { permit: { code: string } }) => s.permit.code === code);
    return hit?.permit.contact_info as string | undefined;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    a = t.app;
    b = (await t.reopen()).app;
    cookie = await t.login();
  });
  afterAll(async () => t?.close());

  it.each([0, 1])('applies overlapping workbooks as one serial order: no lost update, no duplicate, no mix (round %i)', async (round) => {
    // A region and a theme of the round's own: both workbooks name the theme, so both plans create it.
    const region = `并发区${round}`;
    const theme = `并发导入主题${round}`;
    const regionId = await createRegion(t.dbh.db, region);
    const base = generatedPermits('base', 0, 40);
    const left = generatedPermits('A', 20, 60); // 20..39 change stored permits, 40..59 are new
    const right = generatedPermits('B', 30, 70); // overlaps both kinds
    const first = await commit(a, await upload(a, await generatedWorkbook(base, region, '基础主题'), `base${round}.xlsx`));
    expect(first.statusCode, first.body).toBe(200);

    const sa = await upload(a, await generatedWorkbook(left, region, theme), `a${round}.xlsx`);
    const sb = await upload(b, await generatedWorkbook(right, region, theme), `b${round}.xlsx`);
    const [ra, rb] = await Promise.all([commit(a, sa), commit(b, sb)]);
    // Refusing one is allowed, with the clear message; both are expected to wait their turn.
    for (const r of [ra, rb]) if (r.statusCode !== 200) expect(r.json(), r.body).toEqual({ success: false, message: CATALOGUE_BUSY });
    expect([ra.statusCode, rb.statusCode]).toContain(200);

    const ok = (r: typeof ra) => r.statusCode === 200;
    const serialOrders = [
      ok(ra) && ok(rb) && expectedContent(base, left, right),
      ok(ra) && ok(rb) && expectedContent(base, right, left),
      ok(ra) && !ok(rb) && expectedContent(base, left),
      !ok(ra) && ok(rb) && expectedContent(base, right),
    ].filter((o) => o !== false);
    const stored = await storedContent(t.dbh.db, regionId);
    expect(
      serialOrders.map((o) => JSON.stringify(o)),
      JSON.stringify(stored, null, 1),
    ).toContain(JSON.stringify(stored));
    expect(await t.dbh.db.selectFrom('themes').select('id').where('name', '=', theme).execute()).toHaveLength(1);

    // Both instances' search indexes show the final state within a second.
    for (const code of ['GEN025', 'GEN035', 'GEN045', 'GEN065']) {
      const want = stored[code].split('|')[0];
      for (const app of [a, b]) await within(1000, async () => ((await contactOn(app, regionId, code)) === want ? true : undefined));
    }
  });
});
