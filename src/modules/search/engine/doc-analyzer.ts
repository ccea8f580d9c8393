import { Field } from './ranking-params.js';
import { normalizeText } from './normalize.js';
import { cutForSearch, cutWords } from './segmenter.js';
import { readingKeys, runReadings } from './pinyin.js';
import { emitBigrams, initialsKey, pinyinKey, runsOf } from './terms.js';
import { coreName } from './name-forms.js';
import type { PinyinVocab } from './pinyin-vocab.js';
import type { SearchDoc } from './types.js';

export type Emit = (key: string, field: Field) => void;

interface Analyzed {
  keys: string[];
  pinyinKeys: string[];
  length: number;
}

/** Short fields repeat across regions and imports: their analysis is memoised up to this size. */
const CACHE_LIMIT = 50_000;
/** Reading combinations kept per window of a polyphonic name. */
const MAX_KEY_COMBOS = 6;

/**
 * Turns a document into index keys per field: unigrams, bigrams and jieba search-mode words for
 * the short fields (name, themes, departments, risk titles), bigrams for the long risk texts,
 * and pinyin/initials keys for the name.
 */
export class DocAnalyzer {
  private readonly cache = new Map<string, Analyzed>();

  constructor(private readonly vocab: PinyinVocab) {}

  analyze(doc: SearchDoc, emit: Emit, lengths: Float64Array): void {
    lengths.fill(0);
    const name = this.short(doc.name, true);
    for (const k of name.keys) emit(k, Field.Name);
    for (const k of name.pinyinKeys) emit(k, Field.Pinyin);
    lengths[Field.Name] = lengths[Field.Pinyin] = name.length;
    if (doc.code) {
      emit(normalizeText(doc.code).replace(/ +/g, ''), Field.Code);
      lengths[Field.Code] = 1;
    }
    lengths[Field.Theme] = this.shortList(doc.themes.map((t) => t.name), Field.Theme, emit);
    lengths[Field.Dept] = this.shortList(doc.approvalDepartments, Field.Dept, emit);
    lengths[Field.RiskTitle] = this.shortList(doc.risks.map((r) => r.title), Field.RiskTitle, emit);
    const body = (k: string) => emit(k, Field.RiskBody);
    let bodyLen = 0;
    for (const r of doc.risks) {
      for (const text of [r.description, r.legalBasis, r.consequence, r.prevention, r.riskType]) {
        if (text) bodyLen += emitBigrams(text, body);
      }
    }
    lengths[Field.RiskBody] = bodyLen;
  }

  private shortList(texts: string[], field: Field, emit: Emit): number {
    let len = 0;
    for (const t of texts) {
      const a = this.short(t, false);
      for (const k of a.keys) emit(k, field);
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
    const out = { keys, pinyinKeys: [...pinyinKeys], length };
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
