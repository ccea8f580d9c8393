import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { within } from '../../../test/helpers/instances.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { chunked, INSERT_CHUNK } from '../../db/batch.js';
import type { DB } from '../../db/database.js';
import { compressPiece, decompressPiece } from './checkpoint-store.js';
import { createCheckpoint } from './checkpoints.service.js';
import {
  changeDataset,
  checkpointRows,
  dumpCoveredTables,
  editCheckpointImage,
  editCheckpointTable,
  seedSmallDataset,
  storedChunks,
  type SmallDataset,
} from '../../../test/helpers/checkpoint-data.js';
import { blankRisk, permitRow } from '../../../test/helpers/permit-row.js';

const RISKS_PER_PERMIT = 3;

/** One import-like write: a permit, its theme link and its risks, in one transaction. */
async function writePermit(db: DB, regionId: number, n: number, pause: () => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('permits')
      .values(permitRow(regionId, `W-${n}`, `并发写入 ${n}`))
      .returning('id')
      .executeTakeFirstOrThrow();
    await pause();
    await trx
      .insertInto('risks')
      .values(Array.from({ length: RISKS_PER_PERMIT }, (_, position) => ({ permit_id: id, position, ...blankRisk(`风险 ${position}`) })))
      .execute();
  });
}

describe.each(testDialects())('checkpoint failures and consistency on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let data: SmallDataset;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    data = await seedSmallDataset(t.dbh.db);
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const post = (path: string, payload: object = {}) =>
    t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints${path}`, payload, headers: { cookie: admin } });
  const create = async () => Number((await post('')).json().data.checkpoint_id);
  /** Makes a checkpoint's statistics claim one `risks` row more than it stores. */
  async function claimOneMoreRisk(id: number) {
    const row = await t.dbh.db.selectFrom('checkpoints').select('table_stats').where('id', '=', id).executeTakeFirstOrThrow();
    const stats = JSON.parse(row.table_stats).map((s: { table: string; rows: number }) => (s.table === 'risks' ? { ...s, rows: s.rows + 1 } : s));
    await t.dbh.db
      .updateTable('checkpoints')
      .set({ table_stats: JSON.stringify(stats) })
      .where('id', '=', id)
      .execute();
  }
  const chunkOf = (id: number, table: string) => t.dbh.db.updateTable('checkpoint_chunks').where('checkpoint_id', '=', id).where('table_name', '=', table);
  const checkpointCount = async () => (await t.dbh.db.selectFrom('checkpoints').select('id').execute()).length;

  /** Restores a damaged checkpoint over changed data: 500, and every table exactly as before. */
  async function failingRestore(id: number, body: object) {
    const before = await dumpCoveredTables(t.dbh.db);
    const res = await post(`/${id}/restore`, body);
    expect(res.statusCode, res.body).toBe(500);
    expect(await dumpCoveredTables(t.dbh.db)).toEqual(before);
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie: admin } })).statusCode).toBe(200);
    return res.json();
  }

  it('reports a checkpoint whose last table cannot be decoded, leaving every table unchanged', async () => {
    const id = await create();
    await changeDataset(t.dbh.db, data);
    await chunkOf(id, 'app_meta')
      .set({ content: Buffer.from('not gzip at all') })
      .execute();

    const countBefore = await checkpointCount();
    const withBackup = await failingRestore(id, {});
    expect(Object.keys(withBackup.data).sort()).toEqual(['auto_backup_available', 'errors', 'recovery_suggestion']);
    expect(withBackup.success).toBe(false);
    expect(withBackup.message).toBeTruthy();
    expect(withBackup.data.errors).toHaveLength(1);
    expect(withBackup.data.errors[0]).toMatch(/^app_meta: chunk 0 cannot be read/);
    const backup = withBackup.data.auto_backup_available;
    expect(backup).toMatch(/^\d+$/);
    expect(withBackup.data.recovery_suggestion).toBe(`可从自动备份检查点 ${backup} 恢复`);
    expect(await checkpointCount()).toBe(countBefore + 1); // the backup stays

    const without = await failingRestore(id, { create_auto_backup: 'false' });
    expect(without.data).toEqual({ errors: withBackup.data.errors, auto_backup_available: null });
    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ operation_type: 'restore', outcome: 'failure', target_id: String(id) });
  });

  // PostgreSQL stores the chunks on a second connection, in a transaction of its own.
  it('leaves nothing behind when storing a chunk fails, and takes the next checkpoint as usual', async () => {
    const db = t.dbh.db;
    if (dialect === 'sqlite') {
      await sql`create trigger refuse_risks before insert on checkpoint_chunks when new.table_name = 'risks'
        begin select raise(abort, 'risks chunk refused'); end`.execute(db);
    } else {
      await sql`create function refuse_risks() returns trigger language plpgsql as $$
        begin if new.table_name = 'risks' then raise exception 'risks chunk refused'; end if; return new; end $$`.execute(db);
      await sql`create trigger refuse_risks before insert on checkpoint_chunks for each row execute function refuse_risks()`.execute(db);
    }
    const chunkCount = async () => (await db.selectFrom('checkpoint_chunks').select('id').execute()).length;
    const [checkpoints, chunks] = [await checkpointCount(), await chunkCount()];
    const failed = await post('', { description: 'refused' });
    expect(failed.statusCode, failed.body).toBe(500);
    expect(failed.json().success).toBe(false);
    expect([await checkpointCount(), await chunkCount()]).toEqual([checkpoints, chunks]);
    const log = await db.selectFrom('operation_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ operation_type: 'checkpoint', outcome: 'failure' });

    await sql`drop trigger refuse_risks${sql.raw(dialect === 'postgres' ? ' on checkpoint_chunks' : '')}`.execute(db);
    if (dialect === 'postgres') await sql`drop function refuse_risks()`.execute(db);
    // The operation's lock and connections were given back: the next checkpoint goes through.
    const next = await post('', { description: 'after' });
    expect(next.statusCode, next.body).toBe(200);
    expect(await checkpointCount()).toBe(checkpoints + 1);
  });

  // docs/checkpoints.md: operations run one at a time across instances, the lock taken before the
  // snapshot. A restore empties tables with TRUNCATE, which an older snapshot sees as empty: a
  // checkpoint asked for while a restore is about to commit must wait for it, not copy empty tables.
  if (dialect === 'postgres')
    it('takes a checkpoint asked for during a restore after the restore, not from emptied tables', async () => {
      const rowsOf = (stats: Array<{ table: string; rows: number }>) => Object.fromEntries(stats.map((s) => [s.table, s.rows]));
      // Regions go back through a temporary table and an INSERT (a column since dropped), not a
      // COPY FREEZE, whose rows even an older snapshot would see.
      await sql`alter table regions add column retired text`.execute(t.dbh.db);
      const target = (await post('', { description: 'target' })).json().data;
      await sql`alter table regions drop column retired`.execute(t.dbh.db);
      await t.dbh.db.insertInto('regions').values({ code: 'DURING', name: '恢复期间', created_at: 'x' }).execute();

      // Another session holds the change feed, so the restore stops at its last statement, every
      // table emptied and refilled but not committed.
      const blocker = t.database.open();
      /** Sessions waiting for a lock: the restore (at the change feed), then also the checkpoint. */
      const waiting = (sessions: number) => async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock'`.execute(blocker.db);
        return rows[0].n >= sessions ? true : undefined;
      };
      const holder = await blocker.pool!.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table data_changes in exclusive mode');
        // inject() starts a request only once it is awaited: Promise.resolve sets it off.
        const restore = Promise.resolve(post(`/${target.checkpoint_id}/restore`, { create_auto_backup: false }));
        await within(10_000, waiting(1));
        // The service itself: a request would wait at its session check, the sessions being emptied too.
        const during = createCheckpoint(t.ctx, 'during', 'admin');
        await within(10_000, waiting(2));
        await holder.query('commit'); // the restore commits, then the checkpoint starts
        const [restored, taken] = await Promise.all([restore, during]);
        expect(restored.statusCode, restored.body).toBe(200);
        expect(rowsOf(taken.table_stats)).toEqual(rowsOf(target.table_stats));
      } finally {
        holder.release();
        await blocker.close();
      }
    });

  it('reports row counts that do not match the statistics', async () => {
    const id = await create();
    await claimOneMoreRisk(id);
    await t.dbh.db.deleteFrom('risks').where('permit_id', '=', data.permits[1]).execute();
    const body = await failingRestore(id, { create_auto_backup: false });
    expect(body.data.errors).toEqual([expect.stringMatching(/^risks: \d+ rows restored, \d+ expected$/)]);
  });

  it('reports a missing chunk, leaving every table unchanged', async () => {
    const id = await create();
    const last = (await storedChunks(t.dbh.db, id, 'risks')).at(-1)!;
    await t.dbh.db.deleteFrom('checkpoint_chunks').where('id', '=', last.id).execute();
    await t.dbh.db.deleteFrom('risks').where('permit_id', '=', data.permits[1]).execute();
    const body = await failingRestore(id, { create_auto_backup: false });
    expect(body.data.errors).toEqual([`risks: ${last.chunk_index} chunks stored, ${last.chunk_index + 1} expected`]);
  });

  if (dialect === 'sqlite')
    it('reports a database image cut short, leaving every table unchanged', async () => {
      const id = await create();
      const last = (await storedChunks(t.dbh.db, id, 'app_meta')).at(-1)!;
      const piece = await decompressPiece(last.content);
      const content = await compressPiece(piece.subarray(0, piece.length - 1024));
      await t.dbh.db.updateTable('checkpoint_chunks').set({ content }).where('id', '=', last.id).execute();
      await t.dbh.db.deleteFrom('risks').where('permit_id', '=', data.permits[2]).execute();
      const body = await failingRestore(id, { create_auto_backup: false });
      expect(body.data.errors).toEqual([expect.stringMatching(/^the checkpoint image holds \d+ bytes, \d+ expected$/)]);
    });

  if (dialect === 'postgres')
    it('reports stored rows with a duplicate key, found when the indexes are built again', async () => {
      const id = await create();
      await editCheckpointTable(t.dbh, id, 'risks', 'insert into risks select * from risks limit 1');
      await claimOneMoreRisk(id);
      await t.dbh.db.deleteFrom('risks').where('permit_id', '=', data.permits[3]).execute();
      const body = await failingRestore(id, { create_auto_backup: false });
      expect(body.data.errors).toEqual([expect.stringMatching(/^risks: could not create unique index "risks_pkey"/)]);
    });

  it('reports stored rows that reference rows the checkpoint does not hold', async () => {
    const id = await create();
    if (dialect === 'sqlite') await editCheckpointImage(t.dbh, id, 'update risks set permit_id = 999999 where rowid = 1');
    else await editCheckpointTable(t.dbh, id, 'risks', 'update risks set permit_id = 999999 where id = (select min(id) from risks)');
    const body = await failingRestore(id, { create_auto_backup: false });
    expect(body.data.errors).toEqual([expect.stringMatching(/^risks(\.permit_id)?: /)]);
  });

  it('answers an exception in the last table with the exception body, leaving every table unchanged', async () => {
    const id = await create();
    if (dialect === 'sqlite') await editCheckpointImage(t.dbh, id, 'update app_meta set value = null where rowid = (select max(rowid) from app_meta)');
    else await editCheckpointTable(t.dbh, id, 'app_meta', 'update app_meta set value = null where key = (select max(key) from app_meta)');
    await t.dbh.db.insertInto('app_meta').values({ key: 'later', value: 'x' }).execute();
    const body = await failingRestore(id, { create_auto_backup: true });
    expect(body.message).toMatch(/^Restore failed: .*value/);
    expect(body.data).toEqual({ error_type: expect.stringMatching(/Error$/), auto_backup_available: null });
  });

  it('takes a consistent copy while other requests write permits and their risks', async () => {
    const db = t.dbh.db;
    const region = data.regions[0];
    // Enough rows that copying takes a while, so writes land before, during and after it.
    const bulk = Array.from({ length: 3000 }, (_, i) => permitRow(region, `B-${i}`, `批量 ${i}`));
    for (const part of chunked(bulk, INSERT_CHUNK)) await db.insertInto('permits').values(part).execute();
    const ids = (await db.selectFrom('permits').select('id').where('code', 'like', 'B-%').execute()).map((r) => r.id);
    const risks = ids.flatMap((permit_id) =>
      Array.from({ length: RISKS_PER_PERMIT }, (_, position) => ({ permit_id, position, ...blankRisk('批量风险', { description: '说明'.repeat(20) }) })),
    );
    for (const part of chunked(risks, INSERT_CHUNK)) await db.insertInto('risks').values(part).execute();
    await db.deleteFrom('risks').where('permit_id', 'in', data.permits).execute();
    await db.deleteFrom('permits').where('id', 'in', data.permits).execute();

    // PostgreSQL: a second connection pool writes truly concurrently. SQLite: the app's own
    // connection, where the writes queue behind the copy.
    const writerHandle = dialect === 'postgres' ? t.database.open() : null;
    const writer = writerHandle?.db ?? db;
    let done = false;
    let written = 0;
    const commits: number[] = [];
    const writing = (async () => {
      while (!done || written < 5) {
        await writePermit(writer, region, written++, () => new Promise((r) => setTimeout(r, 2)));
        commits.push(Date.now());
      }
    })();
    await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    const res = await post('', { description: 'während' });
    const finished = Date.now();
    done = true;
    await writing;
    await writerHandle?.close();
    expect(res.statusCode, res.body).toBe(200);
    if (dialect === 'postgres') expect(commits.some((c) => c > started && c < finished)).toBe(true);

    const id = Number(res.json().data.checkpoint_id);
    const permits = new Set((await checkpointRows(t.dbh, id, 'permits')).map((p) => p.id));
    const perPermit = new Map<unknown, number>();
    for (const r of await checkpointRows(t.dbh, id, 'risks')) perPermit.set(r.permit_id, (perPermit.get(r.permit_id) ?? 0) + 1);
    expect([...perPermit.keys()].filter((p) => !permits.has(p))).toEqual([]);
    expect([...permits].filter((p) => perPermit.get(p) !== RISKS_PER_PERMIT)).toEqual([]);
    const stats = res.json().data.table_stats;
    expect(stats.find((s: { table: string }) => s.table === 'risks').rows).toBe(permits.size * RISKS_PER_PERMIT);
  });

  it('restores tables of several chunks in batches that span chunks', async () => {
    const res = await post('', { description: 'chunks' });
    const id = Number(res.json().data.checkpoint_id);
    expect(res.json().data.table_stats.find((s: { table: string }) => s.table === 'risks').chunks).toBeGreaterThan(1);
    const state = await dumpCoveredTables(t.dbh.db);
    for (const batch_size of [10000, 100, 3333]) {
      await t.dbh.db.deleteFrom('risks').where('position', '=', 1).execute();
      const restored = await post(`/${id}/restore`, { create_auto_backup: false, batch_size });
      expect(restored.statusCode, restored.body).toBe(200);
      expect(await dumpCoveredTables(t.dbh.db)).toEqual(state);
    }
  });
});
