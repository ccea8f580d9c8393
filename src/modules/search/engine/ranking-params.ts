/**
 * Every tunable number of analysis and ranking in one place (the relevance log in
 * bench/search/README.md records what each change bought on the dev queries).
 */

/** Indexed fields. Pinyin holds the permit name's pinyin and initials keys. */
export const enum Field {
  Name = 0,
  Code = 1,
  Theme = 2,
  Dept = 3,
  RiskTitle = 4,
  RiskBody = 5,
  Pinyin = 6,
}
export const FIELD_COUNT = 7;
export const FIELD_NAMES = ['name', 'code', 'theme', 'department', 'risk_title', 'risk_text', 'pinyin'] as const;

/** BM25F: per-field weight and length normalisation, shared saturation k1. */
export const FIELD_WEIGHT = [10, 10, 5, 4, 2.5, 1, 8];
export const FIELD_B = [0.5, 0, 0.3, 0.3, 0.5, 0.75, 0.5];


/** Query-term weights by how the term was produced. */
export const W = {
  intentChar: 0.15,
  lightWord: 0.5,
  word: 0.5,
  unigram: 0.35,
  loneUnigram: 1,
  synonym: 0.6,
  correction: 0.8,
  pinyinBigram: 1,
  pinyinWord: 0.8,
  initials2: 0.6,
  initials3: 0.8,
  initialsWord: 0.8,
};

/** Synonym candidates a typo correction may add per query bigram. */
export const MAX_CORRECTIONS = 4;

export const MAX_HITS = 20;

/** Scalar ranking parameters (an object so the tuning script can vary them in process). */
export const P = {
  /** BM25 saturation of the field-weighted term frequency. */
  k1: 1.2,
  /** Candidates kept by retrieval for re-ranking (name-match bonus, coverage) before the cut. */
  rerankPool: 40,
  /** Final score = BM25F × (1 + phraseBonus × contiguous name match share). */
  phraseBonus: 0.5,
  /** A hit must reach this share of the best hit's score (drops weak tails). */
  relativeCutoff: 0.3,
  /** A hit must cover this share of the query's meaningful characters (rejects nonsense). */
  minCoverage: 0.4,
};
