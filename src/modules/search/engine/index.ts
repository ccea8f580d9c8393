import { AdminLexicon, NO_QUERY_LEXICON, type Curation, type LexiconRules } from './admin-lexicon.js';
import { ConceptScorer, knowledgeTerms, SPACE_COUNT, SPACES, type SpaceTerm } from './concept-score.js';
import { DocAnalyzer } from './doc-analyzer.js';
import { DocTable, stableOrder, writeDocs } from './doc-table.js';
import { explainHit, planDebug } from './explain.js';
import { matchedSubstrings } from './highlight.js';
import { ImpactBuilder } from './impacts.js';
import { knowledgeKeySet } from './permit-knowledge.js';
import { PinyinVocab } from './pinyin-vocab.js';
import { PostingBuffer } from './posting-buffer.js';
import { Postings } from './postings.js';
import { analyzeQuery } from './query-analyzer.js';
import { rankCandidates, scoreCandidates, withinRegion, type Ranked, type RankOutcome } from './rank.js';
import { KNOWLEDGE_SPACES, MAX_HITS, P } from './ranking-params.js';
import { retrieveTopK, Scratch, type Candidate, type ScoredList } from './retrieve.js';
import type { QueryPlan } from './query-terms.js';
import { NO_PAUSE, type Pause, type SnapshotReader, type SnapshotWriter } from './snapshot-codec.js';
import { TermDict } from './term-dict.js';
import { isSoundKey } from './terms.js';
import type { SearchDoc, SearchHit, SearchOptions, SearchResult, WhyNot } from './types.js';

export type { SearchDoc, SearchHit, SearchOptions, SearchResult, SearchDebug, SearchRisk } from './types.js';

interface IndexParts {
  dict: TermDict;
  postings: Postings;
  table: DocTable;
  vocab: PinyinVocab;
  lexicon: AdminLexicon;
}

const micros = (from: number): number => Math.round((performance.now() - from) * 1000);

/** Candidates whose retrieval score is under this share of the best are not re-ranked. */
const RETRIEVAL_RELATIVE = 0.15;

/**
 * In-memory search index over permit documents. Mutations are synchronous, so a search never
 * sees half of an upsert; a full rebuild is a new index swapped in by the caller.
 */
export class SearchIndex {
  private readonly dict: TermDict;
  private postings: Postings;
  private readonly table: DocTable;
  private readonly vocab: PinyinVocab;
  private readonly analyzer: DocAnalyzer;
  private readonly impacts: ImpactBuilder;
  private readonly scratch = new Scratch();
  /** The administrators' entries (admin-lexicon.ts): aliases indexed, the rest applied per question. */
  private lexicon: AdminLexicon;

  private constructor(
    parts: IndexParts = { dict: new TermDict(), postings: new Postings(), table: new DocTable(), vocab: new PinyinVocab(), lexicon: AdminLexicon.EMPTY },
  ) {
    ({ dict: this.dict, postings: this.postings, table: this.table, vocab: this.vocab, lexicon: this.lexicon } = parts);
    this.analyzer = new DocAnalyzer(this.vocab, this.dict);
    this.impacts = new ImpactBuilder(this.analyzer, this.dict);
    this.analyzer.aliasesOf = (doc) => this.lexicon.aliasesOf(doc);
  }

  /**
   * The whole state into a snapshot: everything a search reads, the documents as given and the
   * administrators' entries the aliases were indexed with (docs/search-snapshot.md). The state is
   * taken at once; the documents are then encoded a slice at a time (`pause` between slices),
   * while the index goes on answering and changing.
   */
  async save(w: SnapshotWriter, pause: Pause = NO_PAUSE): Promise<void> {
    this.dict.save(w);
    this.postings.save(w);
    const docs = this.table.save(w);
    this.vocab.save(w);
    w.str(JSON.stringify(this.lexicon.rules));
    await writeDocs(w, docs, pause);
  }

  /** The index save() wrote; throws on anything inconsistent. */
  static load(r: SnapshotReader): SearchIndex {
    const dict = TermDict.load(r);
    const postings = Postings.load(r);
    const table = DocTable.loadParts(r);
    const vocab = PinyinVocab.load(r);
    const lexicon = new AdminLexicon(JSON.parse(r.text()) as LexiconRules);
    table.loadDocs(r);
    if (!r.complete) throw new Error('snapshot holds more than an index');
    return new SearchIndex({ dict, postings, table, vocab, lexicon });
  }

