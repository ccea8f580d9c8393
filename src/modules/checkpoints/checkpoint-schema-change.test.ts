import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { seedSmallDataset } from '../../../test/helpers/checkpoint-data.js';

// docs/checkpoints.md: a checkpoint taken before a schema change still restores.
describe.each(testDialects())('a checkpoint taken before a schema change on %s', (dialect) => {
  let t: TestApp;
  let admin = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await seedSmallDataset(t.dbh.db);
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const post = async (path: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints${path}`, payload, headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const themes = async () => (await sql<Record<string, unknown>>`select * from themes order by id`.execute(t.dbh.db)).rows;

  it('ignores columns the table no longer has and gives the columns the checkpoint lacks their default', async () => {
    const original = await themes();
    await sql`alter table themes add column colour text not null default 'blue'`.execute(t.dbh.db);
    await sql`update themes set colour = 'red'`.execute(t.dbh.db);
    const withColour = (await post('', { description: 'with colour' })).checkpoint_id;
    await sql`alter table themes drop column colour`.execute(t.dbh.db);
    await sql`delete from themes where id = ${original[0].id}`.execute(t.dbh.db);

    const restored = await post(`/${withColour}/restore`, { create_auto_backup: false });
    expect(restored.table_details).toContainEqual({ table: 'themes', rows: original.length });
    expect(await themes()).toEqual(original);

    const withoutShade = (await post('', { description: 'without shade' })).checkpoint_id;
    await sql`alter table themes add column shade text not null default 'green'`.execute(t.dbh.db);
    await sql`update themes set shade = 'dark'`.execute(t.dbh.db);
    await post(`/${withoutShade}/restore`, { create_auto_backup: false });
    expect(await themes()).toEqual(original.map((theme) => ({ ...theme, shade: 'green' })));
  });

  // PostgreSQL stores values in their type's binary form: a column whose type changed since goes
  // through a temporary table of the old type and a cast. (SQLite cannot change a column's type.)
  if (dialect === 'postgres')
    it('casts the values of a column whose type changed', async () => {
      const risks = async () => (await sql<Record<string, unknown>>`select id, position, title from risks order by id`.execute(t.dbh.db)).rows;
      const original = await risks();
      expect(original.length).toBeGreaterThan(0);
      const before = (await post('', { description: 'int position' })).checkpoint_id;
      await sql`alter table risks alter column position type bigint`.execute(t.dbh.db);
      await sql`update risks set position = 5000000000, title = 'changed'`.execute(t.dbh.db);

      const restored = await post(`/${before}/restore`, { create_auto_backup: false });
      expect(restored.table_details).toContainEqual({ table: 'risks', rows: original.length });
      expect(await risks()).toEqual(original);
      await sql`alter table risks alter column position type integer`.execute(t.dbh.db);
    });
});
