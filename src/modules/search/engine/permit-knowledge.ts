import { matchesPattern, nameKey, type KnowledgeFact, type KnowledgeRelation } from './knowledge.js';
import { getLexicon, type Stage } from './lexicon.js';

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
