/**
 * Every tunable number of analysis and ranking in one place (bench/search/README.md records what
 * each change bought on the tuning queries and what it did on the checking ones).
 */

/**
 * Indexed fields, numbered from 0 across both kinds (a field's number indexes FIELD_NAMES and the
 * per-field tables below). The permit's own text (name, code, themes, departments and their
 * nicknames, risk titles and texts, the name's pinyin) shares one key space, scored as BM25F.
 */
export const enum TextField {
  Name = 0,
  Code = 1,
  Theme = 2,
  Dept = 3,
  RiskTitle = 4,
  RiskBody = 5,
  Pinyin = 6,
  DeptAlias = 7,
}
/**
 * The knowledge fields (docs/search-knowledge.md) each have a key space of their own, so that a
 * match says what kind of evidence it is: a name people use, an activity the permit is the
 * principal one for, an activity it is also needed for, a question people ask about it.
 */
export const enum KnowledgeField {
  Alias = 8,
  Principal = 9,
  Supporting = 10,
  Question = 11,
}
export type Field = TextField | KnowledgeField;
export const FIELD_COUNT = 12;
/** Bits of the field in a (term, field) pair. */
export const FIELD_BITS = 4;
export const FIELD_NAMES = [
  'name',
  'code',
  'theme',
  'department',
  'risk_title',
  'risk_text',
  'pinyin',
  'department_alias',
  'alias',
  'activity',
  'supporting',
  'question',
] as const;

/**
 * BM25F: per-field weight and length normalisation, shared saturation k1. The knowledge fields
 * have none: a knowledge key's impact is the share of a phrase it stands for (impacts.ts).
 */
export const FIELD_WEIGHT = [10, 10, 5, 4, 2.5, 1, 8, 2, 0, 0, 0, 0];
export const FIELD_B = [0.5, 0, 0.3, 0.3, 0.5, 0.75, 0.5, 0.3, 0, 0, 0, 0];
/**
 * The field lengths BM25F normalises by: fixed, so that a permit's scores never depend on which
 * other permits were indexed before it or since (an index updated one permit at a time and one
 * rebuilt answer alike). They are typical lengths of a district catalogue (indexed characters).
 */
export const FIELD_REF_LENGTH = [16, 1, 6, 12, 90, 1100, 16, 30, 1, 1, 1, 1];

/** The key spaces: the permit's own text, and one per knowledge field (key prefix, field). */
export const KNOWLEDGE_SPACES = [
  { prefix: '=', field: KnowledgeField.Alias, evidence: 'alias' },
  { prefix: '+', field: KnowledgeField.Principal, evidence: 'activity' },
  { prefix: '-', field: KnowledgeField.Supporting, evidence: 'supporting' },
  { prefix: '?', field: KnowledgeField.Question, evidence: 'question' },
] as const;
export type Evidence = 'text' | (typeof KNOWLEDGE_SPACES)[number]['evidence'];

/** How much a match in each key space counts, next to one in the permit's own text. */
export const SPACE_WEIGHT: Record<Evidence, number> = { text: 1, alias: 1, activity: 1, supporting: 0.5, question: 0.6 };

/** Query concept weights by what the word is, and alternative weights by how it was produced. */
export const W = {
  content: 1,
  light: 0.5,
  intent: 0.15,
  stage: 0.5,
  single: 0.6,
  bridge: 0.25,
  sound: 1,
  synonym: 0.6,
  /**
   * An administrator's synonym or expansion (admin-lexicon.ts): declared to mean the word, it can
   * explain a question alone (above minStrongest), yet weighs below the word as typed.
   */
  declared: 0.9,
  correction: 0.8,
  pinyinBigram: 1,
  pinyinWord: 0.8,
  initials2: 0.6,
  initials3: 0.8,
  initialsWord: 0.8,
};

/**
 * Weights of the question's subjects in how well a hit explains it (the no_match decision). A
 * one-character word weighs as it does in the score: it is as often vague (人, 事) as specific (狗, 桥).
 */
export const EXPLAIN_WEIGHT = { content: 1, single: 0.6, light: 0.4, stage: 0.4, intent: 0, bridge: 0, sound: 0 };

/** Synonym candidates a typo correction may add per query bigram. */
export const MAX_CORRECTIONS = 4;

export const MAX_HITS = 20;

/** Scalar ranking parameters (an object so the tuning script can vary them in process). */
export const P = {
  /** BM25 saturation of the field-weighted term frequency. */
  k1: 1.2,
  /** Candidates kept by retrieval for re-ranking (concepts, name match, stage) before the cut. */
  rerankPool: 24,
  /** Final score × (coordFloor + (1 − coordFloor) × share of the question's subjects explained). */
  coordFloor: 0.5,
  /** Final score × (1 + phraseBonus × contiguous name match share). */
  phraseBonus: 0.5,
  /** Final score × (1 + stageBonus) for new applications when the question names no stage. */
  stageBonus: 0.1,
  /** … × (1 + namedStageBonus) for permits of the stage the question names (变更, 注销 …): said, it weighs more. */
  namedStageBonus: 0.2,
  /** A hit must reach this share of the best hit's score (drops weak tails). */
  relativeCutoff: 0.3,
  /** The best hit must explain the question's subjects this well on average, else no_match. */
  minExplained: 0.35,
  /** … and one of them at least this well (a match in a name, a knowledge phrase, not only a risk text). */
  minStrongest: 0.8,
  /** How much more a subject naming a public service that is not a permit here weighs (out-of-scope.txt). */
  outsideWeight: 3,
  /**
   * With a region filter, the region's best hit must score this share of the whole catalogue's
   * best, else no_match: what is asked about is a permit of other regions, not of this one.
   */
  regionRelative: 0.7,
  /** Every hit must explain the question's subjects this well on average. */
  minExplainedHit: 0.2,
  /** An impact (share of 255) at which a match counts as full evidence of its concept. */
  fullImpact: 0.8,
  /** A word matched in part (a share s of it) explains it s^partialPower. */
  partialPower: 1,
  /** A match the permit's text only mentions (its risk texts, its departments) counts this much as evidence that a concept is explained. */
  mentionQuality: 0.7,
};
