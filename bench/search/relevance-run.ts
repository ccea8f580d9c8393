import { evaluate, negativeNoMatchRate, scoreQuery, type LabelledQuery, type Metrics, type QueryOutcome } from '../../src/modules/search/engine/relevance-metrics.js';
import { regionFilter, type CorpusFile } from './corpus.js';

/** A search under test: query and region codes (null = all) → permit keys, best first. */
export type SearchFn = (query: string, regionIds: string[] | null) => string[];

export function runQueries(corpus: CorpusFile, queries: LabelledQuery[], search: SearchFn): QueryOutcome[] {
  return queries.map((q) => ({ query: q, ranked: search(q.query, regionFilter(corpus, q.region)) }));
}

const idNumber = (id: string) => Number(id.replace(/\D/g, ''));

/** The two halves of the query set by id parity, used to check that a change helps both. */
export function halves(outcomes: QueryOutcome[]): { odd: QueryOutcome[]; even: QueryOutcome[] } {
  return {
    odd: outcomes.filter((o) => idNumber(o.query.id) % 2 === 1),
    even: outcomes.filter((o) => idNumber(o.query.id) % 2 === 0),
  };
}

const f3 = (x: number | null) => (x == null ? '   -  ' : x.toFixed(3).padStart(6));

function row(label: string, m: Metrics, neg: number | null): string {
  return `${label.padEnd(12)} n=${String(m.queries).padStart(3)}  MRR@10 ${f3(m.mrr10)}  R@5 ${f3(m.recall5)}  nDCG@10 ${f3(m.ndcg10)}  zero ${f3(m.zeroResultRate)}  no_match(neg) ${f3(neg)}`;
}

function perType(lines: string[], title: string, outcomes: QueryOutcome[]): void {
  lines.push(title);
  for (const [type, m] of Object.entries(evaluate(outcomes).byType)) {
    lines.push(row('  ' + type, m, type === 'negative' ? negativeNoMatchRate(outcomes.filter((o) => o.query.type === type)) : null));
  }
}

/**
 * Prints overall, per-half and per-type metrics; with `byHalf`, per type within each half too;
 * with `details`, every query below a perfect score.
 */
export function report(outcomes: QueryOutcome[], details = false, byHalf = false): string {
  const lines: string[] = [];
  const { overall } = evaluate(outcomes);
  lines.push(row('overall', overall, negativeNoMatchRate(outcomes)));
  const { odd, even } = halves(outcomes);
  lines.push(row('odd ids', evaluate(odd).overall, negativeNoMatchRate(odd)));
  lines.push(row('even ids', evaluate(even).overall, negativeNoMatchRate(even)));
  perType(lines, 'per type:', outcomes);
  if (byHalf) {
    perType(lines, 'per type, odd ids:', odd);
    perType(lines, 'per type, even ids:', even);
  }
  if (details) {
    for (const o of outcomes) {
      const s = scoreQuery(o);
      const positive = o.query.relevant.length > 0;
      if (positive ? s.rr10 < 1 || s.recall5 < 1 : s.hits > 0) {
        lines.push(`${o.query.id} ${o.query.type} ${o.query.query} rr=${s.rr10.toFixed(2)} r5=${s.recall5.toFixed(2)} ndcg=${s.ndcg10.toFixed(2)} hits=${s.hits}`);
        const grades = new Map(o.query.relevant.map((r) => [r.key, r.grade]));
        lines.push('    got: ' + o.ranked.slice(0, 6).map((k) => `${k}(${grades.get(k) ?? 0})`).join(' '));
      }
    }
  }
  return lines.join('\n');
}
