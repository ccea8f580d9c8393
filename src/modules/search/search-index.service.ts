import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { AppContext, DataChange } from '../../context.js';
import type { DB } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { FEED_REBUILD_AFTER_MS, type ChangeFeed } from '../changes/change-feed.js';
import { listRegionRows, type RegionRow } from '../regions/regions.repository.js';
import { loadLexiconRules } from './lexicon/lexicon.repository.js';
import { AdminLexicon } from './engine/admin-lexicon.js';
import { SearchIndex, type SearchDoc } from './engine/index.js';
import { databaseIdentity, readSnapshot, removeLeftoverTemporaries, snapshotPath, SnapshotUnusable, writeSnapshot } from './index-snapshot.js';
import { loadAllSearchDocs, loadSearchDocs } from './search-docs.repository.js';

/** What a client is told to wait before asking again while the index loads. */
const LOADING_RETRY_SECONDS = 5;

/**
 * Owns the live search index of this process. Small changes are applied incrementally; a full
 * rebuild is built on the side and swapped in at once, so a request never sees a half-built index.
 * At start-up the index comes from its snapshot when one is usable, else from a full build; until
 * then the instance is not ready (docs/search-snapshot.md).
 */
export class SearchIndexHolder {
  private index: SearchIndex = SearchIndex.build([]);
  private builtAt = 0;
  private regionRows: RegionRow[] = [];
  /** Bumped by every change of the live index: cached answers of older versions are stale. */
  private indexVersion = 0;
  private rebuilding: Promise<void> | null = null;
  /** A rebuild was asked for after the running one had read its data: run another. */
  private dirty = false;
  /** Changes arriving during a rebuild are replayed on the new index before it is swapped in. */
  private pendingDuringRebuild: number[] = [];
  private lexiconReloads: Promise<void> = Promise.resolve();
  /** The start-up load; changes that arrive meanwhile wait for it. */
  private starting: Promise<void> | null = null;
  private isReady = false;
  /** Changes being applied now: a snapshot is not taken while one is under way. */
  private applying = 0;
  private snapshotVersion = -1;
  private snapshotWrite: Promise<void> | null = null;
  private readonly snapshotFile: string | null;

  private readonly loaded: Promise<void>;
  private settleLoaded: { resolve: () => void; reject: (err: unknown) => void } = { resolve: () => {}, reject: () => {} };

  constructor(private readonly ctx: AppContext) {
    this.snapshotFile = snapshotPath(ctx.config);
    this.loaded = new Promise((resolve, reject) => (this.settleLoaded = { resolve, reject }));
    // A failed start-up is reported to whoever waits for it (whenReady), never as an unhandled rejection.
    this.loaded.catch(() => undefined);
  }

  /** The index, once loaded; before that a 503 with Retry-After, never an answer from an empty index. */
  get current(): SearchIndex {
    if (!this.isReady) throw new AppError(503, '搜索服务正在启动，请稍后再试', {}, undefined, { 'retry-after': String(LOADING_RETRY_SECONDS) });
    return this.index;
  }

  /** The index as it is, loaded or not (metrics). */
  get loadedIndex(): SearchIndex {
    return this.index;
  }

  get ready(): boolean {
    return this.isReady;
  }

  get version(): number {
    return this.indexVersion;
  }

  /** The regions, kept with the index so a search resolves its region filter without a query. */
  get regions(): RegionRow[] {
    return this.regionRows;
  }

  get ageMs(): number {
    return this.ctx.now() - this.builtAt;
  }

  /**
   * Loads the index at start-up: from the snapshot, with the feed's later changes replayed, when
   * it is usable; otherwise by a full build from `source` (the read replica when there is one).
   * Resolves once the instance is ready.
   */
  start(feed: ChangeFeed, source: DB): Promise<void> {
    this.starting ??= this.load(feed, source).then(
      (built) => {
        this.isReady = true;
        this.starting = null;
        this.settleLoaded.resolve();
        if (built) void this.writeSnapshotNow(feed);
      },
      (err: unknown) => {
        this.settleLoaded.reject(err);
        throw err;
      },
    );
    return this.starting;
  }

