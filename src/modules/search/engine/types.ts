import type { RiskTexts } from '../../permits/risk.schema.js';
import type { AdminLexicon } from './admin-lexicon.js';

/** One risk of a permit as the search engine sees it. */
export interface SearchRisk extends RiskTexts {
  id: string;
}

/** One permit in one region: the unit the engine indexes and returns. */
export interface SearchDoc {
  permitId: string;
  regionId: string;
  regionName: string;
  name: string;
  code: string | null;
  implementationLevel: string | null;
  approvalDepartments: string[];
  internalContact: string | null;
  contactInfo: string | null;
  themes: { id: string; name: string }[];
  visible: boolean;
  risks: SearchRisk[];
}

export interface SearchOptions {
  /** null/undefined = all regions; [] = nothing can match. */
  regionIds?: string[] | null;
  debug?: boolean;
  /** At most 20. */
  limit?: number;
  /**
   * The administrators' synonyms, expansions and curation to answer with instead of the index's
   * own (a preview of a change); its aliases are not applied: they are indexed.
   */
  lexicon?: AdminLexicon;
}

export interface SearchHit {
  doc: SearchDoc;
  score: number;
  /** Query terms that hit, as substrings of the document's original text (for highlighting). */
  matched: string[];
  /** Score per field (debug only). */
  breakdown?: Record<string, number>;
  /** Why the permit ranks where it does (debug only). */
  explain?: HitExplain;
}

/** How a question word was produced or matched (shown by the debug output). */
export const TERM_ORIGINS = ['word', 'bigram', 'unigram', 'synonym', 'pinyin', 'initials', 'correction'] as const;
export type TermOrigin = (typeof TERM_ORIGINS)[number];

/** One concept of the question as a hit matched it: the alternative and the key space. */
export interface ConceptEvidence {
  concept: string;
  matchedAs: string;
  origin: TermOrigin;
  /** text (the permit's own text), alias, activity, supporting or question. */
  evidence: string;
  score: number;
}

export interface HitExplain {
  /** How well the permit explains the question's subjects (mean quality 0..1), and the best explained one. */
  explained: number;
  strongest: number;
  nameShare: number;
  stageMatch: boolean;
  concepts: ConceptEvidence[];
}

export interface SearchDebug {
  normalizedQuery: string;
  terms: { term: string; origin: TermOrigin; weight: number }[];
  /** The question's concepts: each word with its kind, weight and what it may be matched as. */
  concepts: { text: string; kind: string; weight: number; alternatives: { text: string; origin: TermOrigin; weight: number }[] }[];
  /** Why the answer is empty (no_match), or null. */
  noMatch: string | null;
  /** The words the answer must explain, and how well the best-scoring candidate explains each (0..1). */
  subjects: { text: string; explained: number }[];
  /** Candidates that did not make the answer, best first (at most ten), with why. */
  cut: { permitId: string; name: string; reason: string; score: number; explained: number }[];
  timingsUs: { analyze: number; retrieve: number; rank: number; total: number };
}

export interface SearchResult {
  hits: SearchHit[];
  debug?: SearchDebug;
}

/** Why the answer is empty, or why a candidate did not make it. */
export const CUT_REASONS = ['nothing', 'unexplained', 'elsewhere', 'relative', 'hit_unexplained'] as const;
export type CutReason = (typeof CUT_REASONS)[number];

export const WHY_NOT_VERDICTS = [
  'unknown',
  'hidden',
  'region',
  'curated_out',
  'no_terms',
  'pinned',
  'found',
  'no_answer',
  'cut',
  'below_limit',
  'not_retrieved',
] as const;

/**
 * Why a permit is or is not in the answer to a question. `verdict`: unknown (no such permit in
 * the index), hidden (not searchable), region (outside the region filter), curated_out (an
 * administrator's curation hides it from this question), no_terms (no word of the question in
 * its text or knowledge), pinned (put at `rank` by curation), found (in the answer, at `rank`), no_answer (the whole
 * question is answered with nothing, for `reason`), cut (scored but cut, for `reason`),
 * below_limit (after the answer's last hit), not_retrieved (not among the candidates retrieval
 * keeps for ranking, by the score before the explanation, name and stage factors). With a score: the permit's own score and explanation, the best hit's score, its
 * score per field and what matched each concept.
 */
export interface WhyNot {
  verdict: (typeof WHY_NOT_VERDICTS)[number];
  rank: number | null;
  reason: CutReason | null;
  score: number | null;
  explained: number | null;
  bestScore: number | null;
  breakdown: Record<string, number>;
  concepts: ConceptEvidence[];
}
