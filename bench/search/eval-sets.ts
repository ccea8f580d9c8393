import { existsSync } from 'node:fs';
import type { LabelledQuery, QueryOutcome } from '../../src/modules/search/engine/relevance-metrics.js';
import {
  CHECK2_QUERIES_PATH,
  CHECK_QUERIES_PATH,
  DEV_QUERIES_PATH,
  loadQueries,
  regionFilter,
  TUNE2_QUERIES_PATH,
  TUNE_QUERIES_PATH,
  type CorpusFile,
} from './corpus.js';
import { detailLines, halves, summaryLines, type SearchFn } from './relevance-run.js';

/**
 * The labelled sets every relevance report covers: the dev set's tuning and checking halves,
 * the project's tuning set and its two frozen checking sets (when present).
 */
export interface EvalSet<T = QueryOutcome[]> {
  name: string;
  tuned: boolean;
  outcomes: T;
}

export function evalSetQueries(): EvalSet<LabelledQuery[]>[] {
  const dev = loadQueries(DEV_QUERIES_PATH).map((query) => ({ query, ranked: [] }));
  const { tuning, checking } = halves(dev);
  const sets: EvalSet<LabelledQuery[]>[] = [
    { name: 'dev tuning half (odd ids)', tuned: true, outcomes: tuning.map((o) => o.query) },
    { name: 'dev checking half (even ids)', tuned: false, outcomes: checking.map((o) => o.query) },
  ];
  if (existsSync(TUNE_QUERIES_PATH)) sets.push({ name: 'own tuning set', tuned: true, outcomes: loadQueries(TUNE_QUERIES_PATH) });
  if (existsSync(TUNE2_QUERIES_PATH)) sets.push({ name: 'second tuning set', tuned: true, outcomes: loadQueries(TUNE2_QUERIES_PATH) });
  if (existsSync(CHECK_QUERIES_PATH)) sets.push({ name: 'own frozen checking set', tuned: false, outcomes: loadQueries(CHECK_QUERIES_PATH) });
  if (existsSync(CHECK2_QUERIES_PATH)) sets.push({ name: 'second frozen checking set', tuned: false, outcomes: loadQueries(CHECK2_QUERIES_PATH) });
  return sets;
}

/** Every set answered by `search` (or only the sets given). */
export function runEvalSets(corpus: CorpusFile, search: SearchFn, sets = evalSetQueries()): EvalSet[] {
  return sets.map((s) => ({ ...s, outcomes: s.outcomes.map((q) => ({ query: q, ranked: search(q.query, regionFilter(corpus, q.region)) })) }));
}

/** The report of every set; with `details`, the imperfect queries of the sets tuned on only. */
export function evalSetsReport(sets: EvalSet[], details: boolean): string {
  const lines: string[] = [];
  for (const s of sets) {
    lines.push(`== ${s.name}`, ...summaryLines('overall', s.outcomes));
    if (details && s.tuned) lines.push(...detailLines(s.outcomes));
  }
  return lines.join('\n');
}
