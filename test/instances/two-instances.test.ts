import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importer } from '../../src/modules/importer/import.test-helpers.js';
import { testDialects } from '../helpers/databases.js';
import { createRegion } from '../helpers/fixtures.js';
import { generatedPermits, generatedWorkbook, within } from '../helpers/instances.js';
import { API, buildTestApp, type TestApp } from '../helpers/test-app.js';

const REGION = '双实例区';
const THEME = '双实例主题';

/**
 * Two instances of the service (two apps, each with its own connections, search index and
 * change-feed follower) on one database: what one does, the other sees.
 */
describe.each(testDialects())('two instances on one %s database', (dialect) => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let regionId = 0;

  const call = (app: FastifyInstance, method: 'GET' | 'POST' | 'DELETE', path: string, cookie: string, payload?: object) =>
    app.inject({ method, url: `${API}${path}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const ok = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const upload = async (app: FastifyInstance, cookie: string, content: Buffer, filename: string) =>
    ok(await importer({ app }).upload(cookie, content, filename));
  /** Codes of the permits a search for `query` on `app` finds in the test region. */
  const found = async (app: FastifyInstance, query: string) => {
    const res = await app.inject({ method: 'POST', url: `${API}/v2`, payload: { query, region: String(regionId) } });
    return (res.json().data.risk_subject as Array<{ permit: { code: string } }>).map((s) => s.permit.code);
  };
  /** Waits until a search on B does (or does not) find the permit; fails after one second. */
  const searchOnB = (query: string, code: string, present: boolean) =>
    within(1000, async () => ((await found(b, query)).includes(code) === present ? true : undefined));

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    regionId = await createRegion(t.dbh.db, REGION);
    a = t.app;
    b = (await t.reopen()).app;
  });
  afterAll(async () => t?.close());

  it('shares sessions: a login on A works on B, and a logout on B ends it on A', async () => {
    const cookie = await t.login();
    expect(ok(await call(b, 'GET', '/auth/me', cookie)).user).toMatchObject({ username: 'admin', role: 'admin' });
    expect((await call(b, 'GET', '/admin/regions', cookie)).statusCode).toBe(200);

    expect((await call(b, 'POST', '/auth/logout', cookie)).json()).toEqual({ success: true });
    for (const app of [a, b]) {
      expect((await call(app, 'GET', '/auth/me', cookie)).statusCode).toBe(401);
      expect((await call(app, 'GET', '/admin/regions', cookie)).json()).toEqual({ success: false, message: '请先登录' });
    }
  });

  it("previews and commits on B an import uploaded on A, and B's search finds it within a second", async () => {
    const cookie = await t.login();
    const permits = generatedPermits('v1', 0, 5);
    const session = await upload(a, cookie, await generatedWorkbook(permits, REGION, THEME), '双实例.xlsx');
    expect(session.totals).toMatchObject({ permits: 5, new: 5 });

    const preview = ok(await call(b, 'GET', `/admin/permit-import/session/${session.session_id}/preview`, cookie));
    expect(preview).toMatchObject({ session_id: session.session_id, filename: '双实例.xlsx', totals: session.totals });
    const result = ok(await call(b, 'POST', '/admin/permit-import/commit', cookie, { session_id: session.session_id }));
    expect(result.totals).toMatchObject({ permits: 5, new: 5 });
    const stored = await t.dbh.db.selectFrom('permits').select('code').where('region_id', '=', regionId).orderBy('code').execute();
    expect(stored.map((p) => p.code)).toEqual(permits.map((p) => p.code));
    // Committed through B: A learns it through the shared change feed.
    await within(1000, async () => ((await found(a, permits[2].name)).includes(permits[2].code) ? true : undefined));

    // And the other way round: a re-import through A changes what B finds.
    const renamed = permits.map((p, i) => (i === 3 ? { ...p, name: '独角兽饲养场经营许可' } : p));
    const again = await upload(a, cookie, await generatedWorkbook(renamed, REGION, THEME), '双实例-改名.xlsx');
    ok(await call(a, 'POST', '/admin/permit-import/commit', cookie, { session_id: again.session_id }));
    await searchOnB('独角兽饲养场经营许可', permits[3].code, true);
  });

  it("makes a permit deleted on A vanish from B's search, and a snapshot restore on A bring it back, within a second each", async () => {
    const cookie = await t.login();
    const victim = generatedPermits('v1', 1, 2)[0];
    await searchOnB(victim.name, victim.code, true);
    const deleted = ok(await call(a, 'DELETE', `/admin/permits?region=${regionId}&permit_id=${victim.code}`, cookie));
    const gone = await searchOnB(victim.name, victim.code, false);
    expect(gone.elapsed).toBeLessThan(1000);

    const restored = ok(await call(a, 'POST', `/admin/permit-risk-snapshots/${deleted.snapshot_batch_id}/restore`, cookie, {}));
    expect(restored.restored_permits).toEqual([deleted.permit_id]);
    const back = await searchOnB(victim.name, victim.code, true);
    expect(back.elapsed).toBeLessThan(1000);
  });

  it("reflects a checkpoint restore on A in B's search within a second", async () => {
    const cookie = await t.login();
    const checkpoint = ok(await call(a, 'POST', '/admin/checkpoints', cookie, { description: '双实例' }));
    const extra = generatedPermits('later', 7, 8);
    const session = await upload(a, cookie, await generatedWorkbook(extra, REGION, THEME), '之后.xlsx');
    ok(await call(a, 'POST', '/admin/permit-import/commit', cookie, { session_id: session.session_id }));
    await searchOnB(extra[0].name, extra[0].code, true);

    ok(await call(a, 'POST', `/admin/checkpoints/${checkpoint.checkpoint_id}/restore`, cookie, { create_auto_backup: false }));
    const gone = await searchOnB(extra[0].name, extra[0].code, false);
    expect(gone.elapsed).toBeLessThan(1000);
    // Everything else is still found on B after its full rebuild.
    expect(await found(b, '独角兽饲养场经营许可')).toContain(generatedPermits('v1', 3, 4)[0].code);
  });
});