  /**
   * Bulk build: each document is analysed once and its (term, impact) postings buffered, then
   * placed term by term into the compact base segment. A permit given twice keeps its last version.
   */
  static build(docs: SearchDoc[], lexicon: AdminLexicon = AdminLexicon.EMPTY): SearchIndex {
    const index = new SearchIndex();
    index.lexicon = lexicon;
    const latest = new Map<string, SearchDoc>();
    for (const d of docs) latest.set(d.permitId, d);
    const { dict, table, impacts, analyzer } = index;
    const buffer = new PostingBuffer();
    const push = (t: number, impact: number) => {
      buffer.push(t, impact);
      dict.count(t, impact);
    };
    analyzer.memoiseBodies = false;
    for (const doc of latest.values()) {
      table.add(doc);
      impacts.collect(doc);
      impacts.forEachImpact(push);
      buffer.endDoc();
    }
    analyzer.memoiseBodies = true;
    index.postings = Postings.build(dict.df, dict.size, table.capacity, (put) => buffer.forEach(put));
    return index;
  }

  /**
   * Loads what analysis needs on first use — the segmenter's dictionary, the pinyin tables, the
   * lexicon and knowledge — about a second of work once per process, so that no request (the
   * first search, the index update of the first import) pays for it.
   */
  static warmUp(): void {
    SearchIndex.build([]).search('开办食品经营许可');
  }

  get size(): number {
    return this.table.aliveCount;
  }

  /** Risks of the documents indexed now. */
  get riskCount(): number {
    let n = 0;
    for (const doc of this.table.docs) if (doc) n += doc.riskCount;
    return n;
  }

  /** The document indexed for a permit, as it was given. */
  document(permitId: string): SearchDoc | undefined {
    const id = this.table.idOf(permitId);
    return id === undefined ? undefined : (this.table.docs[id] ?? undefined);
  }

  /** The documents indexed now, as they were given. */
  documents(): SearchDoc[] {
    return this.table.docs.filter((d) => d !== null);
  }

  get adminLexicon(): AdminLexicon {
    return this.lexicon;
  }

  /**
   * Takes the administrators' new entries. Synonyms, expansions and curation apply from the next
   * question; the permits whose aliases differ are re-indexed in place, each removed as the old
   * entries indexed it and added as the new ones do.
   */
  setLexicon(next: AdminLexicon, changed = this.aliasChanges(next)): void {
    for (const doc of changed) this.removeId(this.table.idOf(doc.permitId)!);
    this.lexicon = next;
    for (const doc of changed) this.upsert(doc);
  }

  /** The permits whose aliases would differ under `next`: those setLexicon re-indexes. */
  aliasChanges(next: AdminLexicon): SearchDoc[] {
    const prev = this.lexicon;
    const changed: SearchDoc[] = [];
    if (prev.aliasSignature === next.aliasSignature) return changed;
    for (const doc of this.table.docs) if (doc && prev.aliasesOf(doc).join('\u0000') !== next.aliasesOf(doc).join('\u0000')) changed.push(doc);
    return changed;
  }

  /** Distinct terms in the dictionary (terms of removed documents stay until a rebuild). */
  get termCount(): number {
    return this.dict.size;
  }

  upsert(doc: SearchDoc): void {
    const old = this.table.idOf(doc.permitId);
    if (old !== undefined) this.removeId(old);
    const { dict, table, impacts } = this;
    const id = table.add(doc);
    impacts.collect(doc);
    impacts.forEachImpact((t, impact) => {
      dict.count(t, impact);
      this.postings.append(t, id, impact);
    });
    this.maybeCompact();
  }

  remove(permitId: string): void {
    const id = this.table.idOf(permitId);
    if (id === undefined) return;
    this.removeId(id);
    this.maybeCompact();
  }

  private removeId(id: number): void {
    const doc = this.table.docs[id];
    if (!doc) return;
    this.impacts.collect(doc);
    this.impacts.forEachTerm((t) => this.dict.df[t]--);
    this.table.remove(id);
  }

  /** Folds delta lists and drops removed documents once they amount to a quarter of the index. */
  private maybeCompact(): void {
    const t = this.table;
    if (this.postings.pendingDelta > Math.max(200_000, this.postings.size / 4) || t.deadCount > Math.max(1000, t.aliveCount / 4)) {
      this.postings = this.postings.compact(this.dict.size, t.capacity, (d) => t.isAlive(d));
      t.deadCount = 0;
    }
  }

