import { FIELD_COUNT, Field } from './ranking-params.js';
import { ensureCapacity } from './typed-arrays.js';
import { normalizeText } from './normalize.js';
import { cutForSearch, cutWords } from './segmenter.js';
import { readingKeys, runReadings } from './pinyin.js';
import { emitBigrams, indexedLength, initialsKey, pinyinKey, runsOf, type BigramSink } from './terms.js';
import { coreName } from './name-forms.js';
import type { PinyinVocab } from './pinyin-vocab.js';
import type { TermDict } from './term-dict.js';
import type { SearchDoc } from './types.js';

interface Analyzed {
  ids: Int32Array;
  pinyinIds: Int32Array;
  length: number;
}

// A local copy: the per-bigram path must not read an imported binding (slow in optimised code).
const RISK_BODY = Field.RiskBody;

/** Short fields repeat across regions and imports: their analysis is memoised up to this size. */
const CACHE_LIMIT = 50_000;
/** Reading combinations kept per window of a polyphonic name. */
const MAX_KEY_COMBOS = 6;

/**
 * Turns a document into index keys per field: unigrams, bigrams and jieba search-mode words for
 * the short fields (name, themes, departments, risk titles), bigrams for the long risk texts,
 * and pinyin/initials keys for the name. Keys are interned on the way.
 */
export class DocAnalyzer {
  private readonly cache = new Map<string, Analyzed>();
  /** Key occurrences of the last analysed document, each as term id × 8 + field. */
  pairs = new Int32Array(4096);
  pairCount = 0;
  /** Field lengths (indexed characters) of the last analysed document. */
  readonly lengths = new Float64Array(FIELD_COUNT);
  private readonly bodySink: BigramSink;

  constructor(private readonly vocab: PinyinVocab, private readonly dict: TermDict) {
    this.bodySink = {
      bigram: (c1, c2) => this.emit(dict.internBigram(c1, c2), RISK_BODY),
      token: (t) => this.emit(dict.intern(t), RISK_BODY),
    };
  }

  private emit(term: number, field: Field): void {
    if (this.pairCount === this.pairs.length) this.pairs = ensureCapacity(this.pairs, this.pairCount + 1);
    this.pairs[this.pairCount++] = term * 8 + field;
  }

  /** Analyses the document into `pairs` and `lengths`, interning new keys. */
  analyze(doc: SearchDoc): void {
    const lengths = this.lengths;
    this.pairCount = 0;
    lengths.fill(0);
    const name = this.short(doc.name, true);
    for (const id of name.ids) this.emit(id, Field.Name);
    for (const id of name.pinyinIds) this.emit(id, Field.Pinyin);
    lengths[Field.Name] = lengths[Field.Pinyin] = name.length;
    if (doc.code) {
      this.emit(this.dict.intern(normalizeText(doc.code).replace(/ +/g, '')), Field.Code);
      lengths[Field.Code] = 1;
    }
    lengths[Field.Theme] = this.shortList(doc.themes.map((t) => t.name), Field.Theme);
    lengths[Field.Dept] = this.shortList(doc.approvalDepartments, Field.Dept);
    lengths[Field.RiskTitle] = this.shortList(doc.risks.map((r) => r.title), Field.RiskTitle);
    let bodyLen = 0;
    for (const r of doc.risks) {
      if (r.description) bodyLen += emitBigrams(r.description, this.bodySink);
      if (r.legalBasis) bodyLen += emitBigrams(r.legalBasis, this.bodySink);
      if (r.consequence) bodyLen += emitBigrams(r.consequence, this.bodySink);
      if (r.prevention) bodyLen += emitBigrams(r.prevention, this.bodySink);
      if (r.riskType) bodyLen += emitBigrams(r.riskType, this.bodySink);
    }
    lengths[Field.RiskBody] = bodyLen;
  }

  /** Field lengths only (into `lengths`), much cheaper than analyze for long texts. */
  measure(doc: SearchDoc): void {
    const lengths = this.lengths;
    lengths.fill(0);
    lengths[Field.Name] = lengths[Field.Pinyin] = this.short(doc.name, true).length;
    lengths[Field.Code] = doc.code ? 1 : 0;
    for (const t of doc.themes) lengths[Field.Theme] += this.short(t.name, false).length;
    for (const d of doc.approvalDepartments) lengths[Field.Dept] += this.short(d, false).length;
    for (const r of doc.risks) {
      lengths[Field.RiskTitle] += this.short(r.title, false).length;
      for (const t of [r.description, r.legalBasis, r.consequence, r.prevention, r.riskType]) if (t) lengths[Field.RiskBody] += indexedLength(t);
    }
  }

  private shortList(texts: string[], field: Field): number {
    let len = 0;
    for (const t of texts) {
      const a = this.short(t, false);
      for (const id of a.ids) this.emit(id, field);
      len += a.length;
    }
    return len;
  }

  /**
   * Unigrams, bigrams, words of 3+ characters and latin tokens. Names also get the bigrams that
   * bridge a dropped qualifier (食品(含保健食品)经营 → 品经) and pinyin keys of both forms.
   */
  private short(text: string, isName: boolean): Analyzed {
    const cacheKey = (isName ? 'n\u0000' : 't\u0000') + text;
    const hit = this.cache.get(cacheKey);
    if (hit) return hit;
    const keys: string[] = [];
    const pinyinKeys = new Set<string>();
    let length = 0;
    const runs = runsOf(normalizeText(text));
    for (const run of runs) {
      const t = run.text;
      if (!run.cjk) {
        keys.push(t);
        length++;
        continue;
      }
      length += t.length;
      for (let i = 0; i < t.length; i++) keys.push(t[i]);
      for (let i = 0; i + 1 < t.length; i++) keys.push(t.slice(i, i + 2));
      for (const w of cutForSearch(t)) if (w.length >= 3) keys.push(w);
      for (const w of cutWords(t)) this.vocab.addWord(w);
      if (isName) this.pinyinOf(t, pinyinKeys);
    }
    if (isName) {
      const core = coreName(text);
      const own = new Set(keys);
      for (let i = 0; i + 1 < core.length; i++) if (!own.has(core.slice(i, i + 2))) keys.push(core.slice(i, i + 2));
      if (runs.length > 1 && /^[\u3400-\u9fff]+$/.test(core)) this.pinyinOf(core, pinyinKeys);
    }
    const intern = (k: string) => this.dict.intern(k);
    const out = { ids: Int32Array.from(keys, intern), pinyinIds: Int32Array.from(pinyinKeys, intern), length };
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(cacheKey, out);
    return out;
  }

  /** Syllable bigrams ("~shi pin") and initials bigrams and trigrams ("^sp", "^spj") of a name run. */
  private pinyinOf(run: string, out: Set<string>): void {
    const readings = runReadings(run);
    this.vocab.addNameRun(run, readings);
    for (let i = 0; i + 1 < run.length; i++) {
      for (const k of readingKeys(readings, i, i + 2, false, ' ').slice(0, MAX_KEY_COMBOS)) out.add(pinyinKey(k));
      for (const k of readingKeys(readings, i, i + 2, true, '').slice(0, MAX_KEY_COMBOS)) out.add(initialsKey(k));
      if (i + 2 < run.length) {
        for (const k of readingKeys(readings, i, i + 3, true, '').slice(0, MAX_KEY_COMBOS)) out.add(initialsKey(k));
      }
    }
  }
}
