import { FIELD_B, FIELD_COUNT, FIELD_WEIGHT, P } from './ranking-params.js';
import { ensureCapacity } from './typed-arrays.js';
import type { DocAnalyzer } from './doc-analyzer.js';
import type { TermDict } from './term-dict.js';
import type { SearchDoc } from './types.js';

/**
 * Turns one document into (term, impact) pairs. Impact is the BM25F saturated term frequency
 * tf̃ / (tf̃ + k1), with tf̃ the field-weighted, length-normalised sum over fields, quantised to
 * 1..255 so a posting costs one byte. It is fixed when the posting is written, with the average
 * field lengths of that moment.
 */
export class ImpactBuilder {
  private acc = new Float64Array(1024);
  private touched = new Int32Array(1024);
  private readonly norm = new Float64Array(FIELD_COUNT);

  constructor(private readonly analyzer: DocAnalyzer, private readonly dict: TermDict) {}

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
  }

  /** Calls back once per distinct term with its quantised impact, using the given average lengths. */
  forEachImpact(avgLength: (field: number) => number, f: (term: number, impact: number) => void): void {
    const lengths = this.analyzer.lengths;
    for (let k = 0; k < FIELD_COUNT; k++) this.norm[k] = FIELD_WEIGHT[k] / (1 - FIELD_B[k] + (FIELD_B[k] * lengths[k]) / avgLength(k));
    const k1 = P.k1;
    this.reduce(this.norm, (t, tf) => f(t, Math.max(1, Math.min(255, Math.round((255 * tf) / (tf + k1))))));
  }

  /** Sums the field weights of each distinct term's occurrences (weights of 0 still count). */
  private reduce(weights: Float64Array | null, f: (term: number, tf: number) => void): void {
    const { pairs, pairCount } = this.analyzer;
    this.acc = ensureCapacity(this.acc, this.dict.size);
    this.touched = ensureCapacity(this.touched, pairCount);
    const acc = this.acc;
    const touched = this.touched;
    let n = 0;
    for (let i = 0; i < pairCount; i++) {
      const t = pairs[i] >> 3;
      if (acc[t] === 0) touched[n++] = t;
      acc[t] += weights ? weights[pairs[i] & 7] || 1e-9 : 1;
    }
    for (let i = 0; i < n; i++) {
      const t = touched[i];
      f(t, acc[t]);
      acc[t] = 0;
    }
  }
}
