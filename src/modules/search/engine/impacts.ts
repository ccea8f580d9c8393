import { FIELD_B, FIELD_BITS, FIELD_COUNT, FIELD_REF_LENGTH, FIELD_WEIGHT, KNOWLEDGE_SPACES, P, TextField } from './ranking-params.js';
import { ensureCapacity } from './typed-arrays.js';
import type { DocAnalyzer } from './doc-analyzer.js';
import type { TermDict } from './term-dict.js';
import type { SearchDoc } from './types.js';

/**
 * Each field's weight over its length normalisation. Lengths are normalised by fixed reference
 * lengths, so a document's impacts depend on the document alone: an index updated one permit at
 * a time scores exactly as one rebuilt from scratch.
 */
export function fieldNorms(lengths: Float64Array, out = new Float64Array(FIELD_COUNT)): Float64Array {
  for (let k = 0; k < FIELD_COUNT; k++) out[k] = FIELD_WEIGHT[k] / (1 - FIELD_B[k] + (FIELD_B[k] * lengths[k]) / FIELD_REF_LENGTH[k]);
  return out;
}

const FIELD_MASK = (1 << FIELD_BITS) - 1;

/**
 * Fields whose match tells what the permit is (`isTelling`): its name, code, themes, risk
 * titles and knowledge. A word found only in the long risk texts, or in the name of the approving
 * department, is mentioned by the permit rather than what it is about.
 */
const TELLING = new Uint8Array(FIELD_COUNT);
for (const f of [TextField.Name, TextField.Code, TextField.Theme, TextField.RiskTitle, TextField.Pinyin]) TELLING[f] = 1;
for (const { field } of KNOWLEDGE_SPACES) TELLING[field] = 1;

/**
 * Turns one document into (term, impact) pairs. Impact is the BM25F saturated term frequency
 * tf̃ / (tf̃ + k1), with tf̃ the field-weighted, length-normalised sum over fields, quantised to
 * 1..255 so a posting costs one byte.
 */
export class ImpactBuilder {
  private acc = new Float64Array(1024);
  private strong = new Uint8Array(1024);
  private touched = new Int32Array(1024);
  private readonly norm = new Float64Array(FIELD_COUNT);

  constructor(
    private readonly analyzer: DocAnalyzer,
    private readonly dict: TermDict,
  ) {}

  /** Field lengths of the last collected document. */
  get lengths(): Float64Array {
    return this.analyzer.lengths;
  }

  /** Analyses the document, interning its keys. */
  collect(doc: SearchDoc): void {
    this.analyzer.analyze(doc);
  }

  /** Calls back once per distinct term of the last collected document (df bookkeeping). */
  forEachTerm(f: (term: number) => void): void {
    this.reduce(null, (t) => f(t));
    for (const k of this.analyzer.knowledgeKeys) for (const id of k.ids) f(id);
  }

  /**
   * Calls back once per distinct term of the last collected document with its impact: the
   * saturated frequency in the upper seven bits, and in the lowest bit whether the term occurs in
   * a field that tells what the permit is (`isTelling`), which says how telling
   * the match is when deciding whether a question is answered.
   */
  forEachImpact(f: (term: number, impact: number) => void): void {
    fieldNorms(this.analyzer.lengths, this.norm);
    const k1 = P.k1;
    this.reduce(this.norm, (t, tf, strong) => f(t, (Math.max(1, Math.min(127, Math.round((127 * tf) / (tf + k1)))) << 1) | strong));
    // A knowledge key's impact is the share of a phrase it stands for: 奶茶店 matches the phrase
    // 奶茶店 fully, 奶茶 two thirds of it.
    for (const k of this.analyzer.knowledgeKeys) k.ids.forEach((id, i) => f(id, (Math.max(1, Math.round(127 * k.cover[i])) << 1) | 1));
  }

  /** Sums the field weights of each distinct term's occurrences (weights of 0 still count). */
  private reduce(weights: Float64Array | null, f: (term: number, tf: number, strong: number) => void): void {
    const { pairs, pairCount } = this.analyzer;
    this.acc = ensureCapacity(this.acc, this.dict.size);
    this.strong = ensureCapacity(this.strong, this.dict.size);
    this.touched = ensureCapacity(this.touched, pairCount);
    const { acc, strong, touched } = this;
    let n = 0;
    for (let i = 0; i < pairCount; i++) {
      const t = pairs[i] >> FIELD_BITS;
      const field = pairs[i] & FIELD_MASK;
      if (acc[t] === 0) touched[n++] = t;
      acc[t] += weights ? weights[field] || 1e-9 : 1;
      if (TELLING[field]) strong[t] = 1;
    }
    for (let i = 0; i < n; i++) {
      const t = touched[i];
      f(t, acc[t], strong[t]);
      acc[t] = 0;
      strong[t] = 0;
    }
  }
}

/** Whether an impact's term occurs in a field that tells what the permit is (TELLING). */
export function isTelling(impact: number): boolean {
  return (impact & 1) === 1;
}
