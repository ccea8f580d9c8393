/**
 * Relevance metrics over labelled queries (test/fixtures/corpus/queries-dev.jsonl format).
 *
 * - A positive query has at least one relevant item; relevant means grade 1 or 2.
 * - MRR@10: 1 / rank of the first relevant item in the top 10 (0 if none).
 * - Recall@5: relevant items in the top 5 / min(5, number of relevant items), so a query with
 *   many relevant permits can still score 1.
 * - nDCG@10: gain 2^grade − 1, discount log2(rank + 1), normalised by the ideal ordering.
 * - Zero-result rate: positive queries answered with no item.
 * - No-match rate: queries without any relevant item (type negative, or a region filter that
 *   leaves nothing) answered with no item.
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

export interface Metrics {
  queries: number;
  positives: number;
  mrr10: number;
  recall5: number;
  ndcg10: number;
  zeroResultRate: number;
  /** Queries without relevant items, and the share of them answered with nothing (null if none). */
  noAnswerQueries: number;
  noMatchRate: number | null;
}

export interface PerQuery {
  id: string;
  type: string;
  rr10: number;
  recall5: number;
  ndcg10: number;
  hits: number;
}

export function scoreQuery(o: QueryOutcome): PerQuery {
  const grades = new Map(o.query.relevant.map((r) => [r.key, r.grade]));
  const gradeAt = (i: number) => grades.get(o.ranked[i]) ?? 0;
  let rr10 = 0;
  for (let i = 0; i < Math.min(10, o.ranked.length); i++) {
    if (gradeAt(i) > 0) {
      rr10 = 1 / (i + 1);
      break;
    }
  }
  let inTop5 = 0;
  for (let i = 0; i < Math.min(5, o.ranked.length); i++) if (gradeAt(i) > 0) inTop5++;
  const relevantCount = o.query.relevant.filter((r) => r.grade > 0).length;
  const recall5 = relevantCount > 0 ? inTop5 / Math.min(5, relevantCount) : 0;
  const gain = (g: number) => 2 ** g - 1;
  let dcg = 0;
  for (let i = 0; i < Math.min(10, o.ranked.length); i++) dcg += gain(gradeAt(i)) / Math.log2(i + 2);
  const ideal = o.query.relevant.map((r) => r.grade).sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return { id: o.query.id, type: o.query.type, rr10, recall5, ndcg10: idcg > 0 ? dcg / idcg : 0, hits: o.ranked.length };
}

export function aggregate(outcomes: QueryOutcome[]): Metrics {
  const scored = outcomes.map((o) => ({ o, s: scoreQuery(o) }));
  const pos = scored.filter(({ o }) => o.query.relevant.some((r) => r.grade > 0));
  const none = scored.filter(({ o }) => !o.query.relevant.some((r) => r.grade > 0));
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    queries: outcomes.length,
    positives: pos.length,
    mrr10: mean(pos.map((x) => x.s.rr10)),
    recall5: mean(pos.map((x) => x.s.recall5)),
    ndcg10: mean(pos.map((x) => x.s.ndcg10)),
    zeroResultRate: mean(pos.map((x) => (x.s.hits === 0 ? 1 : 0))),
    noAnswerQueries: none.length,
    noMatchRate: none.length ? mean(none.map((x) => (x.s.hits === 0 ? 1 : 0))) : null,
  };
}

/** Overall metrics and metrics per query type. */
export function evaluate(outcomes: QueryOutcome[]): { overall: Metrics; byType: Record<string, Metrics> } {
  const byType: Record<string, Metrics> = {};
  for (const type of [...new Set(outcomes.map((o) => o.query.type))]) {
    byType[type] = aggregate(outcomes.filter((o) => o.query.type === type));
  }
  return { overall: aggregate(outcomes), byType };
}

/** The negative-query no-match rate the targets speak of: queries of type "negative" only. */
export function negativeNoMatchRate(outcomes: QueryOutcome[]): number | null {
  const neg = outcomes.filter((o) => o.query.type === 'negative');
  return neg.length ? neg.filter((o) => o.ranked.length === 0).length / neg.length : null;
}
