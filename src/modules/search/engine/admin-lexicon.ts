import { matchesPattern, nameKey, parsePattern, type NamePattern } from './knowledge.js';
import { phraseKeys } from './permit-knowledge.js';
import type { SearchDoc } from './types.js';

/**
 * The administrators' lexicon and curation (docs/search-lexicon.md), as the engine applies it on
 * top of the bundled knowledge files: synonym groups and one-way expansions read into questions,
 * aliases indexed as permits' 俗称, and per-question pins and hides applied to answers. Every
 * entry is global (regionId null) or belongs to one region: a region's synonyms, expansions and
 * curation apply to questions filtered to that region, its aliases to that region's permits.
 * Words are given normalised (nameKey).
 */
export interface LexiconRules {
  synonyms: { words: string[]; replace: boolean; regionId: string | null }[];
  expansions: { from: string; to: string[]; regionId: string | null }[];
  aliases: { phrases: string[]; code: string | null; pattern: string | null; regionId: string | null }[];
  curations: { phrase: string; match: 'exact' | 'contains'; pins: string[]; hides: string[]; regionId: string | null }[];
}

/** What a question's analysis takes from the administrators' entries that apply to it. */
export interface QueryLexicon {
  /** Whether adjacent words of the question that together spell `word` become it (奶茶 + 铺子). */
  joins(word: string): boolean;
  /** The longest word it joins. */
  longest: number;
  /** The words `word` also stands for (both ways in a group, one way for an expansion). */
  expansions(word: string): Iterable<string>;
  /** Whether an entry takes the bundled synonym groups from `word`. */
  replaces(word: string): boolean;
  /** Whether some permit the question may find is named by `key` through an alias. */
  names(key: string): boolean;
}

/** What curation does to one answer: the permits pinned first, in order, and the permits hidden. */
export interface Curation {
  pins: string[];
  hides: Set<string>;
}

const NOTHING: string[] = [];
export const NO_QUERY_LEXICON: QueryLexicon = { joins: () => false, longest: 0, expansions: () => NOTHING, replaces: () => false, names: () => false };

export const NO_RULES: LexiconRules = { synonyms: [], expansions: [], aliases: [], curations: [] };

const applies = (regionId: string | null, regionIds: string[] | null | undefined) => regionId === null || (regionIds?.includes(regionId) ?? false);
const compact = (text: string) => text.replace(/ +/g, '');

/** Permit names whose pattern aliases are remembered. */
const PATTERN_MEMO = 50_000;

/**
 * The entries of one scope (global, or one region), as a question reads them: its synonyms and
 * expansions (applying to questions filtered to it), and its aliases' words and keys (naming its
 * permits, which any question may find).
 */
class Scope {
  readonly expands = new Map<string, Set<string>>();
  readonly replaced = new Set<string>();
  /** The words of its synonyms and expansions, joined in a question. */
  readonly words = new Set<string>();
  readonly aliasWords = new Set<string>();
  readonly aliasKeys = new Set<string>();
  longest = 0;

  expand(from: string, to: string): void {
    this.words.add(from);
    this.longest = Math.max(this.longest, from.length);
    if (from === to) return;
    let set = this.expands.get(from);
    if (!set) this.expands.set(from, (set = new Set()));
    set.add(to);
  }

  alias(phrase: string): void {
    this.aliasWords.add(phrase);
    this.longest = Math.max(this.longest, phrase.length);
    for (const k of phraseKeys(phrase).keys()) this.aliasKeys.add(k);
  }
}

/**
 * A question's view of the scopes: the global one and those of its region filter for synonyms
 * and expansions; for aliases, those whose permits it may find (every region's without a filter).
 * Nothing is copied: each lookup asks the few scopes in turn.
 */
class ScopedQueryLexicon implements QueryLexicon {
  readonly longest: number;

  constructor(
    private readonly language: Scope[],
    private readonly aliases: Scope[],
  ) {
    this.longest = Math.max(0, ...language.map((s) => s.longest), ...aliases.map((s) => s.longest));
  }

  joins(word: string): boolean {
    return this.language.some((s) => s.words.has(word)) || this.aliases.some((s) => s.aliasWords.has(word));
  }

  *expansions(word: string): Iterable<string> {
    const seen = new Set<string>();
    for (const s of this.language) for (const to of s.expands.get(word) ?? NOTHING) if (!seen.has(to)) yield (seen.add(to), to);
  }

  replaces(word: string): boolean {
    return this.language.some((s) => s.replaced.has(word));
  }

  names(key: string): boolean {
    return this.aliases.some((s) => s.aliasKeys.has(key));
  }
}

export class AdminLexicon {
  static readonly EMPTY = new AdminLexicon(NO_RULES);

