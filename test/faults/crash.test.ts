import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { CRASH_POINT_REACHED, type CrashPoint } from '../../src/crash-point.js';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { dumpDatabase, GUANGAN_CITY, seedCorpusRegions, workbookBytes } from '../../src/modules/importer/import.test-helpers.js';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../helpers/databases.js';
import { httpClient, type HttpClient } from '../helpers/http-client.js';
import { multipartBody } from '../helpers/multipart.js';
import { seedCatalog } from '../helpers/seed-catalog.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { ADMIN_PASSWORD, API, testConfig } from '../helpers/test-app.js';

/**
 * SIGKILL in the middle of the three big writes (an import commit, a checkpoint restore, a permit
 * delete) of a real server process, stopped at a crash point (src/crash-point.ts) inside the open
 * transaction; and once just after a commit, before the process's own search index and the other
 * instances hear of it. After each crash the next process starts on the same database and must
 * find it exactly as before the write (or, after a commit, exactly as after it), with a search
 * index that matches it. A second instance (the witness) runs throughout on the same database and
 * must follow every committed change through the change feed, including the one whose process died.
 * One database per dialect; each case starts from where the previous one left the data.
 */

/** A permit of the 广安市 workbook (not in the seeded catalogue until the import commits). */
const CITY_PERMIT = { name: '道路旅客运输经营许可（新增）', region: '511600' };
const CITY_WORKBOOK_PERMITS = 159;

type Dump = Record<string, string[]>;
type Search = (payload: Record<string, unknown>) => Promise<any>;

