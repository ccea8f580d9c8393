import { matchesPattern, nameKey, type KnowledgeBase } from '../../src/modules/search/engine/knowledge.js';
import type { CorpusFile } from './corpus.js';

export interface KnowledgeAudit {
  /** Grammar and order problems, keys matching no permit, other-service words naming one. */
  problems: string[];
  /** Visible permit names a 俗称 or 主要 line covers, and all of them. */
  covered: Set<string>;
  names: string[];
  /** Per line (file:line) with a 俗称 key: the names it matches. */
  aliasMatches: Map<string, string[]>;
}

/** Checks the knowledge files against a catalogue (docs/search-knowledge.md), restricted to one file when given. */
export function auditKnowledge(corpus: CorpusFile, kb: KnowledgeBase, only: string | null = null): KnowledgeAudit {
  const names = [...new Set(corpus.permits.filter((p) => p.visible).map((p) => p.name))].sort();
  const departmentNames = [...new Set(corpus.permits.flatMap((p) => p.approval_departments))];
  const inFile = (source: string) => only === null || source.startsWith(only + ':');
  const problems = kb.errors.filter(inFile);
  const covered = new Set<string>();
  const aliasMatches = new Map<string, string[]>();
  for (const f of kb.permitFacts) {
    const matched = names.filter((n) => matchesPattern(f.pattern, nameKey(n)));
    if (f.relation === 'alias' || f.relation === 'principal') for (const n of matched) covered.add(n);
    if (!inFile(f.source)) continue;
    if (matched.length === 0) problems.push(`${f.source}: key "${f.pattern.text}" matches no permit of the catalogue`);
    else if (f.relation === 'alias') aliasMatches.set(f.source, matched);
  }
  for (const f of kb.departmentFacts.filter((x) => inFile(x.source))) {
    if (!departmentNames.some((d) => matchesPattern(f.pattern, nameKey(d))))
      problems.push(`${f.source}: department key "${f.pattern.text}" matches no approving department`);
  }
  // The other services' words must not name a permit of the catalogue, nor be a whole phrase of a
  // permit's knowledge (inside a longer phrase they may be: 刷身份证上网 is about internet cafés).
  for (const f of kb.outsideFacts.filter((x) => inFile(x.source))) {
    for (const w of f.phrases) {
      const inName = names.find((n) => nameKey(n).includes(w));
      const inKnowledge = kb.permitFacts.find((pf) => pf.phrases.includes(w));
      if (inName) problems.push(`${f.source}: "${w}" is in the permit name ${inName}`);
      else if (inKnowledge) problems.push(`${f.source}: "${w}" is a phrase of ${inKnowledge.source} (${inKnowledge.pattern.text} | ${inKnowledge.relation})`);
    }
  }
  return { problems, covered, names, aliasMatches };
}
