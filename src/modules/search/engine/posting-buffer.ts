import { ensureCapacity } from './typed-arrays.js';

const CHUNK = 1 << 22;

/**
 * Postings of a bulk build in document order, (term, impact) per posting, in fixed-size chunks
 * so growing never copies. Turned into the term-ordered base segment once all documents are in.
 */
export class PostingBuffer {
  private readonly terms: Int32Array[] = [];
  private readonly impacts: Uint8Array[] = [];
  private size = 0;
  /** Posting count after each document. */
  private docEnds = new Uint32Array(1024);
  private docs = 0;

  push(term: number, impact: number): void {
    const c = this.size >>> 22;
    if (c === this.terms.length) {
      this.terms.push(new Int32Array(CHUNK));
      this.impacts.push(new Uint8Array(CHUNK));
    }
    const at = this.size & (CHUNK - 1);
    this.terms[c][at] = term;
    this.impacts[c][at] = impact;
    this.size++;
  }

  endDoc(): void {
    this.docEnds = ensureCapacity(this.docEnds, this.docs + 1);
    this.docEnds[this.docs++] = this.size;
  }

  /** Every posting as (term, doc, impact), documents in order. */
  forEach(f: (term: number, doc: number, impact: number) => void): void {
    let k = 0;
    for (let doc = 0; doc < this.docs; doc++) {
      for (const end = this.docEnds[doc]; k < end; k++) f(this.terms[k >>> 22][k & (CHUNK - 1)], doc, this.impacts[k >>> 22][k & (CHUNK - 1)]);
    }
  }
}
