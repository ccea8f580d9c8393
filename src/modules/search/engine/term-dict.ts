import { KNOWLEDGE_SPACES } from './ranking-params.js';
import type { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import { ensureCapacity } from './typed-arrays.js';

/** The knowledge space of a key, by its first character. */
const KNOWLEDGE_SLOT = new Map<string, number>(KNOWLEDGE_SPACES.map((s, i) => [s.prefix, i]));

const CJK_BASE = 0x3400;
const CJK_SPAN = 0xa000 - CJK_BASE;
const EMPTY = -1;

/**
 * Interned index keys with their live document frequency and the largest impact seen. CJK
 * bigrams, by far the most frequent keys, also go through an open-addressing table keyed by
 * their two code units, so indexing long texts allocates no strings for keys already known.
 */
export class TermDict {
  private readonly ids = new Map<string, number>();
  readonly keys: string[] = [];
  df = new Int32Array(1024);
  /** Upper bound of the quantised impact of any posting of the term (never lowered). */
  maxImpact = new Uint8Array(1024);
  /** 1 once some document held the term in a field that tells what a permit is (impacts.ts; never lowered). */
  telling = new Uint8Array(1024);
  /** A text key → the ids of the same key in each knowledge space (-1 where absent). */
  private readonly knowledge = new Map<string, Int32Array>();
  private slotKeys = new Int32Array(1 << 16).fill(EMPTY);
  private slotIds = new Int32Array(1 << 16);
  private slotsUsed = 0;

  get size(): number {
    return this.keys.length;
  }

  lookup(key: string): number {
    return this.ids.get(key) ?? -1;
  }

  /** Records a posting of the term: its document frequency, largest impact and field kind. */
  count(term: number, impact: number): void {
    this.df[term]++;
    if (impact > this.maxImpact[term]) this.maxImpact[term] = impact;
    this.telling[term] |= impact & 1;
  }

  intern(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      this.df = ensureCapacity(this.df, id + 1);
      this.maxImpact = ensureCapacity(this.maxImpact, id + 1);
      this.telling = ensureCapacity(this.telling, id + 1);
      const space = KNOWLEDGE_SLOT.get(key[0]);
      if (space !== undefined) {
        const text = key.slice(1);
        let ids = this.knowledge.get(text);
        if (!ids) this.knowledge.set(text, (ids = new Int32Array(KNOWLEDGE_SPACES.length).fill(-1)));
        ids[space] = id;
      }
    }
    return id;
  }

  /** The ids of a text key in the knowledge spaces, in KNOWLEDGE_SPACES order (null when in none). */
  knowledgeIds(key: string): Int32Array | null {
    return this.knowledge.get(key) ?? null;
  }

  /** Id of the bigram of two CJK code units. */
  internBigram(c1: number, c2: number): number {
    if (c1 < CJK_BASE || c1 >= 0xa000 || c2 < CJK_BASE || c2 >= 0xa000) return this.intern(String.fromCharCode(c1, c2));
    const code = (c1 - CJK_BASE) * CJK_SPAN + (c2 - CJK_BASE);
    const mask = this.slotKeys.length - 1;
    let slot = (Math.imul(code, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const k = this.slotKeys[slot];
      if (k === code) return this.slotIds[slot];
      if (k === EMPTY) break;
      slot = (slot + 1) & mask;
    }
    const id = this.intern(String.fromCharCode(c1, c2));
    this.slotKeys[slot] = code;
    this.slotIds[slot] = id;
    if (++this.slotsUsed * 2 > this.slotKeys.length) this.growSlots();
    return id;
  }

  save(w: SnapshotWriter): void {
    w.strs(this.keys);
    w.array(this.df, this.size);
    w.array(this.maxImpact, this.size);
    w.array(this.telling, this.size);
    w.array(this.slotKeys);
    w.array(this.slotIds);
    w.int(this.slotsUsed);
  }

  static load(r: SnapshotReader): TermDict {
    const dict = new TermDict();
    for (const key of r.strs()) dict.intern(key);
    dict.df = r.array(Int32Array);
    dict.maxImpact = r.array(Uint8Array);
    dict.telling = r.array(Uint8Array);
    dict.slotKeys = r.array(Int32Array);
    dict.slotIds = r.array(Int32Array);
    dict.slotsUsed = r.int();
    const n = dict.size;
    if (dict.df.length !== n || dict.maxImpact.length !== n || dict.telling.length !== n || dict.slotKeys.length !== dict.slotIds.length) {
      throw new Error('snapshot term dictionary of inconsistent sizes');
    }
    return dict;
  }

  private growSlots(): void {
    const oldKeys = this.slotKeys;
    const oldIds = this.slotIds;
    this.slotKeys = new Int32Array(oldKeys.length * 2).fill(EMPTY);
    this.slotIds = new Int32Array(oldKeys.length * 2);
    const mask = this.slotKeys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] === EMPTY) continue;
      let slot = (Math.imul(oldKeys[i], 0x9e3779b1) >>> 0) & mask;
      while (this.slotKeys[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.slotKeys[slot] = oldKeys[i];
      this.slotIds[slot] = oldIds[i];
    }
  }
}
