import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { importer } from '../../src/modules/importer/import.test-helpers.js';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../helpers/databases.js';
import { generatedPermits, generatedWorkbook } from '../helpers/instances.js';
import { seedCatalog, type SeedResult } from '../helpers/seed-catalog.js';
import { API, buildTestApp, cookieOf, testConfig, type TestApp, ADMIN_PASSWORD } from '../helpers/test-app.js';

async function asAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: inject('pgAdminUrl')! });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** DATABASE_READ_URL: the search index loader and the read-only routes read there; everything else uses DATABASE_URL. */
describe.each(testDialects().filter((d) => d === 'postgres'))('a read replica on %s', (dialect) => {
  describe('pointed at a second database, to show which reads go there', () => {
    let replica: TestDatabase;
    let rh: DatabaseHandle;
    let seed: SeedResult;
    let t: TestApp;
    let cookie = '';

    beforeAll(async () => {
      // Not a real replica: a database of its own with content the primary does not have.
      replica = await createTestDatabase(dialect);
      rh = await openMigrated(replica);
      seed = await seedCatalog(rh.db, { regions: ['511603'], maxPermitsPerRegion: 3 });
      t = await buildTestApp(dialect, { env: { DATABASE_READ_URL: replica.url } });
      cookie = await t.login(); // sessions and accounts live on the primary
    });
    afterAll(async () => {
      await t?.close();
      await rh?.close();
      await replica?.drop();
    });

    const get = (path: string) => t.app.inject({ url: `${API}${path}`, headers: { cookie } });

    it('loads the search index and answers read-only routes from the replica', async () => {
      expect(await t.dbh.db.selectFrom('permits').select('id').execute()).toEqual([]);
      const permit = seed.seeded[0];
      const res = await t.app.inject({ method: 'POST', url: `${API}/v2`, payload: { query: permit.name } });
      expect(res.json().data.risk_subject.map((s: { permit: { code: string } }) => s.permit.code)).toContain(permit.code);
      expect((await get('/v2/regions')).json().data.regions.map((r: { name: string }) => r.name)).toEqual(['前锋区']);
      expect((await get('/admin/regions')).json().data.regions.map((r: { name: string }) => r.name)).toEqual(['前锋区']);
    });

    it('writes to the primary; read-only routes show a write only once the replica has it (replica lag)', async () => {
      const created = await t.app.inject({ method: 'POST', url: `${API}/admin/regions`, payload: { name: '主库新区', code: 'PRIMARY1' }, headers: { cookie } });
      expect(created.statusCode, created.body).toBe(200);
      expect((await t.dbh.db.selectFrom('regions').select('name').execute()).map((r) => r.name)).toEqual(['主库新区']);
      // This "replica" never catches up: the region stays invisible to the read-only list.
      expect((await get('/admin/regions')).json().data.regions.map((r: { name: string }) => r.name)).toEqual(['前锋区']);
    });

    it('keeps search fresh after a write without waiting for the replica: changes are read from the primary', async () => {
      const permits = generatedPermits('primary', 0, 2);
      await importer(t).importFile(cookie, '主库.xlsx', {}, await generatedWorkbook(permits, '主库新区', '主库主题'));
      const res = await t.app.inject({ method: 'POST', url: `${API}/v2`, payload: { query: permits[1].name } });
      expect(res.json().data.risk_subject.map((s: { permit: { code: string } }) => s.permit.code)).toContain(permits[1].code);
    });
  });

  describe('pointed at the same database with a role that may only read', () => {
    const role = `lawrisk_reader_${process.pid}`;
    let database: TestDatabase;
    let dbh: DatabaseHandle;
    let app: Awaited<ReturnType<typeof buildApp>>['app'];
    let cookie = '';
    let seed: SeedResult;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      dbh = await openMigrated(database);
      seed = await seedCatalog(dbh.db, { regions: ['511603'], maxPermitsPerRegion: 8 });
      const name = new URL(database.url).pathname.slice(1);
      await asAdmin(async (c) => {
        await c.query(`create role ${role} login password 'reader-pass'`);
        await c.query(`grant connect on database ${name} to ${role}`);
      });
      const owner = new pg.Client({ connectionString: database.url });
      await owner.connect();
      await owner.query(`grant usage on schema public to ${role}; grant select on all tables in schema public to ${role}`);
      await owner.end();
      const readUrl = new URL(database.url);
      readUrl.username = role;
      readUrl.password = 'reader-pass';
      ({ app } = await buildApp(testConfig(database, { DATABASE_READ_URL: readUrl.toString() }), { dbh, logger: false }));
      const login = await app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'admin', password: ADMIN_PASSWORD } });
      cookie = cookieOf(login);
    });
    afterAll(async () => {
      await app?.close();
      await dbh?.close();
      await database?.drop();
      await asAdmin((c) => c.query(`drop role if exists ${role}`));
    });

    it('answers every read-only route through the read connection, which never writes', async () => {
      const permit = seed.seeded.find((p) => p.themes.length > 0)!;
      const region = '511603';
      const theme = String(seed.themesByName.get(permit.themes[0]));
      const reads: Array<[string, string, object?]> = [
        ['POST', '/v2', { query: permit.name }],
        ['GET', '/v2/regions'],
        ['GET', '/v2/themes'],
        ['GET', '/v2/unbound-permits?visibility=all'],
        ['GET', `/getPermits?region=${region}`],
        ['GET', '/admin/regions'],
        ['GET', `/admin/themes?region=${region}`],
        ['GET', `/admin/permits?region=${region}`],
        ['GET', `/admin/permits?region=${region}&theme=${theme}`],
        ['GET', `/admin/permit-details?region=${region}&permit=${permit.code}`],
        ['GET', '/admin/permits/advanced-filter?regions=511603'],
        ['GET', `/admin/permits/filter-options?region_id=${region}`],
        ['POST', '/admin/permits/filter', { region }],
        ['GET', '/admin/permit-files'],
        ['GET', '/admin/permit-risk-snapshots'],
        ['GET', '/admin/statistics'],
      ];
      for (const [method, path, payload] of reads) {
        const res = await app.inject({ method: method as 'GET', url: `${API}${path}`, headers: { cookie }, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
      }
      const readers = await asAdmin((c) => c.query('select count(*)::int as n from pg_stat_activity where usename = $1', [role]));
      expect(readers.rows[0].n).toBeGreaterThan(0);
      // Writes still go to the primary, with its role.
      const del = await app.inject({ method: 'DELETE', url: `${API}/admin/permits?region=${region}&permit_id=${permit.code}`, headers: { cookie } });
      expect(del.statusCode, del.body).toBe(200);
    });
  });
});
