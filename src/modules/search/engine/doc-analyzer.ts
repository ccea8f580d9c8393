import { FIELD_BITS, FIELD_COUNT, KNOWLEDGE_SPACES, TextField, type Field } from './ranking-params.js';
import { ensureCapacity } from './typed-arrays.js';
import { normalizeText } from './normalize.js';
import { cutForSearch, cutWords } from './segmenter.js';
import { readingKeys, runReadings } from './pinyin.js';
import { emitBigrams, initialsKey, pinyinKey, runsOf, type BigramSink } from './terms.js';
import { coreName } from './name-forms.js';
import { negations, overlapsNegation } from './negation.js';
import { departmentNicknames, permitPhrases, phraseKeys } from './permit-knowledge.js';
import type { PinyinVocab } from './pinyin-vocab.js';
import type { TermDict } from './term-dict.js';
import type { SearchDoc } from './types.js';

interface Analyzed {
  ids: Int32Array;
  pinyinIds: Int32Array;
  length: number;
}

/** The keys of one run of CJK characters; its pinyin keys only once it has been part of a name. */
interface RunKeys {
  keys: string[];
  pinyin: string[] | null;
}

/** A long text's key occurrences (term id and field, as in `pairs`) and its field length. */
interface BodyKeys {
  pairs: Int32Array;
  length: number;
}

// A local copy: the per-bigram path must not read an imported binding (slow in optimised code).
const RISK_BODY = TextField.RiskBody;
const BITS = FIELD_BITS;

/** Short fields repeat across regions and imports: their analysis is memoised up to this size. */
const CACHE_LIMIT = 50_000;
/** Most key occurrences the long-text memo holds (4 bytes each) before it starts over. */
const BODY_CACHE_PAIRS = 4_000_000;
/** Reading combinations kept per window of a polyphonic name. */
const MAX_KEY_COMBOS = 6;

/** A permit's knowledge keys in one key space, with the share of a phrase each stands for (best of its phrases). */
export interface KnowledgeKeys {
  ids: Int32Array;
  cover: Float32Array;
}

/**
 * Turns a document into index keys per field: unigrams, bigrams and jieba search-mode words for
 * the short fields (name, themes, departments and their nicknames, risk titles), bigrams for the
 * long risk texts, pinyin/initials keys for the name, and the knowledge phrases of the permit
 * (docs/search-knowledge.md) in their own key spaces. Keys are interned on the way.
 */
export class DocAnalyzer {
  private readonly cache = new Map<string, Analyzed>();
  /**
   * Runs recur far more than whole texts (the 食品经营许可 of 食品经营许可（新办）and （变更）),
   * and segmenting and reading them is most of a name's cost.
   */
  private readonly runCache = new Map<string, RunKeys>();
  /** Knowledge keys per key space of a permit name (names repeat across regions). */
  private readonly knowledgeCache = new Map<string, KnowledgeKeys[]>();
  /**
   * Risk texts recur across permits and regions (the same statute, consequence and advice: a
   * catalogue holds each text about four times on average), so an import's index update memoises
   * their keys. A bulk build does not: over a large catalogue of mostly distinct texts, keeping
   * them costs more than it saves, and a build is not on any request's path.
   */
  private readonly bodyCache = new Map<string, BodyKeys>();
  private bodyCachePairs = 0;
  memoiseBodies = true;
  /** Key occurrences of the last analysed document, each as term id << FIELD_BITS | field. */
  pairs = new Int32Array(4096);
  pairCount = 0;
  /** Field lengths (indexed characters) of the last analysed document. */
  readonly lengths = new Float64Array(FIELD_COUNT);
  /** Knowledge keys of the last analysed document, one list per knowledge space (not in `pairs`). */
  knowledgeKeys: KnowledgeKeys[] = [];
  /** The administrators' aliases of a permit (admin-lexicon.ts), indexed with its bundled 俗称. */
  aliasesOf: (doc: SearchDoc) => string[] = () => [];
  private readonly bodySink: BigramSink;