  /**
   * Whether some permit is named by the key as written: it occurs in a field that tells what a
   * permit is (its name, themes, risk titles — not only its long risk texts) or in the knowledge.
   */
  private named = (key: string): boolean => {
    const id = this.dict.lookup(key);
    return (id >= 0 && this.dict.df[id] > 0 && this.dict.telling[id] === 1) || knowledgeKeySet().has(key);
  };

  /** At most how many documents hold a word that long texts index only as bigrams: as many as hold its rarest bigram. */
  private bigramDf(word: string): number {
    if (word.length < 3 || !/^[\u3400-\u9fff]+$/.test(word)) return 0;
    let least = Infinity;
    for (let i = 0; i + 1 < word.length; i++) {
      const id = this.dict.lookup(word.slice(i, i + 2));
      least = Math.min(least, id >= 0 ? this.dict.df[id] : 0);
    }
    return least === Infinity ? 0 : least;
  }

  /**
   * Each query term in each key space: its id and idf. The knowledge spaces share one idf: that
   * of the documents holding the phrase in any of them — so that whether a phrase is a permit's
   * principal activity or a supporting one is told by the space's weight alone, not by how many
   * permits happen to list it — and never below the phrase's idf in the permits' own text: a
   * phrase the knowledge ties to a permit is at least as telling as a mention in a risk text. A
   * word long texts index only as bigrams is held by at most as many documents as its rarest
   * bigram: its idf there is at least that bigram's.
   */
  private resolve(keys: string[], inKnowledge: Set<number>): SpaceTerm[] {
    const n = Math.max(1, this.table.aliveCount);
    const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const out: SpaceTerm[] = [];
    keys.forEach((key, t) => {
      const textId = this.dict.lookup(key);
      const textDf = textId >= 0 ? this.dict.df[textId] : 0;
      out.push({ id: textDf > 0 ? textId : -1, idf: idf(textDf) });
      const ids = inKnowledge.has(t) ? this.dict.knowledgeIds(key) : null;
      let df = 0;
      if (ids) for (const id of ids) if (id >= 0) df += this.dict.df[id];
      const inText = textDf > 0 ? textDf : this.bigramDf(key);
      const knowledgeIdf = inText > 0 ? Math.max(idf(df), idf(inText)) : idf(df);
      for (let s = 0; s < KNOWLEDGE_SPACES.length; s++) {
        const id = ids ? ids[s] : -1;
        out.push({ id: id >= 0 && this.dict.df[id] > 0 ? id : -1, idf: knowledgeIdf });
      }
    });
    return out;
  }

  /** The question read and resolved against the index: its plan, terms, scorer and posting lists. */
  private prepare(query: string, regionIds: string[] | null | undefined, lexicon = this.lexicon) {
    const admin = lexicon.queryLexicon(regionIds);
    const named = admin === NO_QUERY_LEXICON ? this.named : (key: string) => this.named(key) || admin.names(key);
    const plan = analyzeQuery(query, this.vocab, named, admin);
    const curation = lexicon.curation(plan.normalized, regionIds);
    const resolved = this.resolve(
      plan.terms.map((t) => t.key),
      knowledgeTerms(plan),
    );
    const scorer = new ConceptScorer(plan, resolved);
    const lists: ScoredList[] = [];
    resolved.forEach((rt, r) => {
      const weight = scorer.listWeight[r];
      if (rt.id < 0 || weight <= 0) return;
      const bound = weight * this.dict.maxImpact[rt.id];
      for (const s of this.postings.slices(rt.id))
        lists.push({ docs: s.docs, impacts: s.impacts, start: s.start, end: s.end, base: s.base, dense: s.dense, weight, bound, term: r });
    });
    const docOf = (d: number) => this.table.docs[d]!;
    const tieOrder = (a: number, b: number) => stableOrder(docOf(a), docOf(b));
    const retrieve = (bits: { bits: Uint32Array; count: number }) =>
      retrieveTopK({
        lists,
        allowed: bits.bits,
        allowedCount: bits.count,
        k: P.rerankPool,
        relative: RETRIEVAL_RELATIVE,
        scratch: this.scratch,
        capacity: this.table.capacity,
        tieOrder,
      });
    const ctx = { plan, scorer, docOf };
    /** The candidates among the documents a region filter allows (none when it names no region) and curation does not hide. */
    const candidates = (regionIds: string[] | null | undefined) => {
      const allowed = this.table.allowedBits(regionIds);
      return allowed ? retrieve(curation && curation.hides.size > 0 ? this.withoutHidden(allowed, curation.hides) : allowed) : [];
    };
    /** Their answer, by the rules of rank.ts: with a filter, the region rule too. */
    const answer = (cands: Candidate[], regionIds: string[] | null | undefined, limit: number) => {
      const outcome = rankCandidates(cands, ctx, limit);
      return regionIds ? withinRegion(outcome, () => rankCandidates(candidates(null), ctx, 1).ranked[0]?.score ?? 0) : outcome;
    };
    /** One permit scored alone (null when no word of the question is in its text or knowledge). */
    const scoreOne = (id: number): Ranked | null => {
      const only = new Uint32Array(this.table.allowedBits(null)!.bits.length);
      only[id >>> 5] |= 1 << (id & 31);
      const [candidate] = retrieve({ bits: only, count: 1 });
      return candidate ? scoreCandidates([candidate], ctx)[0] : null;
    };
    return { plan, resolved, scorer, retrieve, candidates, answer, scoreOne, curation, ctx };
  }

