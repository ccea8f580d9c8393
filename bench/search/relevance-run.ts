import { scoreQuery, summarise, type Block, type LabelledQuery, type QueryOutcome } from '../../src/modules/search/engine/relevance-metrics.js';
import { regionFilter, type CorpusFile } from './corpus.js';

/** A search under test: query and region codes (null = all) → permit keys, best first. */
export type SearchFn = (query: string, regionIds: string[] | null) => string[];

export function runQueries(corpus: CorpusFile, queries: LabelledQuery[], search: SearchFn): QueryOutcome[] {
  return queries.map((q) => ({ query: q, ranked: search(q.query, regionFilter(corpus, q.region)) }));
}

const idNumber = (id: string) => Number(id.replace(/\D/g, ''));

/**
 * The dev queries' two halves by id parity: rules, data and weights may change because of a
 * tuning-half query (odd id), never because of a checking-half one (even id).
 */
export function halves(outcomes: QueryOutcome[]): { tuning: QueryOutcome[]; checking: QueryOutcome[] } {
  return { tuning: outcomes.filter((o) => idNumber(o.query.id) % 2 === 1), checking: outcomes.filter((o) => idNumber(o.query.id) % 2 === 0) };
}

const f3 = (x: number) => (Number.isNaN(x) ? '  -  ' : x.toFixed(3));

function blockLine(label: string, b: Block): string {
  return `${label.padEnd(16)} MRR@10 ${f3(b.mrr10)}  R@5 ${f3(b.recall5)}  nDCG@10 ${f3(b.ndcg10)}  zero ${f3(b.zeroRate)}  n=${b.n}`;
}

/** Overall, no-answer and per-type figures of one set of outcomes. */
export function summaryLines(title: string, outcomes: QueryOutcome[]): string[] {
  const s = summarise(outcomes);
  const lines = [`${blockLine(title, s.overall)}  negatives no_match ${f3(s.negatives.noMatchRate)} (n=${s.negatives.n})`];
  for (const [type, b] of Object.entries(s.byType)) lines.push(blockLine('  ' + type, b));
  return lines;
}

/** Every query below a perfect score, with what came back (grades in brackets). */
export function detailLines(outcomes: QueryOutcome[]): string[] {
  const lines: string[] = [];
  for (const o of outcomes) {
    const s = scoreQuery(o.query, o.ranked);
    const imperfect = s.negative ? !s.noMatch : s.rr < 1 || s.recall5 < 1;
    if (!imperfect) continue;
    const grades = new Map(o.query.relevant.map((r) => [r.key, r.grade]));
    const figures = s.negative ? 'negative answered' : `rr=${s.rr.toFixed(2)} r5=${s.recall5.toFixed(2)} ndcg=${s.ndcg.toFixed(2)}`;
    lines.push(`${o.query.id} ${o.query.type} ${o.query.query} ${figures} hits=${o.ranked.length}`);
    lines.push(
      '    got: ' +
        o.ranked
          .slice(0, 6)
          .map((k) => `${k}(${grades.get(k) ?? 0})`)
          .join(' '),
    );
  }
  return lines;
}

/**
 * The report of one query set: with `split`, the dev set's tuning and checking halves each; with
 * `details`, every query below a perfect score.
 */
export function report(outcomes: QueryOutcome[], opts: { split?: boolean; details?: boolean; title?: string } = {}): string {
  const lines: string[] = [];
  if (opts.split) {
    const { tuning, checking } = halves(outcomes);
    lines.push(...summaryLines('tuning half', tuning), ...summaryLines('checking half', checking));
  } else {
    lines.push(...summaryLines(opts.title ?? 'all', outcomes));
  }
  if (opts.details) lines.push(...detailLines(outcomes));
  return lines.join('\n');
}
