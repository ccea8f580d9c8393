import { NO_QUERY_LEXICON, type QueryLexicon } from './admin-lexicon.js';
import type { Stage } from './lexicon.js';
import type { TermOrigin } from './types.js';

/** One index key the query looks up (text, pinyin or initials), once however often it is used. */
export interface QueryTerm {
  key: string;
  /** What the debug output shows. */
  display: string;
  origin: TermOrigin;
}

/**
 * What a question word can be matched as: the word itself (whole, or as its bigrams), a synonym,
 * a homophone correction, a word its pinyin spells. Each part is a term and the share of the
 * concept it stands for (a bigram of a four-character word: a third).
 */
export interface Alternative {
  text: string;
  origin: TermOrigin;
  weight: number;
  parts: { term: number; share: number }[];
  /** Stands in for what was typed: it never counts for more than the typed word would. */
  expansion: boolean;
  /**
   * Its parts may match apart from each other (an initials run's letter windows): it scores, but
   * explains the question only as far as the ranking finds the parts together (rank.ts).
   */
  scattered?: true;
}

/**
 * - content: a word that names what is asked about; single: a one-character one (狗, 树);
 * - light: a pronoun, place or time word, numeral, adverb, particle (它, 楼下, 三年);
 * - intent: a question word or filler (我想, 怎么办, 需要什么);
 * - stage: a word telling the permit's stage (开, 变更, 到期, 丢了);
 * - bridge: a bigram straddling two words, what a tokenizer invents rather than what was said;
 * - sound: pinyin or initials typed in latin letters.
 */
export type ConceptKind = 'content' | 'single' | 'light' | 'intent' | 'stage' | 'bridge' | 'sound';

/** A unit of meaning of the question: it counts once, by its best evidence. */
export interface Concept {
  text: string;
  /** Positions [start, end) in the normalised query. */
  start: number;
  end: number;
  kind: ConceptKind;
  weight: number;
  alternatives: Alternative[];
  /** Matched in the knowledge spaces too (Chinese words and latin tokens, not pinyin keys). */
  knowledge: boolean;
  /** Names a public service that is not a permit of the catalogue (out-of-scope.txt). */
  outside?: boolean;
  /** Names an office (工商局, 派出所): the approving department's name explains it fully. */
  office?: boolean;
}

export interface QueryPlan {
  normalized: string;
  terms: QueryTerm[];
  concepts: Concept[];
  /** CJK runs of the query, for the contiguous-match bonus on names. */
  runs: string[];
  /** Pinyin syllables of the query's latin runs, and its runs read as initials (same bonus). */
  syllables: string[];
  initials: { text: string; start: number }[];
  /** The stages the question names. */
  stages: Stage[];
}

/** Builds a plan's terms (each key once) and concepts. */
export class PlanBuilder {
  readonly terms: QueryTerm[] = [];
  readonly concepts: Concept[] = [];
  private readonly byKey = new Map<string, number>();

  /** The administrators' synonyms and expansions that apply to this question. */
  constructor(readonly lexicon: QueryLexicon = NO_QUERY_LEXICON) {}

  term(key: string, display: string, origin: TermOrigin): number {
    let t = this.byKey.get(key);
    if (t === undefined) {
      t = this.terms.length;
      this.byKey.set(key, t);
      this.terms.push({ key, display, origin });
    }
    return t;
  }

  concept(c: Omit<Concept, 'alternatives'>, alternatives: Alternative[]): Concept {
    const concept = { ...c, alternatives: alternatives.filter((a) => a.parts.length > 0 && a.weight > 0) };
    if (concept.alternatives.length > 0 && concept.weight > 0) this.concepts.push(concept);
    return concept;
  }
}