  /** Resolves when the start-up load has ended; rejects when it failed. */
  whenReady(): Promise<void> {
    return this.loaded;
  }

  /** The snapshot being written, if one is. */
  snapshotWritten(): Promise<void> {
    return this.snapshotWrite ?? Promise.resolve();
  }

  /** Answers whether the index was built in full (and so deserves a snapshot at once). */
  private async load(feed: ChangeFeed, source: DB): Promise<boolean> {
    try {
      if (await this.loadSnapshot(feed)) return false;
    } catch (err) {
      this.ctx.log.warn({ err }, 'search index snapshot not loaded: building the index from the database');
    }
    await feed.mark(source);
    await this.rebuild(source);
    return true;
  }

  /** Whether the snapshot was loaded and brought up to date; every reason it was not is logged in one line. */
  private async loadSnapshot(feed: ChangeFeed): Promise<boolean> {
    if (!this.snapshotFile) return false;
    const started = performance.now();
    const leftovers = await removeLeftoverTemporaries(this.snapshotFile);
    if (leftovers.length > 0) this.ctx.log.warn({ files: leftovers }, 'removed what an unfinished search index snapshot write left');
    const unusable = (why: string) => {
      this.ctx.log.warn(`search index snapshot ${this.snapshotFile} ${why}: building the index from the database`);
      return false;
    };
    let read;
    try {
      read = await readSnapshot(this.snapshotFile, databaseIdentity(this.ctx.config.database));
    } catch (err) {
      if (err instanceof SnapshotUnusable) return unusable(err.message);
      throw err;
    }
    if (!read) return false;
    const { index, tag } = read;
    const highWater = await feed.highWater();
    if (tag.feedPosition > highWater) return unusable("is ahead of the database's change feed (the database was replaced)");
    // Changes made since may have been pruned from the feed: only a snapshot nothing changed after may be that old.
    if (highWater > tag.feedPosition && this.ctx.now() - tag.takenAt > FEED_REBUILD_AFTER_MS) return unusable('is older than the change feed is sure to keep');
    this.index = index;
    this.regionRows = await listRegionRows(this.ctx.db);
    const replayed = await feed.replayFrom(tag.feedPosition, (change) => this.applyNow(change));
    this.index.setLexicon(new AdminLexicon(await loadLexiconRules(this.ctx.db)));
    const held = { permits: this.index.size, risks: this.index.riskCount };
    const counted = await sql<{
      permits: number | string;
      risks: number | string;
    }>`select (select count(*) from permits) as permits, (select count(*) from risks) as risks`.execute(this.ctx.db);
    const inDatabase = { permits: Number(counted.rows[0]?.permits ?? 0), risks: Number(counted.rows[0]?.risks ?? 0) };
    if (held.permits !== inDatabase.permits || held.risks !== inDatabase.risks) {
      this.index = SearchIndex.build([]);
      return unusable(
        `holds ${held.permits} permits and ${held.risks} risks after replaying the feed where the database has ${inDatabase.permits} and ${inDatabase.risks}`,
      );
    }
    this.builtAt = this.ctx.now();
    this.indexVersion++;
    // The file already holds this index unless changes were replayed on it.
    if (replayed === 0) this.snapshotVersion = this.indexVersion;
    const ms = Math.round(performance.now() - started);
    this.ctx.log.info(`search index loaded from its snapshot: ${this.index.size} permits, ${replayed} changes replayed, in ${ms} ms`);
    return true;
  }

  /**
   * Writes the snapshot when the index changed since the last one, unless a change is being
   * applied or a rebuild runs (the snapshot must hold every change up to the feed position it is
   * tagged with). The index is taken at once and encoded between requests.
   */
  writeSnapshotNow(feed: ChangeFeed): Promise<void> {
    const file = this.snapshotFile;
    if (!file || !this.isReady || this.snapshotWrite || this.rebuilding || this.applying > 0 || this.snapshotVersion === this.indexVersion) {
      return this.snapshotWrite ?? Promise.resolve();
    }
    const version = this.indexVersion;
    const tag = { feedPosition: feed.position, takenAt: this.ctx.now() };
    const started = performance.now();
    const written = writeSnapshot(file, databaseIdentity(this.ctx.config.database), this.index, tag, () => nextTurn());
    this.snapshotWrite = written
      .then((bytes) => {
        this.snapshotVersion = version;
        const ms = Math.round(performance.now() - started);
        this.ctx.log.info(`search index snapshot written: ${this.index.size} permits, ${Math.round(bytes / 1024)} KiB, in ${ms} ms`);
      })
      .catch((err: unknown) => this.ctx.log.warn({ err }, `search index snapshot not written to ${file}`))
      .finally(() => (this.snapshotWrite = null));
    return this.snapshotWrite;
  }