describe.each(testDialects())('a process killed in the middle of a write on %s', (dialect) => {
  let database: TestDatabase;
  let dbh: DatabaseHandle;
  let witness: BuiltApp;
  let running: ServerProcess | null = null;
  let cookie = '';
  let checkpointId = '';
  let atCheckpoint: Dump;
  let importSession = '';
  /** The permit the delete case removes: a seeded 广安区 permit. */
  let target = { id: 0, name: '', region: '511602' };

  /** Database images of SQLite checkpoint operations, beside the database file. */
  const imageFiles = () => (dialect === 'sqlite' ? readdirSync(dirname(database.url.slice('sqlite:'.length))).filter((f) => f.includes('.checkpoint-')) : []);

  const start = async (point: CrashPoint | null) => {
    const env: Record<string, string> = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, ADMIN_PASSWORD, DEMO_DATA: '0' };
    if (point) env.LAWRISK_CRASH_POINT = point;
    running = await startServer(env);
    return httpClient(running.base);
  };

  /** Sends a write, waits until the process stands at the crash point, and kills it there. */
  const killDuring = async (point: CrashPoint, send: () => Promise<unknown>) => {
    const srv = running!;
    const answer = send().then(
      (r) => ({ answered: r }),
      () => ({ answered: null }), // the connection dies with the process
    );
    const reached = srv.waitForOutput(`${CRASH_POINT_REACHED} ${point}`).then(
      () => 'reached' as const,
      (err: Error) => err,
    );
    const first = await Promise.race([reached, answer]);
    if (first instanceof Error) throw first;
    if (first !== 'reached') throw new Error(`answered before reaching ${point}: ${JSON.stringify(first)}`);
    expect(await srv.stop('SIGKILL')).toBeNull(); // killed by the signal, not exited
    expect(srv.child.signalCode).toBe('SIGKILL');
    expect(await answer).toEqual({ answered: null });
    running = null;
  };

  const permitCount = async () =>
    Number(
      (
        await dbh.db
          .selectFrom('permits')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const permitIdsNamed = async (name: string, regionCode: string) =>
    (
      await dbh.db
        .selectFrom('permits as p')
        .innerJoin('regions as r', 'r.id', 'p.region_id')
        .select('p.id')
        .where('p.name', '=', name)
        .where('r.code', '=', regionCode)
        .execute()
    ).map((r) => String(r.id));

  /**
   * The index of an instance matches the database: as many documents as permits, and each probe
   * permit found by its name exactly when it exists.
   */
  const indexMismatch = async (search: Search): Promise<string | null> => {
    for (const probe of [CITY_PERMIT, target]) {
      const body = await search({ query: probe.name, region: probe.region, debug: true });
      const permits = await permitCount();
      if (body.data.debug.index.documents !== permits) return `index holds ${body.data.debug.index.documents} permits, database ${permits}`;
      const found = body.data.risk_subject
        .filter((s: { permit: { name: string } }) => s.permit.name === probe.name)
        .map((s: { permit: { id: string } }) => s.permit.id);
      const present = await permitIdsNamed(probe.name, probe.region);
      if (found.sort().join() !== present.sort().join()) return `${probe.name}: index finds [${found}], database has [${present}]`;
    }
    return null;
  };
  const overHttp =
    (client: HttpClient): Search =>
    async (json) =>
      (await client.call('POST', '/v2', { json })).body;
  const inProcess =
    (app: BuiltApp['app']): Search =>
    async (payload) =>
      (await app.inject({ method: 'POST', url: `${API}/v2`, payload })).json();
  /** The witness learns through the change feed, polled every 250 ms: allow a few seconds under load. */
  const witnessFollows = async () => {
    const deadline = Date.now() + 5000;
    let mismatch = await indexMismatch(inProcess(witness.app));
    while (mismatch && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      mismatch = await indexMismatch(inProcess(witness.app));
    }
    expect(mismatch).toBeNull();
  };
  const without = (dump: Dump, ...tables: string[]) => Object.fromEntries(Object.entries(dump).filter(([t]) => !tables.includes(t)));

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dbh = await openMigrated(database);
    await seedCorpusRegions(dbh.db);
    const seed = await seedCatalog(dbh.db, { regions: ['511602', '511603'], maxPermitsPerRegion: 30 });
    const first = seed.seeded.find((p) => p.region_code === '511602' && p.themes.length > 0)!; // a delete needs the permit's theme
    target = { id: seed.permits.get(first.key)!, name: first.name, region: '511602' };
    witness = await buildApp(testConfig(database), { logger: false });
  });
  afterAll(async () => {
    await running?.stop('SIGKILL');
    await witness?.app.close();
    await dbh?.close();
    await database?.drop();
  });

  it(
    'import commit: killed inside the transaction leaves nothing; the session commits again; killed after the commit keeps all of it',
    { timeout: 120_000 },
    async () => {
      let api = await start('import-commit');
      cookie = await api.login('admin', ADMIN_PASSWORD);
      const cp = await api.call('POST', '/admin/checkpoints', { cookie, json: { description: '导入前' } });
      expect(cp.status).toBe(200);
      checkpointId = cp.body.data.checkpoint_id;
      atCheckpoint = await dumpDatabase(dbh.db);

      const upload = await api.call('POST', '/admin/permit-import/upload', {
        cookie,
        raw: multipartBody({}, { file: { filename: GUANGAN_CITY, content: workbookBytes(GUANGAN_CITY) } }),
      });
      expect(upload.status).toBe(200);
      importSession = upload.body.data.session_id;
      expect(upload.body.data.totals).toMatchObject({ permits: CITY_WORKBOOK_PERMITS, new: CITY_WORKBOOK_PERMITS });
      const before = await dumpDatabase(dbh.db);
      const permitsBefore = await permitCount();

      await killDuring('import-commit', () => api.call('POST', '/admin/permit-import/commit', { cookie, json: { session_id: importSession } }));
      expect(await dumpDatabase(dbh.db)).toEqual(before);
      expect(await indexMismatch(inProcess(witness.app))).toBeNull(); // nothing was announced

      // The restarted process: healthy, its index matches the database, the session (and the login) still there.
      api = await start('data-changed');
      expect((await api.health()).body).toMatchObject({ status: 'ok' });
      expect(await indexMismatch(overHttp(api))).toBeNull();
      const preview = await api.call('GET', `/admin/permit-import/session/${importSession}/preview`, { cookie });
      expect(preview.status).toBe(200);
      expect(preview.body.data.totals).toMatchObject({ new: CITY_WORKBOOK_PERMITS });

      // Committed again; this time the process dies just after the commit, before any index hears of it.
      await killDuring('data-changed', () => api.call('POST', '/admin/permit-import/commit', { cookie, json: { session_id: importSession } }));
      expect(await permitCount()).toBe(permitsBefore + CITY_WORKBOOK_PERMITS);
      const after = await dumpDatabase(dbh.db);
      for (const [table, rows] of Object.entries(without(before, 'import_sessions'))) {
        expect(after[table], table).toEqual(expect.arrayContaining(rows)); // nothing that was there changed
      }
      // The other instance was never told by the dead process: it learns from the feed entry committed with the data.
      await witnessFollows();
    },
  );

  it('checkpoint restore: killed inside the transaction leaves the data as it was; the import stands complete', { timeout: 120_000 }, async () => {
    const api = await start('checkpoint-restore');
    expect(await indexMismatch(overHttp(api))).toBeNull();
    // Exactly the state after the import: previewing the same workbook again finds nothing to change.
    const again = await api.call('GET', `/admin/permit-import/session/${importSession}/preview`, { cookie });
    expect(again.body.data.totals).toMatchObject({ permits: CITY_WORKBOOK_PERMITS, new: 0, changed: 0, unchanged: CITY_WORKBOOK_PERMITS });

    const before = await dumpDatabase(dbh.db);
    await killDuring('checkpoint-restore', () => api.call('POST', `/admin/checkpoints/${checkpointId}/restore`, { cookie, json: {} }));
    expect(await dumpDatabase(dbh.db)).toEqual(before);
    // SQLite: the restore's database image, named with the killed process's id, stays behind…
    const left = imageFiles();
    if (dialect === 'sqlite') expect(left).toEqual([expect.stringMatching(/^test\.db\.checkpoint-\d+-\d+-[0-9a-f]+\.tmp$/)]);
    // The automatic backup was committed on its own before the restore began: it stays.
    const backups = await dbh.db.selectFrom('checkpoints').select('description').where('kind', '=', 'auto_backup').execute();
    expect(backups).toEqual([{ description: `Auto backup before restoring checkpoint ${checkpointId}` }]);

    // … until the next process starts: it removes the image and says which file it removed.
    await start(null);
    expect(imageFiles()).toEqual([]);
    if (dialect === 'sqlite') {
      const said = running!
        .output()
        .split('\n')
        .filter((l) => l.includes('unfinished checkpoint operation'));
      expect(said).toHaveLength(1);
      expect(JSON.parse(said[0])).toMatchObject({ level: 40, files: [join(dirname(database.url.slice('sqlite:'.length)), left[0])] });
    }
    expect(await dumpDatabase(dbh.db)).toEqual(before);
    await running!.stop();
    running = null;
  });

  it('permit delete: killed inside the transaction keeps the permit and writes no snapshot', { timeout: 120_000 }, async () => {
    const api = await start('permit-delete');
    expect(await indexMismatch(overHttp(api))).toBeNull();
    // The interrupted restore, run again to the end: exactly the checkpoint's data, followed by every index.
    const restored = await api.call('POST', `/admin/checkpoints/${checkpointId}/restore`, { cookie, json: { create_auto_backup: false } });
    expect(restored.status).toBe(200);
    expect(without(await dumpDatabase(dbh.db), 'import_sessions')).toEqual(without(atCheckpoint, 'import_sessions'));
    expect(imageFiles()).toEqual([]);
    expect(await indexMismatch(overHttp(api))).toBeNull();
    await witnessFollows();

    const before = await dumpDatabase(dbh.db);
    const path = `/admin/permits?region=${target.region}&permit_id=${target.id}`;
    await killDuring('permit-delete', () => api.call('DELETE', path, { cookie }));
    expect(await dumpDatabase(dbh.db)).toEqual(before);

    // A restart (in this process: the same start-up as the server's) finds it whole and deletes it for good.
    const restarted = await buildApp(testConfig(database), { logger: false });
    try {
      expect((await restarted.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect(await indexMismatch(inProcess(restarted.app))).toBeNull();
      const del = await restarted.app.inject({ method: 'DELETE', url: `${API}${path}`, headers: { cookie } });
      expect(del.statusCode).toBe(200);
      expect(await permitIdsNamed(target.name, target.region)).toEqual([]);
      const batch = await dbh.db
        .selectFrom('snapshot_batches')
        .selectAll()
        .where('id', '=', Number(del.json().data.snapshot_batch_id))
        .executeTakeFirstOrThrow();
      expect(batch).toMatchObject({ reason: 'delete', permit_count: 1 });
      expect(await indexMismatch(inProcess(restarted.app))).toBeNull();
      await witnessFollows();
    } finally {
      await restarted.app.close();
    }
  });
});
