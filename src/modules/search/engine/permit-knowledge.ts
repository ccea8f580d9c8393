import { matchesPattern, nameKey, type KnowledgeFact, type KnowledgeRelation } from './knowledge.js';
import { getLexicon, type Stage } from './lexicon.js';
import { negations, overlapsNegation } from './negation.js';
import { cutForSearch, cutWords } from './segmenter.js';
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
 * 医院 for half) and the stem of a three-character name of a kind (奶茶店: 奶茶 for two thirds). Not its other bigrams nor its single
 * characters: 茶店 or 店 alone say nothing of a permit, and 卖烟花 holds no 卖烟. Nor question
 * words or words for permits in general (狗证去哪办 is not found by 去哪办).
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
      // Inside a three-character name of a kind (零食店) only the two before its last character:
      // the segmenter would also find 食店, or 药店 in 兽药店.
      const inside = w.length >= 4 ? cutForSearch(w) : w.length === 3 && lex.kindSuffixes.has(w[2]) ? [w, w.slice(0, 2)] : [w];
      for (const sub of inside) {
        const i = at + w.indexOf(sub);
        if (sub.length >= 2 && !overlapsNegation(masked, i, i + sub.length)) add(sub);
      }
      at += w.length;
    }
  }
  return keys;
}

let knownKeys: Set<string> | null = null;

/** Every key some permit's knowledge phrase is found by (whatever the catalogue indexed). */
export function knowledgeKeySet(): Set<string> {
  if (knownKeys) return knownKeys;
  knownKeys = new Set();
  for (const f of getLexicon().knowledge.permitFacts) for (const p of f.phrases) for (const k of phraseKeys(p).keys()) knownKeys.add(k);
  return knownKeys;
}
