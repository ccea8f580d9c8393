import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { FEED_REBUILD_AFTER_MS } from '../changes/change-feed.js';
import { snapshotPath } from './index-snapshot.js';
import { SearchIndexHolder } from './search-index.service.js';

/** The id of a process that ran and ended. */
const exitedPid = async () => spawnSync(process.execPath, ['-e', '0']).pid;

const QUESTIONS = ['开奶茶店要办什么证', '建筑施工许可 风险', '食品经营', 'ypjy', '举办大型活动'];

/** What /v2 answers to each question: the permits, in order. */
async function answers(app: FastifyInstance): Promise<string[][]> {
  const out: string[][] = [];
  for (const query of QUESTIONS) {
    const res = await app.inject({ method: 'POST', url: `${API}/v2`, payload: { query } });
    expect(res.statusCode).toBe(200);
    out.push(res.json().data.risk_subject.map((s: { permit: { id: string } }) => s.permit.id));
  }
  return out;
}

describe.each(testDialects())('search index snapshot on %s', (dialect) => {
  let t: TestApp;
  let seed: SeedResult;
  let admin = '';
  let file = '';
  let lines: string[] = [];
  const logger = { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line).msg as string) } };
  /** A restart: a new instance on the same database, its log lines in `lines`. */
  const restart = async (more: { now?: () => number } = {}) => {
    lines = [];
    const { app } = await t.reopen({ logger, ...more });
    // One built in full writes its snapshot at once: let it finish before the test writes its own.
    await app.searchIndex.snapshotWritten();
    return app;
  };
  const said = (text: string) => lines.filter((l) => l?.includes(text));

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    seed = await seedCatalog(t.dbh.db);
    await t.app.searchIndex.rebuild();
    admin = await t.login();
    file = snapshotPath(t.config)!;
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.restoreAllMocks());

  /** Deletes a permit through the service (an entry of the change feed); answers its id. */
  const deleteOnePermit = async () => {
    const chosen = seed.seeded.find((p) => p.region_code === '511603' && p.themes.length > 0 && seed.permits.has(p.key))!;
    const id = String(seed.permits.get(chosen.key));
    seed.permits.delete(chosen.key);
    const del = await t.app.inject({ method: 'DELETE', url: `${API}/admin/permits?region=511603&permit_id=${id}`, headers: { cookie: admin } });
    expect(del.statusCode).toBe(200);
    return id;
  };

  /** A snapshot of the instance `app` as its index is now. */
  const snapshotOf = async (app: FastifyInstance) => {
    await app.searchIndex.writeSnapshotNow(app.changeFeed);
    expect(existsSync(file)).toBe(true);
  };

  it('starts from the snapshot, replaying the changes made since, and answers as the instance that wrote it', async () => {
    await snapshotOf(t.app);
    const id = await deleteOnePermit();

    const restarted = await restart();
    expect(said('search index loaded from its snapshot')).toEqual([expect.stringMatching(/permits, 1 changes replayed/)]);
    expect(restarted.searchIndex.current.size).toBe(t.app.searchIndex.current.size);
    expect(restarted.searchIndex.current.document(id)).toBeUndefined();
    expect(await answers(restarted)).toEqual(await answers(t.app));
  });

  it.each([
    ['corrupted', (bytes: Buffer) => ((bytes[bytes.length - 10] ^= 0xff), bytes), 'corrupted (checksum mismatch)'],
    ['truncated', (bytes: Buffer) => bytes.subarray(0, bytes.length - 1000), 'of the wrong size'],
    ['cut inside its header', (bytes: Buffer) => bytes.subarray(0, 20), 'truncated (header)'],
    ['not a snapshot', () => Buffer.from('PK\u0003\u0004 a workbook, not an index'), 'not a search index snapshot'],
    [
      'of another engine',
      (bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace(/"engine":"[0-9a-f]{4}/, '"engine":"ffff'), 'latin1'),
      'written by another version of the search engine',
    ],
  ])('ignores a snapshot %s with one warning, builds the index in full and writes a good one', async (_what, spoil, warning) => {
    await snapshotOf(t.app);
    writeFileSync(file, spoil(readFileSync(file)));
    const restarted = await restart();
    expect(said('search index snapshot')).toEqual([expect.stringContaining(warning), expect.stringContaining('snapshot written')]);
    expect(said('loaded from its snapshot')).toEqual([]);
    expect(await answers(restarted)).toEqual(await answers(t.app));

    const again = await restart();
    expect(said('loaded from its snapshot')).toHaveLength(1);
    expect(await answers(again)).toEqual(await answers(t.app));
  });

  it('loads a snapshot of any age when nothing changed since; rebuilds one older than the feed keeps with changes after it', async () => {
    await snapshotOf(t.app);
    const later = () => Date.now() + FEED_REBUILD_AFTER_MS + 60_000;
    await restart({ now: later });
    expect(said('loaded from its snapshot')).toEqual([expect.stringContaining(', 0 changes replayed')]);

    await deleteOnePermit();
    const restarted = await restart({ now: later });
    expect(said('search index snapshot')).toEqual([
      expect.stringContaining('older than the change feed is sure to keep'),
      expect.stringContaining('snapshot written'),
    ]);
    expect(await answers(restarted)).toEqual(await answers(t.app));
  });

  it("rebuilds rather than load a snapshot ahead of the database's change feed (a database put back from an older copy)", async () => {
    await snapshotOf(t.app);
    await deleteOnePermit();
    await t.app.searchIndex.rebuild();
    await snapshotOf(t.app);
    await t.dbh.db.deleteFrom('data_changes').execute();
    if (dialect === 'sqlite') await sql`update sqlite_sequence set seq = 0 where name = 'data_changes'`.execute(t.dbh.db);
    else await sql`select setval(pg_get_serial_sequence('data_changes', 'id'), 1, false)`.execute(t.dbh.db);
    const restarted = await restart();
    expect(said('search index snapshot')).toEqual([expect.stringContaining('ahead of the database'), expect.stringContaining('snapshot written')]);
    expect(await answers(restarted)).toEqual(await answers(t.app));
  });

  it('rebuilds when the catalogue was changed around the service, so the snapshot no longer counts what the database holds', async () => {
    await snapshotOf(t.app);
    const risk = await t.dbh.db.selectFrom('risks').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
    await t.dbh.db.deleteFrom('risks').where('id', '=', risk.id).execute();
    const restarted = await restart();
    expect(said('search index snapshot')).toEqual([
      expect.stringMatching(/risks after replaying the feed where the database has/),
      expect.stringContaining('snapshot written'),
    ]);
    await t.app.searchIndex.rebuild();
    expect(await answers(restarted)).toEqual(await answers(t.app));
  });

  it('leaves the previous snapshot whole when a write fails half-way, and loads it', async () => {
    const writer = await restart();
    await writer.searchIndex.rebuild();
    await snapshotOf(writer);
    const good = readFileSync(file);
    // The next write dies half-way through.
    const failing = await restart();
    await failing.searchIndex.rebuild();
    vi.spyOn(failing.searchIndex.current, 'save').mockRejectedValueOnce(new Error('killed'));
    await failing.searchIndex.writeSnapshotNow(failing.changeFeed);
    expect(said('search index snapshot not written')).toHaveLength(1);
    expect(readFileSync(file).equals(good)).toBe(true);
    expect(readdirSync(dirname(file)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // A process killed while writing leaves its temporary file: the next start removes it, and only it.
    const dead = `${file}.${await exitedPid()}-0badc0de.tmp`;
    const running = `${file}.${process.pid}-00c0ffee.tmp`;
    for (const path of [dead, running]) writeFileSync(path, good.subarray(0, 1000));
    await restart();
    expect(said('loaded from its snapshot')).toHaveLength(1);
    expect(said('removed what an unfinished search index snapshot write left')).toHaveLength(1);
    expect([existsSync(dead), existsSync(running)]).toEqual([false, true]);
    rmSync(running);
  });

  it('is not ready while its index loads: /readyz and the search answer 503 with Retry-After, /healthz says so', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const start = SearchIndexHolder.prototype.start;
    vi.spyOn(SearchIndexHolder.prototype, 'start').mockImplementation(function (this: SearchIndexHolder, ...args) {
      return gate.then(() => start.apply(this, args));
    });
    const loading = (await t.reopen({ waitForSearchIndex: false })).app;

    const ready = await loading.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toEqual({ status: 'loading', message: '搜索索引正在加载' });
    const health = await loading.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: dialect, ready: false });
    const search = await loading.inject({ method: 'POST', url: `${API}/v2`, payload: { query: '食品经营' } });
    expect(search.statusCode).toBe(503);
    expect(search.headers['retry-after']).toBe('5');
    expect(search.json()).toMatchObject({ success: false, message: '搜索服务正在启动，请稍后再试' });

    release();
    await loading.searchIndex.whenReady();
    expect((await loading.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
    expect((await loading.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok', database: dialect, ready: true });
    expect(await answers(loading)).toEqual(await answers(t.app));
  });
});