  /** A copy of allowed documents without those curation hides: they leave before ranking, so the answer is what it would be without them. */
  private withoutHidden(allowed: { bits: Uint32Array; count: number }, hides: Set<string>): { bits: Uint32Array; count: number } {
    const bits = allowed.bits.slice();
    let count = allowed.count;
    for (const permitId of hides) {
      const id = this.table.idOf(permitId);
      if (id === undefined || (bits[id >>> 5] & (1 << (id & 31))) === 0) continue;
      bits[id >>> 5] &= ~(1 << (id & 31));
      count--;
    }
    return { bits, count };
  }

  /**
   * The answer with the administrators' pins first, in their order — those the region filter
   * allows and that are searchable, with their own score (0 when no word of the question is
   * theirs). Pins answer a question that otherwise has none. (Hidden permits never became
   * candidates.)
   */
  private curate(
    outcome: RankOutcome,
    curation: Curation | null,
    regionIds: string[] | null | undefined,
    scoreOne: (id: number) => Ranked | null,
    limit: number,
  ): RankOutcome {
    if (!curation) return outcome;
    const allowed = this.table.allowedBits(regionIds);
    const pinned: Ranked[] = [];
    for (const permitId of curation.pins) {
      const id = this.table.idOf(permitId);
      if (id === undefined || !allowed || (allowed.bits[id >>> 5] & (1 << (id & 31))) === 0) continue;
      pinned.push(outcome.ranked.find((r) => r.doc === id) ?? scoreOne(id) ?? unscored(id));
    }
    const pinnedIds = new Set(pinned.map((r) => r.doc));
    const rest = outcome.ranked.filter((r) => !pinnedIds.has(r.doc));
    const ranked = [...pinned, ...rest].slice(0, limit);
    return { ...outcome, ranked, noMatch: ranked.length > 0 ? null : outcome.noMatch, pinned: pinned.length };
  }

  /** Why a permit is or is not in the answer to a question (types.ts, WhyNot; docs/search.md). */
  whyNot(query: string, permitId: string, regionIds: string[] | null = null): WhyNot {
    const none = { rank: null, reason: null, score: null, explained: null, bestScore: null, breakdown: {}, concepts: [] };
    const id = this.table.idOf(permitId);
    const doc = id === undefined ? null : this.table.docs[id]?.toSearchDoc();
    if (id === undefined || !doc) return { verdict: 'unknown', ...none };
    if (!doc.visible) return { verdict: 'hidden', ...none };
    if (regionIds && !regionIds.includes(doc.regionId)) return { verdict: 'region', ...none };
    const { resolved, scorer, candidates, answer, scoreOne, curation } = this.prepare(query, regionIds);
    const curatedOut = curation?.hides.has(permitId) ?? false;
    const mine = scoreOne(id);
    if (!mine && !curation?.pins.includes(permitId)) return { verdict: curatedOut ? 'curated_out' : 'no_terms', ...none };
    const own = mine ? { score: round(mine.score, 4), explained: round(mine.explained, 3), ...explainHit(doc, mine, scorer, this.analyzer, resolved) } : null;
    const uncurated = answer(candidates(regionIds), regionIds, MAX_HITS);
    const outcome = this.curate(uncurated, curation, regionIds, scoreOne, MAX_HITS);
    const best = uncurated.ranked[0]?.score ?? Math.max(0, ...uncurated.cut.map((c) => c.score));
    const result = {
      ...none,
      score: own?.score ?? 0,
      explained: own?.explained ?? 0,
      bestScore: round(best, 4),
      breakdown: own?.breakdown ?? {},
      concepts: own?.explain.concepts ?? [],
    };
    const at = outcome.ranked.findIndex((r) => r.doc === id);
    if (at >= 0) return { ...result, verdict: at < (outcome.pinned ?? 0) ? 'pinned' : 'found', rank: at + 1 };
    if (curatedOut) return { ...result, verdict: 'curated_out' };
    if (outcome.noMatch) return { ...result, verdict: 'no_answer', reason: outcome.noMatch };
    const cut = outcome.cut.find((c) => c.doc === id);
    if (cut) return { ...result, verdict: 'cut', reason: cut.reason };
    const last = outcome.ranked[outcome.ranked.length - 1];
    if (outcome.ranked.length === MAX_HITS && last && mine && mine.score <= last.score) return { ...result, verdict: 'below_limit' };
    return { ...result, verdict: 'not_retrieved' };
  }

