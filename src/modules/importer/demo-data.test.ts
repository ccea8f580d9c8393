import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { importDemoData } from './demo-data.js';

describe.each(testDialects())('demo data on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { DEMO_DATA: '1' } });
  });
  afterAll(async () => t?.close());

  const count = async (table: 'permits' | 'risks' | 'permit_files' | 'permit_themes' | 'regions' | 'themes') =>
    Number(
      (
        await t.dbh.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('imports the three bundled workbooks through the import path into an empty database, once', async () => {
    const corpus = loadCorpus();
    await importDemoData(t.ctx);
    expect(await count('regions')).toBe(3);
    expect(await count('permits')).toBe(corpus.permits.length);
    expect(await count('risks')).toBe(corpus.permits.reduce((n, p) => n + p.risks.length, 0));
    expect(await count('permit_files')).toBe(3);
    expect(await count('themes')).toBe(corpus.themes.length);
    expect(await count('permit_themes')).toBe(corpus.permits.reduce((n, p) => n + p.themes.length, 0));
    const sessions = await t.dbh.db.selectFrom('import_sessions').select(['uploader_name', 'committed_at']).execute();
    expect(sessions).toHaveLength(3);
    expect(sessions.every((s) => s.uploader_name === '超级管理员' && s.committed_at !== null)).toBe(true);

    await importDemoData(t.ctx);
    expect(await count('permit_files')).toBe(3);
    expect(await t.dbh.db.selectFrom('import_sessions').select('id').execute()).toHaveLength(3);
  });
});
