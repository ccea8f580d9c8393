import { matchesPattern, nameKey, type KnowledgeFact, type KnowledgeRelation } from './knowledge.js';
import { getLexicon, type Stage } from './lexicon.js';
import { negations, overlapsNegation } from './negation.js';
import { cutForSearch, cutWords, tagWords } from './segmenter.js';
import { runsOf } from './terms.js';

/** The knowledge phrases of one permit, per relation. */
export type PermitPhrases = Record<Exclude<KnowledgeRelation, 'outside'>, string[]>;

const CACHE_LIMIT = 20_000;
const nameCache = new Map<string, PermitPhrases>();
const departmentCache = new Map<string, string[]>();
const stageCache = new Map<string, Stage>();

function collect(facts: KnowledgeFact[], key: string): PermitPhrases {
  const out: PermitPhrases = { alias: [], principal: [], supporting: [], question: [] };
  for (const f of facts) {
    if (f.relation === 'outside' || !matchesPattern(f.pattern, key)) continue;
    for (const p of f.phrases) if (!out[f.relation].includes(p)) out[f.relation].push(p);
  }
  return out;
}

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** What people call a permit and what they want to do with it, by its name (names repeat across regions). */
export function permitPhrases(name: string): PermitPhrases {
  return nameCache.get(name) ?? remember(nameCache, name, collect(getLexicon().knowledge.permitFacts, nameKey(name)));
}

/** The nicknames of an approving department. */
export function departmentNicknames(department: string): string[] {
  return departmentCache.get(department) ?? remember(departmentCache, department, collect(getLexicon().knowledge.departmentFacts, nameKey(department)).alias);
}

/**
 * The stage of a permit as its name tells it: a change, renewal, reissue or cancellation when the
 * name holds a word of that stage (general.txt), a new application otherwise.
 */
export function stageOfName(name: string): Stage {
  const cached = stageCache.get(name);
  if (cached) return cached;
  const key = nameKey(name);
  let stage: Stage = '新办';
  for (const [word, s] of getLexicon().stageOf) {
    if (s !== '新办' && word.length >= 2 && key.includes(word)) {
      stage = s;
      break;
    }
  }
  return remember(stageCache, name, stage);
}

/**
 * The keys a knowledge phrase is found by, each with the share of the phrase it stands for: the
 * phrase itself (all of it), its latin tokens, and its words of two or more characters as the
 * segmenter cuts them, with the dictionary words inside those of four or more (宠物医院: 宠物,
 * 医院 for half), the object of a three-character verb phrase (修码头: 码头 for two thirds) and
 * the stem of a three-character name of a kind (奶茶店: 奶茶); and each two of its words (pairKey).
 * Not its other bigrams nor its single characters: 茶店 or 店 alone say nothing of a permit, and
 * 卖烟花 holds no 卖烟. Nor question words or words for permits in general (狗证去哪办 is not
 * found by 去哪办).
 */
export function phraseKeys(phrase: string): Map<string, number> {
  const lex = getLexicon();
  const keys = new Map<string, number>([[phrase, 1]]);
  const add = (key: string) => {
    // A question word or a word for permits in general (什么证, 许可) says nothing of which permit.
    if (key !== phrase && (lex.intent.has(key) || lex.generic.has(key))) return;
    keys.set(key, Math.max(keys.get(key) ?? 0, key.length / phrase.length));
  };
  for (const run of runsOf(phrase)) {
    const t = run.text;
    if (!run.cjk || t.length <= 2) {
      add(t);
      continue;
    }
    const masked = negations(t);
    for (const n of masked) add(n.compound);
    let at = 0;
    for (const w of cutWords(t)) {
      const inside = w.length >= 4 ? cutForSearch(w) : w.length === 3 ? threeCharacterWords(w, lex.kindSuffixes) : [w];
      for (const sub of inside) {
        const i = at + w.indexOf(sub);
        if (sub.length >= 2 && !overlapsNegation(masked, i, i + sub.length)) add(sub);
      }
      at += w.length;
    }
  }
  const units = wordUnits(phrase, false);
  for (let i = 0; i < units.length; i++) {
    for (let j = i + 1; j < units.length; j++)
      if (units[i] !== units[j]) keys.set(pairKey(units[i], units[j]), (units[i].length + units[j].length) / phrase.length);
  }
  return keys;
}