  search(query: string, opts: SearchOptions = {}): SearchResult {
    const t0 = performance.now();
    const limit = Math.max(1, Math.min(MAX_HITS, Math.floor(opts.limit ?? MAX_HITS)));
    const lexicon = opts.lexicon ?? this.lexicon;
    const { plan, resolved, scorer, candidates, answer, scoreOne, curation, ctx } = this.prepare(query, opts.regionIds, lexicon);
    const tAnalyzed = performance.now();
    const { docOf } = ctx;
    const cands = candidates(opts.regionIds);
    const tRetrieved = performance.now();
    const outcome = this.curate(answer(cands, opts.regionIds, limit), curation, opts.regionIds, scoreOne, limit);
    const hits: SearchHit[] = outcome.ranked.map((r) => {
      const doc = docOf(r.doc).toSearchDoc();
      const { textKeys, soundKeys } = matchedKeys(plan, r.hits);
      return { doc, score: Math.round(r.score * 10000) / 10000, matched: matchedSubstrings(doc, plan, textKeys, soundKeys) };
    });
    if (!opts.debug) return { hits };
    // Timings stop here: the explanations below are debug-only work, not part of a search.
    const rank = micros(tRetrieved);
    const total = micros(t0);
    hits.forEach((hit, i) => Object.assign(hit, explainHit(hit.doc, outcome.ranked[i], scorer, this.analyzer, resolved)));
    return {
      hits,
      debug: {
        ...planDebug(plan),
        noMatch: outcome.noMatch,
        subjects: outcome.subjects.map((c, i) => ({ text: plan.concepts[c].text, explained: Math.round((outcome.bestSubjectQuality[i] ?? 0) * 1000) / 1000 })),
        cut: outcome.cut
          .slice(0, 10)
          .map((c) => ({
            permitId: docOf(c.doc).permitId,
            name: docOf(c.doc).name,
            reason: c.reason,
            score: Math.round(c.score * 10000) / 10000,
            explained: Math.round(c.explained * 1000) / 1000,
          })),
        timingsUs: { analyze: Math.round((tAnalyzed - t0) * 1000), retrieve: Math.round((tRetrieved - tAnalyzed) * 1000), rank, total },
      },
    };
  }
}

export { SPACES };

/** The keys to highlight in a hit: every key of the question the permit's own text holds. */
function matchedKeys(plan: QueryPlan, hits: Candidate['hits']): { textKeys: Set<string>; soundKeys: Set<string> } {
  const textKeys = new Set<string>();
  const soundKeys = new Set<string>();
  for (const h of hits) {
    if (h.term % SPACE_COUNT !== 0) continue;
    const key = plan.terms[h.term / SPACE_COUNT].key;
    (isSoundKey(key) ? soundKeys : textKeys).add(key);
  }
  return { textKeys, soundKeys };
}

/** A pinned permit no word of the question matches. */
const unscored = (doc: number): Ranked => ({
  doc,
  score: 0,
  base: 0,
  coord: 0,
  nameShare: 0,
  stageMatch: false,
  explained: 0,
  strongest: 0,
  subjectQuality: [],
  hits: [],
});

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
