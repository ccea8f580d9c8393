import { DocAnalyzer } from './doc-analyzer.js';
import { DocTable } from './doc-table.js';
import { fieldBreakdown } from './explain.js';
import { matchedSubstrings } from './highlight.js';
import { ImpactBuilder } from './impacts.js';
import { PinyinVocab } from './pinyin-vocab.js';
import { PostingBuffer } from './posting-buffer.js';
import { Postings } from './postings.js';
import { analyzeQuery } from './query-analyzer.js';
import { rankCandidates, type ResolvedTerm } from './rank.js';
import { MAX_HITS, P } from './ranking-params.js';
import { retrieveTopK, Scratch, type ScoredList } from './retrieve.js';
import { TermDict } from './term-dict.js';
import { isTextKey } from './terms.js';
import type { SearchDoc, SearchHit, SearchOptions, SearchResult } from './types.js';

export type { SearchDoc, SearchHit, SearchOptions, SearchResult, SearchDebug, SearchRisk } from './types.js';

const micros = (from: number): number => Math.round((performance.now() - from) * 1000);

/**
 * In-memory search index over permit documents. Mutations are synchronous, so a search never
 * sees half of an upsert; a full rebuild is a new index swapped in by the caller.
 */
export class SearchIndex {
  private readonly dict = new TermDict();
  private postings = new Postings();
  private readonly table = new DocTable();
  private readonly vocab = new PinyinVocab();
  private readonly analyzer = new DocAnalyzer(this.vocab, this.dict);
  private readonly impacts = new ImpactBuilder(this.analyzer, this.dict);
  private readonly scratch = new Scratch();

  /**
   * Bulk build: a cheap first pass measures field lengths (for the averages BM25F normalises
   * by), the second analyses each document once and buffers its (term, impact) postings, which
   * are then placed term by term into the compact base segment. A permit given twice keeps its
   * last version.
   */
  static build(docs: SearchDoc[]): SearchIndex {
    const index = new SearchIndex();
    const latest = new Map<string, SearchDoc>();
    for (const d of docs) latest.set(d.permitId, d);
    const unique = [...latest.values()];
    const { dict, table, impacts, analyzer } = index;
    for (const doc of unique) {
      analyzer.measure(doc);
      table.add(doc, analyzer.lengths);
    }
    const avg = (f: number) => table.averageLength(f);
    const buffer = new PostingBuffer();
    const push = (t: number, impact: number) => {
      buffer.push(t, impact);
      dict.df[t]++;
      if (impact > dict.maxImpact[t]) dict.maxImpact[t] = impact;
    };
    analyzer.memoiseBodies = false;
    for (const doc of unique) {
      impacts.collect(doc);
      impacts.forEachImpact(avg, push);
      buffer.endDoc();
    }
    analyzer.memoiseBodies = true;
    index.postings = Postings.build(dict.df, dict.size, table.capacity, (put) => buffer.forEach(put));
    return index;
  }

  /**
   * Loads what analysis needs on first use — the segmenter's dictionary, the pinyin tables, the
   * lexicon — about a second of work once per process, so that no request (the first search, the
   * index update of the first import) pays for it.
   */
  static warmUp(): void {
    SearchIndex.build([]).search('开办食品经营许可');
  }

  get size(): number {
    return this.table.aliveCount;
  }

  /** The document indexed for a permit, as it was given. */
  document(permitId: string): SearchDoc | undefined {
    const id = this.table.idOf(permitId);
    return id === undefined ? undefined : (this.table.docs[id] ?? undefined);
  }

  /** Distinct terms in the dictionary (terms of removed documents stay until a rebuild). */
  get termCount(): number {
    return this.dict.size;
  }

  upsert(doc: SearchDoc): void {
    const old = this.table.idOf(doc.permitId);
    if (old !== undefined) this.removeId(old);
    const { dict, table, impacts } = this;
    impacts.collect(doc);
    const id = table.add(doc, impacts.lengths);
    impacts.forEachImpact((f) => table.averageLength(f), (t, impact) => {
      dict.df[t]++;
      if (impact > dict.maxImpact[t]) dict.maxImpact[t] = impact;
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
    this.table.remove(id, this.impacts.lengths);
  }

  /** Folds delta lists and drops removed documents once they amount to a quarter of the index. */
  private maybeCompact(): void {
    const t = this.table;
    if (this.postings.pendingDelta > Math.max(200_000, this.postings.size / 4) || t.deadCount > Math.max(1000, t.aliveCount / 4)) {
      this.postings = this.postings.compact(this.dict.size, t.capacity, (d) => t.isAlive(d));
      t.deadCount = 0;
    }
  }

  search(query: string, opts: SearchOptions = {}): SearchResult {
    const t0 = performance.now();
    const limit = Math.max(1, Math.min(MAX_HITS, Math.floor(opts.limit ?? MAX_HITS)));
    const plan = analyzeQuery(query, this.vocab);
    const tAnalyzed = performance.now();
    const n = Math.max(1, this.table.aliveCount);
    const terms: ResolvedTerm[] = plan.terms.map((term) => {
      const id = this.dict.lookup(term.key);
      const df = id >= 0 ? this.dict.df[id] : 0;
      if (df <= 0) return { term, id: -1, scoreWeight: 0 };
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      return { term, id, scoreWeight: (term.weight * idf * (P.k1 + 1)) / 255 };
    });
    const lists: ScoredList[] = [];
    terms.forEach((rt, term) => {
      if (rt.id < 0) return;
      const bound = rt.scoreWeight * this.dict.maxImpact[rt.id];
      for (const s of this.postings.slices(rt.id)) {
        lists.push({ docs: s.docs, impacts: s.impacts, start: s.start, end: s.end, dense: s.dense, weight: rt.scoreWeight, bound, term });
      }
    });
    const allowed = this.table.allowedBits(opts.regionIds);
    const cands = allowed ? retrieveTopK(lists, allowed.bits, allowed.count, P.rerankPool, P.relativeCutoff / (1 + P.phraseBonus), this.scratch, this.table.capacity) : [];
    const tRetrieved = performance.now();
    const docOf = (d: number) => this.table.docs[d]!;
    const ranked = rankCandidates(cands, { plan, terms, docOf }, limit);
    const hits: SearchHit[] = ranked.map((r) => {
      const doc = docOf(r.doc);
      const textKeys = new Set(r.matched.filter((m) => isTextKey(m.rt.term.key)).map((m) => m.rt.term.key));
      const soundKeys = new Set(r.matched.filter((m) => !isTextKey(m.rt.term.key)).map((m) => m.rt.term.key));
      return { doc, score: Math.round(r.score * 10000) / 10000, matched: matchedSubstrings(doc, plan, textKeys, soundKeys) };
    });
    if (!opts.debug) return { hits };
    // Timings stop here: the breakdown below is debug-only work, not part of a search.
    const rank = micros(tRetrieved);
    const total = micros(t0);
    hits.forEach((hit, i) => (hit.breakdown = fieldBreakdown(hit.doc, ranked[i], this.analyzer, (f) => this.table.averageLength(f))));
    return {
      hits,
      debug: {
        normalizedQuery: plan.normalized,
        terms: plan.terms.map((t) => ({ term: t.display, origin: t.origin, weight: Math.round(t.weight * 1000) / 1000 })),
        timingsUs: { analyze: Math.round((tAnalyzed - t0) * 1000), retrieve: Math.round((tRetrieved - tAnalyzed) * 1000), rank, total },
      },
    };
  }
}
