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
  private pairs = new Int32Array(4096);
  private pairCount = 0;
  private acc = new Float64Array(1024);
  private touched = new Int32Array(1024);
  readonly lengths = new Float64Array(FIELD_COUNT);
  private readonly norm = new Float64Array(FIELD_COUNT);

  constructor(private readonly analyzer: DocAnalyzer, private readonly dict: TermDict) {}

  /** Analyses the document, interning its keys; fills `lengths`. Returns the pair count. */
  collect(doc: SearchDoc): number {
    this.pairCount = 0;
    this.analyzer.analyze(doc, (key, field) => {
      this.pairs = ensureCapacity(this.pairs, this.pairCount + 1);
      this.pairs[this.pairCount++] = this.dict.intern(key) * 8 + field;
    }, this.lengths);
    return this.pairCount;
  }

  /** Calls back once per distinct term of the last collected document (df bookkeeping). */
  forEachTerm(f: (term: number) => void): void {
    this.reduce(() => 0, (t) => f(t));
  }

  /** Calls back once per distinct term with its quantised impact, using the given average lengths. */
  forEachImpact(avgLength: (field: number) => number, f: (term: number, impact: number) => void): void {
    for (let k = 0; k < FIELD_COUNT; k++) this.norm[k] = 1 - FIELD_B[k] + (FIELD_B[k] * this.lengths[k]) / avgLength(k);
    this.reduce(
      (field) => FIELD_WEIGHT[field] / this.norm[field],
      (t, tf) => f(t, Math.max(1, Math.min(255, Math.round((255 * tf) / (tf + P.k1))))),
    );
  }

  private reduce(weightOf: (field: number) => number, f: (term: number, tf: number) => void): void {
    const size = this.dict.size;
    this.acc = ensureCapacity(this.acc, size);
    this.touched = ensureCapacity(this.touched, this.pairCount);
    let n = 0;
    for (let i = 0; i < this.pairCount; i++) {
      const t = this.pairs[i] >> 3;
      if (this.acc[t] === 0) this.touched[n++] = t;
      this.acc[t] += weightOf(this.pairs[i] & 7) || 1e-9;
    }
    for (let i = 0; i < n; i++) {
      const t = this.touched[i];
      f(t, this.acc[t]);
      this.acc[t] = 0;
    }
  }
}