  /**
   * Rebuilds from `source`: the read replica at start-up, the primary after a change (a replica
   * may not have the change yet).
   */
  rebuild(source: DB = this.ctx.db): Promise<void> {
    this.dirty = true;
    this.rebuilding ??= this.runRebuilds(source).finally(() => {
      this.rebuilding = null;
    });
    return this.rebuilding;
  }

  private async runRebuilds(source: DB): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      this.pendingDuringRebuild = [];
      const regions = await listRegionRows(source);
      const lexicon = new AdminLexicon(await loadLexiconRules(source));
      const fresh = SearchIndex.build(await loadAllSearchDocs(source), lexicon);
      while (this.pendingDuringRebuild.length > 0) await this.applyTo(fresh, this.pendingDuringRebuild.splice(0));
      this.index = fresh;
      this.regionRows = regions;
      this.builtAt = this.ctx.now();
      this.indexVersion++;
    }
  }

  /** Applies a committed change; one that arrives while the index loads is applied once it has. */
  async apply(change: DataChange): Promise<void> {
    if (this.starting) await this.starting;
    return this.applyNow(change);
  }

  private async applyNow(change: DataChange): Promise<void> {
    if (change.kind === 'all') return this.rebuild();
    if (change.kind === 'lexicon') return this.reloadLexicon();
    if (this.rebuilding) this.pendingDuringRebuild.push(...change.permitIds);
    this.applying++;
    try {
      await this.applyTo(this.index, change.permitIds, change.docs);
    } finally {
      this.applying--;
    }
  }

  /**
   * Applies the administrators' entries as they are now (from the primary: the change was just
   * committed there). A rebuild under way reads them itself: it is asked to run once more.
   */
  private reloadLexicon(): Promise<void> {
    // One reload at a time, in order: each reads the entries as they are when it starts, so the last one applied is the newest.
    const reload = this.lexiconReloads.then(async () => {
      if (this.rebuilding) return this.rebuild();
      const lexicon = new AdminLexicon(await loadLexiconRules(this.ctx.db));
      this.index.setLexicon(lexicon);
      this.indexVersion++;
    });
    // A failed reload (the database away) is the caller's to report; the next one still runs.
    this.lexiconReloads = reload.catch(() => undefined);
    return reload;
  }

  /**
   * Upserts the given permits (or removes the ones that no longer exist), reading from the
   * database those whose documents the change does not carry.
   */
  private async applyTo(index: SearchIndex, permitIds: number[], makeDocs?: () => SearchDoc[]): Promise<void> {
    if (permitIds.length === 0) return;
    const given = makeDocs?.() ?? [];
    const have = new Set(given.map((d) => Number(d.permitId)));
    // Reads from the primary: the change was just committed there.
    const docs = [
      ...given,
      ...(await loadSearchDocs(
        this.ctx.db,
        permitIds.filter((id) => !have.has(id)),
      )),
    ];
    // An import may have created a region: know it before its permits become searchable.
    const known = new Set(this.regionRows.map((r) => String(r.id)));
    const regions = docs.some((d) => !known.has(d.regionId)) ? await listRegionRows(this.ctx.db) : null;
    const present = new Set(docs.map((d) => d.permitId));
    // All updates happen synchronously after the read: no request interleaves a half-applied change.
    for (const id of permitIds) if (!present.has(String(id))) index.remove(String(id));
    for (const doc of docs) index.upsert(doc);
    if (regions) this.regionRows = regions;
    this.indexVersion++;
  }
}
