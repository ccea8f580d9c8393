import { existsSync } from 'node:fs';
import type { QueryOutcome } from '../../src/modules/search/engine/relevance-metrics.js';
import { CHECK_QUERIES_PATH, DEV_QUERIES_PATH, loadQueries, TUNE_QUERIES_PATH, type CorpusFile } from './corpus.js';
import { detailLines, halves, runQueries, summaryLines, type SearchFn } from './relevance-run.js';

/**
 * The labelled sets every relevance report covers: the dev set's tuning and checking halves,
 * the project's tuning set and its frozen checking set (when present).
 */
export interface EvalSet {
  name: string;
  tuned: boolean;
  outcomes: QueryOutcome[];
}

export function runEvalSets(corpus: CorpusFile, search: SearchFn): EvalSet[] {
  const dev = runQueries(corpus, loadQueries(DEV_QUERIES_PATH), search);
  const { tuning, checking } = halves(dev);
  const sets: EvalSet[] = [
    { name: 'dev tuning half (odd ids)', tuned: true, outcomes: tuning },
    { name: 'dev checking half (even ids)', tuned: false, outcomes: checking },
  ];
  if (existsSync(TUNE_QUERIES_PATH)) sets.push({ name: 'own tuning set', tuned: true, outcomes: runQueries(corpus, loadQueries(TUNE_QUERIES_PATH), search) });
  if (existsSync(CHECK_QUERIES_PATH)) sets.push({ name: 'own frozen checking set', tuned: false, outcomes: runQueries(corpus, loadQueries(CHECK_QUERIES_PATH), search) });
  return sets;
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
