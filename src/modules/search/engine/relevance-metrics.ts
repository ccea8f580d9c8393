/**
 * Relevance metrics over graded labels (test/fixtures/corpus/queries-*.jsonl), exactly as the
 * project is judged (relevance-metrics.test.ts compares them with the reference definition when
 * it is present):
 *
 * - A query with no relevant item is a *no-answer* query (type negative, or a region filter that
 *   leaves nothing); it scores only whether it was answered with no item (`no_match`).
 * - MRR@10: 1 / rank of the first item of grade ≥ 1 in the top 10.
 * - Recall@5: of the query's grade-2 items (all its items when it has none), the share found in
 *   the top 5, over min(5, their number).
 * - nDCG@10: gain 2^grade − 1, discount log2(rank + 1), normalised by the ideal order.
 * - Zero-result rate: positive queries answered with no item.
 */
export interface LabelledQuery {
  id: string;
  type: string;
  query: string;
  region: string | string[] | null;
  relevant: { key: string; grade: number }[];
}

export interface QueryOutcome {
  query: LabelledQuery;
  /** Keys of the returned items, best first. */
  ranked: string[];
}

export type QueryScore = { negative: true; noMatch: boolean } | { negative: false; rr: number; recall5: number; ndcg: number; zero: boolean };

export function scoreQuery(q: LabelledQuery, ranked: string[]): QueryScore {
  const grade = new Map(q.relevant.map((r) => [r.key, r.grade]));
  const top10 = ranked.slice(0, 10);
  if (q.relevant.length === 0) return { negative: true, noMatch: ranked.length === 0 };
  let rr = 0;
  for (let i = 0; i < top10.length; i++) {
    if ((grade.get(top10[i]) ?? 0) >= 1) {
      rr = 1 / (i + 1);
      break;
    }
  }
  const perfect = q.relevant.filter((r) => r.grade >= 2).map((r) => r.key);
  const target = perfect.length ? perfect : q.relevant.map((r) => r.key);
  const top5 = new Set(ranked.slice(0, 5));
  const recall5 = target.filter((k) => top5.has(k)).length / Math.min(5, target.length);
  const gain = (g: number) => 2 ** g - 1;
  let dcg = 0;
  top10.forEach((k, i) => (dcg += gain(grade.get(k) ?? 0) / Math.log2(i + 2)));
  const ideal = q.relevant
    .map((r) => r.grade)
    .sort((a, b) => b - a)
    .slice(0, 10);
  let idcg = 0;
  ideal.forEach((g, i) => (idcg += gain(g) / Math.log2(i + 2)));
  return { negative: false, rr, recall5, ndcg: idcg ? dcg / idcg : 0, zero: ranked.length === 0 };
}

export interface Block {
  n: number;
  mrr10: number;
  recall5: number;
  ndcg10: number;
  zeroRate: number;
}

export interface Summary {
  overall: Block;
  negatives: { n: number; noMatchRate: number };
  byType: Record<string, Block>;
}

const avg = <T>(xs: T[], f: (x: T) => number) => (xs.length ? xs.reduce((a, x) => a + f(x), 0) / xs.length : NaN);

/** Averages over the positive queries (overall and per type) and the no-match rate of the no-answer ones. */
export function summarise(outcomes: QueryOutcome[]): Summary {
  const rows = outcomes.map((o) => ({ q: o.query, s: scoreQuery(o.query, o.ranked) }));
  const pos = rows.flatMap((r) => (r.s.negative ? [] : [{ q: r.q, s: r.s }]));
  const neg = rows.flatMap((r) => (r.s.negative ? [r.s] : []));
  const block = (xs: typeof pos): Block => ({
    n: xs.length,
    mrr10: avg(xs, (r) => r.s.rr),
    recall5: avg(xs, (r) => r.s.recall5),
    ndcg10: avg(xs, (r) => r.s.ndcg),
    zeroRate: avg(xs, (r) => (r.s.zero ? 1 : 0)),
  });
  const byType: Record<string, Block> = {};
  for (const t of [...new Set(pos.map((r) => r.q.type))].sort()) byType[t] = block(pos.filter((r) => r.q.type === t));
  return { overall: block(pos), negatives: { n: neg.length, noMatchRate: avg(neg, (s) => (s.noMatch ? 1 : 0)) }, byType };
}