  constructor(
    private readonly vocab: PinyinVocab,
    private readonly dict: TermDict,
  ) {
    this.bodySink = { bigram: (c1, c2) => this.emit(dict.internBigram(c1, c2), RISK_BODY), token: (t) => this.emit(dict.intern(t), RISK_BODY) };
  }

  private emit(term: number, field: Field): void {
    if (this.pairCount === this.pairs.length) this.pairs = ensureCapacity(this.pairs, this.pairCount + 1);
    this.pairs[this.pairCount++] = (term << BITS) | field;
  }

  /** Analyses the document into `pairs` and `lengths`, interning new keys. */
  analyze(doc: SearchDoc): void {
    const lengths = this.lengths;
    this.pairCount = 0;
    lengths.fill(0);
    const name = this.short(doc.name, true);
    for (const id of name.ids) this.emit(id, TextField.Name);
    for (const id of name.pinyinIds) this.emit(id, TextField.Pinyin);
    lengths[TextField.Name] = lengths[TextField.Pinyin] = name.length;
    if (doc.code) {
      this.emit(this.dict.intern(normalizeText(doc.code).replace(/ +/g, '')), TextField.Code);
      lengths[TextField.Code] = 1;
    }
    lengths[TextField.Theme] = this.shortList(
      doc.themes.map((t) => t.name),
      TextField.Theme,
    );
    lengths[TextField.Dept] = this.shortList(doc.approvalDepartments, TextField.Dept);
    lengths[TextField.DeptAlias] = this.shortList(doc.approvalDepartments.flatMap(departmentNicknames), TextField.DeptAlias);
    lengths[TextField.RiskTitle] = this.shortList(
      doc.risks.map((r) => r.title),
      TextField.RiskTitle,
    );
    let bodyLen = 0;
    for (const r of doc.risks) {
      if (r.description) bodyLen += this.body(r.description);
      if (r.legalBasis) bodyLen += this.body(r.legalBasis);
      if (r.consequence) bodyLen += this.body(r.consequence);
      if (r.prevention) bodyLen += this.body(r.prevention);
      if (r.riskType) bodyLen += this.body(r.riskType);
    }
    lengths[TextField.RiskBody] = bodyLen;
    this.knowledgeKeys = this.knowledge(doc.name, this.aliasesOf(doc));
  }

