import type { AppContext } from '../../context.js';
import { popularQuestions } from '../query-log/query-log.repository.js';
import { permitPhrases } from './engine/permit-knowledge.js';
import type { SearchIndexHolder } from './search-index.service.js';

/**
 * Suggestions as a person types (docs/public-search.md): the searchable permits' names, what
 * people call them (the bundled knowledge's and the administrators' aliases), what people say they
 * want to do and ask about them (the bundled knowledge), and the questions many people asked here
 * and found answered.
 */

export const SUGGESTION_KINDS = ['permit', 'alias', 'phrase', 'question'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

export interface Suggestion {
  text: string;
  kind: SuggestionKind;
}

interface Candidate extends Suggestion {
  /** Folded for matching. */
  key: string;
  /**
   * The regions whose searchable permits it leads to, as the region sets of the permit names it
   * comes from (shared, not copied: a name's phrases are many), or of the permits a question
   * asked here was answered with.
   */
  regions: Set<Set<string>>;
  /** How many people asked it (questions asked here), for their order. */
  count: number;
}

/** Most suggestions one answer holds. */
export const MAX_SUGGESTIONS = 8;
/** Typed text longer than this is a question being written, not a name being looked up. */
export const MAX_SUGGEST_INPUT = 50;
/**
 * Popular questions: one is suggested once `minAskers` different people asked it on one day and
 * found permits, within the last `days`; the `kept` most asked of at most `longest` characters,
 * read again every `refreshMs`.
 */
const POPULAR = { minAskers: 3, days: 30, kept: 300, longest: 30, refreshMs: 10 * 60_000 };

const KIND_ORDER: Record<SuggestionKind, number> = { permit: 0, alias: 1, phrase: 2, question: 3 };

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

export class Suggester {
  private names = new CandidateList([]);
  private namesVersion = -1;
  /** The popular questions in the candidates' order, and most asked first. */
  private popular = new CandidateList([]);
  private popularByCount: Candidate[] = [];
  private popularAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly holder: SearchIndexHolder,
  ) {}

  /**
   * The suggestions for `typed` in the given regions (null: all): matches at the start before
   * matches inside, then in the candidates' own order (shorter, more general first). Blank input
   * answers the popular questions, most asked first.
   */
  suggest(typed: string, regionIds: string[] | null, limit = MAX_SUGGESTIONS): Suggestion[] {
    this.refreshPopular();
    const key = fold(typed);
    if (key.length > MAX_SUGGEST_INPUT) return [];
    const inRegion = (c: Candidate) => regionIds === null || leadsInto(c.regions, regionIds);
    if (key === '') return this.popularByCount.filter(inRegion).slice(0, limit).map(present);
    const found = [...this.nameCandidates().best(key, inRegion, limit), ...this.popular.best(key, inRegion, limit)];
    found.sort((a, b) => Number(a.at > 0) - Number(b.at > 0) || byOrder(a.c, b.c));
    // A question asked here may also be a name or an alias: it is suggested once, as the name.
    const seen = new Set<string>();
    return found
      .filter((f) => !seen.has(f.c.key) && seen.add(f.c.key))
      .slice(0, limit)
      .map((f) => present(f.c));
  }

  /**
   * The permits' names and aliases of the index as it is now, made again when it changes. Names
   * repeat across regions: each distinct name is read once, its documents only add their region.
   */
  private nameCandidates(): CandidateList {
    if (this.namesVersion === this.holder.version) return this.names;
    const index = this.holder.current;
    const regionsOfName = new Map<string, Set<string>>();
    const regionAlone = new Map<string, Set<string>>();
    const byKey = new Map<string, Candidate>();
    const add = (text: string, kind: SuggestionKind, regions: Set<string>) => {
      const key = fold(text);
      if (key === '') return;
      let c = byKey.get(key);
      if (!c) byKey.set(key, (c = { text, kind, key, regions: new Set(), count: 0 }));
      else if (KIND_ORDER[kind] < KIND_ORDER[c.kind]) Object.assign(c, { text, kind });
      c.regions.add(regions);
    };
    for (const doc of index.documents()) {
      if (!doc.visible) continue;
      let regions = regionsOfName.get(doc.name);
      if (!regions) regionsOfName.set(doc.name, (regions = new Set()));
      regions.add(doc.regionId);
      // The administrators' aliases belong to a permit of one region (by its code or a name pattern).
      const aliases = index.adminLexicon.aliasesOf(doc);
      if (aliases.length === 0) continue;
      let alone = regionAlone.get(doc.regionId);
      if (!alone) regionAlone.set(doc.regionId, (alone = new Set([doc.regionId])));
      for (const alias of aliases) add(alias, 'alias', alone);
    }
    for (const [name, regions] of regionsOfName) {
      const phrases = permitPhrases(name);
      add(name, 'permit', regions);
      for (const alias of phrases.alias) add(alias, 'alias', regions);
      for (const phrase of phrases.principal) add(phrase, 'phrase', regions);
      for (const question of phrases.question) add(question, 'question', regions);
    }
    this.names = new CandidateList([...byKey.values()]);
    this.namesVersion = this.holder.version;
    return this.names;
  }

  /** Reads the popular questions again when they are older than the refresh period, off the request. */
  private refreshPopular(): void {
    if (this.refreshing || this.ctx.now() - this.popularAt < POPULAR.refreshMs || this.ctx.config.queryLogDays === 0) return;
    const from = new Date(this.ctx.now() - POPULAR.days * 86_400_000).toISOString();
    const query = {
      fromIso: from,
      minAskers: POPULAR.minAskers,
      limit: POPULAR.kept,
      offsetMinutes: this.ctx.config.utcOffsetMinutes,
      postgres: this.ctx.dbh.kind === 'postgres',
    };
    this.refreshing = popularQuestions(this.ctx.readDb, query)
      .then((rows) => {
        this.popularByCount = rows
          .filter((r) => r.query.length <= POPULAR.longest && !r.query.includes('['))
          .map((r) => ({
            text: r.query,
            kind: 'question' as const,
            key: fold(r.query),
            regions: new Set([this.regionsOfAnswer(r.topPermitIds)]),
            count: r.askers,
          }))
          .filter((c) => [...c.regions][0].size > 0);
        this.popular = new CandidateList(this.popularByCount);
      })
      .catch((err: unknown) => this.ctx.log.error({ err }, 'popular questions could not be read'))
      .finally(() => {
        // A failed read waits its period too: the database is not asked on every keystroke.
        this.popularAt = this.ctx.now();
        this.refreshing = null;
      });
  }

  /** The regions of the searchable permits an answer held (none when they are gone or hidden since). */
  private regionsOfAnswer(permitIds: string): Set<string> {
    const index = this.holder.current;
    const regions = new Set<string>();
    for (const id of permitIds.split(',')) {
      const doc = id ? index.document(id) : undefined;
      if (doc?.visible) regions.add(doc.regionId);
    }
    return regions;
  }
}

