import type { AppContext, DataChange } from '../../context.js';
import type { DB } from '../../db/database.js';
import { listRegionRows, type RegionRow } from '../regions/regions.repository.js';
import { loadLexiconRules } from './lexicon/lexicon.repository.js';
import { AdminLexicon } from './engine/admin-lexicon.js';
import { SearchIndex, type SearchDoc } from './engine/index.js';
import { loadAllSearchDocs, loadSearchDocs } from './search-docs.repository.js';

/**
 * Owns the live search index of this process. Small changes are applied incrementally; a full
 * rebuild is built on the side and swapped in at once, so a request never sees a half-built index.
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

  constructor(private readonly ctx: AppContext) {}

  get current(): SearchIndex {
    return this.index;
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

  async apply(change: DataChange): Promise<void> {
    if (change.kind === 'all') return this.rebuild();
    if (change.kind === 'lexicon') return this.reloadLexicon();
    if (this.rebuilding) this.pendingDuringRebuild.push(...change.permitIds);
    await this.applyTo(this.index, change.permitIds, change.docs);
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
    const docs = [...given, ...(await loadSearchDocs(this.ctx.db, permitIds.filter((id) => !have.has(id))))];
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