  /** Emits the bigrams and tokens of a long risk text (memoised); answers its field length. */
  private body(text: string): number {
    if (!this.memoiseBodies) return emitBigrams(text, this.bodySink);
    const hit = this.bodyCache.get(text);
    if (hit) {
      if (this.pairCount + hit.pairs.length > this.pairs.length) this.pairs = ensureCapacity(this.pairs, this.pairCount + hit.pairs.length);
      this.pairs.set(hit.pairs, this.pairCount);
      this.pairCount += hit.pairs.length;
      return hit.length;
    }
    const start = this.pairCount;
    const length = emitBigrams(text, this.bodySink);
    if (this.bodyCachePairs + this.pairCount - start > BODY_CACHE_PAIRS) {
      this.bodyCache.clear();
      this.bodyCachePairs = 0;
    }
    this.bodyCache.set(text, { pairs: this.pairs.slice(start, this.pairCount), length });
    this.bodyCachePairs += this.pairCount - start;
    return length;
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

  /** The knowledge phrases of a permit name as keys, one list per knowledge space (each key once). */
  private knowledge(name: string, aliases: string[]): KnowledgeKeys[] {
    const cacheKey = aliases.length === 0 ? name : [name, ...aliases].join('\u0000');
    const hit = this.knowledgeCache.get(cacheKey);
    if (hit) return hit;
    const bundled = permitPhrases(name);
    const phrases = aliases.length === 0 ? bundled : { ...bundled, alias: [...new Set([...bundled.alias, ...aliases])] };
    const relations = ['alias', 'principal', 'supporting', 'question'] as const;
    const out = KNOWLEDGE_SPACES.map((space, i) => {
      const cover = new Map<string, number>();
      for (const p of phrases[relations[i]]) for (const [k, c] of phraseKeys(p)) cover.set(space.prefix + k, Math.max(cover.get(space.prefix + k) ?? 0, c));
      return { ids: Int32Array.from(cover.keys(), (k) => this.dict.intern(k)), cover: Float32Array.from(cover.values()) };
    });
    if (this.knowledgeCache.size >= CACHE_LIMIT) this.knowledgeCache.clear();
    this.knowledgeCache.set(cacheKey, out);
    return out;
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
      const analysed = this.runKeys(t);
      for (const k of analysed.keys) keys.push(k);
      if (isName) for (const k of this.runPinyin(t, analysed)) pinyinKeys.add(k);
    }
    if (isName) {
      const core = coreName(text);
      const own = new Set(keys);
      const masked = negations(core);
      for (let i = 0; i + 1 < core.length; i++) if (!own.has(core.slice(i, i + 2)) && !overlapsNegation(masked, i, i + 2)) keys.push(core.slice(i, i + 2));
      if (runs.length > 1 && /^[\u3400-\u9fff]+$/.test(core)) for (const k of this.runPinyin(core, null)) pinyinKeys.add(k);
    }
    const intern = (k: string) => this.dict.intern(k);
    const out = { ids: Int32Array.from(keys, intern), pinyinIds: Int32Array.from(pinyinKeys, intern), length };
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(cacheKey, out);
    return out;
  }

  /**
   * Unigrams, bigrams and search-mode words of 3+ characters of a CJK run; a negated word
   * (negation.ts) gives its compound instead of its own keys. The run's words join the pinyin
   * vocabulary.
   */
  private runKeys(run: string): RunKeys {
    const hit = this.runCache.get(run);
    if (hit) return hit;
    const keys: string[] = [];
    const masked = negations(run);
    for (const n of masked) keys.push(n.compound);
    for (let i = 0; i < run.length; i++) if (!overlapsNegation(masked, i, i + 1)) keys.push(run[i]);
    for (let i = 0; i + 1 < run.length; i++) if (!overlapsNegation(masked, i, i + 2)) keys.push(run.slice(i, i + 2));
    for (const w of cutForSearch(run)) if (w.length >= 3) keys.push(w);
    for (const w of cutWords(run)) this.vocab.addWord(w);
    const out = { keys, pinyin: null };
    if (this.runCache.size >= CACHE_LIMIT) this.runCache.clear();
    this.runCache.set(run, out);
    return out;
  }

  /**
   * Syllable bigrams ("~shi pin") and initials bigrams and trigrams ("^sp", "^spj") of a name
   * run, kept with its run keys (when given) once computed; the run's bigrams join the vocabulary.
   */
  private runPinyin(run: string, analysed: RunKeys | null): string[] {
    if (analysed?.pinyin) return analysed.pinyin;
    const readings = runReadings(run);
    this.vocab.addNameRun(run, readings);
    const out = new Set<string>();
    for (let i = 0; i + 1 < run.length; i++) {
      for (const k of readingKeys(readings, i, i + 2, false, ' ').slice(0, MAX_KEY_COMBOS)) out.add(pinyinKey(k));
      for (const k of readingKeys(readings, i, i + 2, true, '').slice(0, MAX_KEY_COMBOS)) out.add(initialsKey(k));
      if (i + 2 < run.length) {
        for (const k of readingKeys(readings, i, i + 3, true, '').slice(0, MAX_KEY_COMBOS)) out.add(initialsKey(k));
      }
    }
    const keys = [...out];
    if (analysed) analysed.pinyin = keys;
    return keys;
  }
}