  private readonly global = new Scope();
  private readonly regions = new Map<string, Scope>();
  /** Every region's aliases together: what a question without a region filter may find. */
  private readonly everyAlias: Scope[];
  private readonly aliasesByCode = new Map<string, LexiconRules['aliases']>();
  private readonly patternAliases: { rule: LexiconRules['aliases'][number]; pattern: NamePattern }[] = [];
  /** Pattern aliases matching a name (names repeat across regions and versions). */
  private readonly patternMatches = new Map<string, LexiconRules['aliases']>();
  private readonly exactCurations = new Map<string, LexiconRules['curations']>();
  /** "Contains" rules by the first character of their phrase: a question looks only at those of its characters. */
  private readonly containsByFirst = new Map<string, { rule: LexiconRules['curations'][number]; phrase: string }[]>();
  /** The alias rules as one text: two lexicons with the same text index every permit alike. */
  readonly aliasSignature: string;

  constructor(readonly rules: LexiconRules) {
    const scope = (regionId: string | null) => {
      if (regionId === null) return this.global;
      let s = this.regions.get(regionId);
      if (!s) this.regions.set(regionId, (s = new Scope()));
      return s;
    };
    for (const g of rules.synonyms) {
      const s = scope(g.regionId);
      for (const w of g.words) {
        if (g.replace) s.replaced.add(w);
        for (const other of g.words) s.expand(w, other);
      }
    }
    for (const e of rules.expansions) for (const to of e.to) scope(e.regionId).expand(e.from, to);
    for (const a of rules.aliases) {
      if (a.code !== null) {
        const code = nameKey(a.code);
        this.aliasesByCode.set(code, [...(this.aliasesByCode.get(code) ?? []), a]);
      }
      const pattern = a.pattern === null ? null : parsePattern(a.pattern);
      if (pattern) this.patternAliases.push({ rule: a, pattern });
      for (const p of a.phrases) scope(a.regionId).alias(p);
    }
    this.everyAlias = [this.global, ...this.regions.values()];
    this.aliasSignature = JSON.stringify(rules.aliases);
    for (const c of rules.curations) {
      if (c.match === 'exact') this.exactCurations.set(compact(c.phrase), [...(this.exactCurations.get(compact(c.phrase)) ?? []), c]);
      else {
        const phrase = compact(c.phrase);
        this.containsByFirst.set(phrase[0], [...(this.containsByFirst.get(phrase[0]) ?? []), { rule: c, phrase }]);
      }
    }
  }

  get isEmpty(): boolean {
    const r = this.rules;
    return r.synonyms.length + r.expansions.length + r.aliases.length + r.curations.length === 0;
  }

  /** The aliases attached to a permit: by its code or by a pattern on its name, in its region or everywhere. */
  aliasesOf(doc: SearchDoc): string[] {
    if (this.rules.aliases.length === 0) return [];
    const out = new Set<string>();
    const take = (rule: LexiconRules['aliases'][number]) => {
      if (rule.regionId === null || rule.regionId === doc.regionId) for (const p of rule.phrases) out.add(p);
    };
    if (doc.code) for (const rule of this.aliasesByCode.get(nameKey(doc.code)) ?? []) take(rule);
    if (this.patternAliases.length > 0) for (const rule of this.patternRulesOf(doc.name)) take(rule);
    return [...out];
  }

  private patternRulesOf(name: string): LexiconRules['aliases'] {
    let rules = this.patternMatches.get(name);
    if (!rules) {
      const key = nameKey(name);
      rules = this.patternAliases.filter(({ pattern }) => matchesPattern(pattern, key)).map(({ rule }) => rule);
      if (this.patternMatches.size >= PATTERN_MEMO) this.patternMatches.clear();
      this.patternMatches.set(name, rules);
    }
    return rules;
  }

  /** What applies to a question asked with this region filter. */
  queryLexicon(regionIds: string[] | null | undefined): QueryLexicon {
    if (this.isEmpty) return NO_QUERY_LEXICON;
    const filtered: Scope[] = [];
    for (const id of new Set(regionIds ?? [])) {
      const s = this.regions.get(id);
      if (s) filtered.push(s);
    }
    return new ScopedQueryLexicon([this.global, ...filtered], regionIds ? [this.global, ...filtered] : this.everyAlias);
  }

  /** The pins and hides for a question (normalised) asked with this region filter; null when no rule applies. */
  curation(normalized: string, regionIds: string[] | null | undefined): Curation | null {
    if (this.rules.curations.length === 0) return null;
    const text = compact(normalized);
    const contained: { rule: LexiconRules['curations'][number]; phrase: string }[] = [];
    for (const first of new Set(text)) for (const c of this.containsByFirst.get(first) ?? []) if (text.includes(c.phrase)) contained.push(c);
    // The longer phrase is the more particular rule: its pins come first.
    contained.sort((a, b) => b.phrase.length - a.phrase.length);
    const rules = [...(this.exactCurations.get(text) ?? []), ...contained.map((c) => c.rule)].filter((c) => applies(c.regionId, regionIds));
    if (rules.length === 0) return null;
    const pins: string[] = [];
    const hides = new Set<string>();
    for (const r of rules) {
      for (const p of r.pins) if (!pins.includes(p)) pins.push(p);
      for (const h of r.hides) hides.add(h);
    }
    return { pins: pins.filter((p) => !hides.has(p)), hides };
  }
}