/**
 * The key of two words standing together in one phrase, in either order and whatever stands
 * between them (国道边广告牌 holds 国道…广告牌): a question that says both (在国道边上立一块广告牌)
 * is found by it, though it never says the phrase.
 */
export function pairKey(a: string, b: string): string {
  return a < b ? a + PAIR + b : b + PAIR + a;
}

/** Joins a pair key's words: never part of a normalised text. */
const PAIR = '…';

const unitCache = new Map<string, string[]>();

/**
 * The words of a text that say something of a permit, as few and as long as cover most of it:
 * among the dictionary words of two or more characters inside it (search mode), those that cover
 * the most characters without overlapping, the fewest when several do (国道边广告牌: 国道, 广告牌;
 * 押运员工时: 押运员, 工时, not 员工; 河道边修码头: 河道, 码头). Never question words, words for
 * permits in general or negated words; never the whole text when it is a phrase (`whole` false).
 * A phrase and a question's word are cut the same way, so that their pairs meet whichever way
 * each was written.
 */
export function wordUnits(text: string, whole = true): string[] {
  const cacheKey = (whole ? '1' : '0') + text;
  const hit = unitCache.get(cacheKey);
  if (hit) return hit;
  const lex = getLexicon();
  const spans: { from: number; to: number; word: string | null }[] = [];
  for (const run of runsOf(text)) {
    if (!run.cjk) continue;
    const masked = negations(run.text);
    let at = 0;
    for (const w of cutWords(run.text)) {
      const subs = w.length > 2 ? new Set(cutForSearch(w)) : new Set([w]);
      for (const sub of subs) {
        const i = at + w.indexOf(sub);
        if (sub.length < 2 || (!whole && sub === text) || overlapsNegation(masked, i, i + sub.length)) continue;
        // A question word or a word for permits in general covers its characters but is no unit.
        const said = !lex.intent.has(sub) && !lex.generic.has(sub);
        spans.push({ from: run.start + i, to: run.start + i + sub.length, word: said ? sub : null });
      }
      at += w.length;
    }
  }
  // Most characters covered, then fewest words, over the prefixes of the text.
  const best: { covered: number; count: number; words: (string | null)[] }[] = [{ covered: 0, count: 0, words: [] }];
  for (let end = 1; end <= text.length; end++) {
    let b = best[end - 1];
    for (const s of spans) {
      if (s.to !== end) continue;
      const prev = best[s.from];
      const covered = prev.covered + s.to - s.from;
      if (covered > b.covered || (covered === b.covered && prev.count + 1 < b.count)) b = { covered, count: prev.count + 1, words: [...prev.words, s.word] };
    }
    best.push(b);
  }
  const units = best[text.length].words.filter((w): w is string => w !== null);
  if (unitCache.size >= CACHE_LIMIT) unitCache.clear();
  unitCache.set(cacheKey, units);
  return units;
}

/**
 * A three-character word and the word it is found by besides: after a one-character verb, its
 * object (开网吧: 网吧; 修码头: 码头); in a name of a kind of place or thing, its stem, the two
 * before its last character (零食店: 零食 — not 食店, nor 药店 in 兽药店); else nothing.
 */
function threeCharacterWords(word: string, kindSuffixes: Set<string>): string[] {
  const inside = cutForSearch(word);
  const object = word.slice(1);
  if (tagWords(word[0])[0]?.tag.startsWith('v') && inside.includes(object)) return [word, object];
  const stem = word.slice(0, 2);
  return kindSuffixes.has(word[2]) && inside.includes(stem) ? [word, stem] : [word];
}

let knownKeys: Set<string> | null = null;

/** Every key some permit's knowledge phrase is found by (whatever the catalogue indexed). */
export function knowledgeKeySet(): Set<string> {
  if (knownKeys) return knownKeys;
  knownKeys = new Set();
  for (const f of getLexicon().knowledge.permitFacts) for (const p of f.phrases) for (const k of phraseKeys(p).keys()) knownKeys.add(k);
  return knownKeys;
}
