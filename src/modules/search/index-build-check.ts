import { performance } from 'node:perf_hooks';
import type { DB } from '../../db/database.js';
import { listRegionRows } from '../regions/regions.repository.js';
import { AdminLexicon } from './engine/admin-lexicon.js';
import { SearchIndex } from './engine/index.js';
import { loadLexiconRules } from './lexicon/lexicon.repository.js';
import { loadAllSearchDocs } from './search-docs.repository.js';

export interface IndexBuildCheck {
  /** Permits in the index built (hidden ones are indexed too and filtered at search time). */
  permits: number;
  regions: number;
  loadMs: number;
  buildMs: number;
}

/**
 * Builds a search index from the database exactly as an instance does at start-up (same loader,
 * same engine) and throws away the result: proves the stored catalogue can be indexed before
 * every running instance is asked to rebuild (`lawrisk reindex`).
 */
export async function checkIndexBuild(db: DB): Promise<IndexBuildCheck> {
  const started = performance.now();
  const [regions, docs, rules] = await Promise.all([listRegionRows(db), loadAllSearchDocs(db), loadLexiconRules(db)]);
  const loaded = performance.now();
  const index = SearchIndex.build(docs, new AdminLexicon(rules));
  return { permits: index.size, regions: regions.length, loadMs: Math.round(loaded - started), buildMs: Math.round(performance.now() - loaded) };
}