function leadsInto(regionSets: Set<Set<string>>, regionIds: string[]): boolean {
  for (const set of regionSets) for (const id of regionIds) if (set.has(id)) return true;
  return false;
}

/** The candidates' own order: shorter (more general) first, then by kind, then the most asked. */
function byOrder(a: Candidate, b: Candidate): number {
  return a.text.length - b.text.length || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
}

/**
 * Candidates in their order, searchable as one text: the folded keys joined by line breaks (a key
 * holds none), so that finding what was typed is one string search over the list rather than one
 * per candidate.
 */
class CandidateList {
  readonly items: Candidate[];
  private readonly text: string;
  private readonly starts: Int32Array;

  constructor(items: Candidate[]) {
    this.items = [...items].sort(byOrder);
    this.text = this.items.map((c) => c.key).join('\n');
    this.starts = new Int32Array(this.items.length);
    let at = 0;
    this.items.forEach((c, i) => {
      this.starts[i] = at;
      at += c.key.length + 1;
    });
  }

  /**
   * The first `limit` candidates in the list's order that hold `key` at their start, and the first
   * `limit` that hold it inside: all the answer can take from this list. The search stops once its
   * start matches are complete, so a short text, which matches many, costs little.
   */
  best(key: string, inRegion: (c: Candidate) => boolean, limit: number): { c: Candidate; at: number }[] {
    const atStart: { c: Candidate; at: number }[] = [];
    const inside: { c: Candidate; at: number }[] = [];
    let from = 0;
    while (atStart.length < limit) {
      const hit = this.text.indexOf(key, from);
      if (hit < 0) break;
      const i = this.candidateAt(hit);
      const c = this.items[i];
      const at = hit - this.starts[i];
      if (c.key !== key && (at === 0 || inside.length < limit) && inRegion(c)) (at === 0 ? atStart : inside).push({ c, at });
      from = this.starts[i] + c.key.length + 1; // the next candidate: a key's first place is the one that counts
    }
    return [...atStart, ...inside];
  }

  /** The candidate whose key holds the text's position `pos` (the last one starting at or before it). */
  private candidateAt(pos: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

const present = (c: Candidate): Suggestion => ({ text: c.text, kind: c.kind });
