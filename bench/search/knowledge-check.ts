/**
 * Checks the knowledge files against the corpus catalogue (docs/search-knowledge.md).
 *   npx tsx bench/search/knowledge-check.ts [--file permits-x.txt] [--keys]
 * Prints grammar and order problems, keys that match no permit, and the visible permits no
 * 俗称 or 主要 line covers yet; with --keys, the names each key matches.
 */
import { loadKnowledgeFiles, matchesPattern, nameKey } from '../../src/modules/search/engine/knowledge.js';
import { loadCorpus } from './corpus.js';

const args = process.argv.slice(2);
const only = args.includes('--file') ? args[args.indexOf('--file') + 1] : null;
const listKeys = args.includes('--keys');

const corpus = loadCorpus();
const names = [...new Set(corpus.permits.filter((p) => p.visible).map((p) => p.name))].sort();
const departmentNames = [...new Set(corpus.permits.flatMap((p) => p.approval_departments))].sort();
const kb = loadKnowledgeFiles();
const inFile = (source: string) => only === null || source.startsWith(only + ':');

let problems = 0;
for (const e of kb.errors.filter(inFile)) {
  console.log('ERROR ' + e);
  problems++;
}

const covered = new Set<string>();
for (const f of kb.permitFacts) {
  const matched = names.filter((n) => matchesPattern(f.pattern, nameKey(n)));
  if (f.relation === 'alias' || f.relation === 'principal') for (const n of matched) covered.add(n);
  if (!inFile(f.source)) continue;
  if (matched.length === 0) {
    console.log(`ERROR ${f.source}: key "${f.pattern.text}" matches no permit of the catalogue`);
    problems++;
  } else if (listKeys && f.relation === 'alias') {
    console.log(`${f.source}: ${f.pattern.text} → ${matched.length}: ${matched.join(' / ')}`);
  }
}
for (const f of kb.departmentFacts.filter((x) => inFile(x.source))) {
  if (!departmentNames.some((d) => matchesPattern(f.pattern, nameKey(d)))) {
    console.log(`ERROR ${f.source}: department key "${f.pattern.text}" matches no approving department`);
    problems++;
  }
}

// The other services' words must not name a permit of the catalogue, nor be a whole phrase of a
// permit's knowledge (inside a longer phrase they may be: 刷身份证上网 is about internet cafés).
for (const f of kb.outsideFacts.filter((x) => inFile(x.source))) {
  for (const w of f.phrases) {
    const inName = names.find((n) => nameKey(n).includes(w));
    const inKnowledge = kb.permitFacts.find((pf) => pf.phrases.includes(w));
    if (inName || inKnowledge) {
      console.log(`ERROR ${f.source}: "${w}" ${inName ? `is in the permit name ${inName}` : `is a phrase of ${inKnowledge!.source} (${inKnowledge!.pattern.text} | ${inKnowledge!.relation})`}`);
      problems++;
    }
  }
}

const byDepartment = new Map<string, string[]>();
for (const n of names.filter((x) => !covered.has(x))) {
  const p = corpus.permits.find((x) => x.name === n)!;
  const dept = (p as unknown as { catalog_department?: string }).catalog_department ?? p.approval_departments[0] ?? '?';
  byDepartment.set(dept, [...(byDepartment.get(dept) ?? []), n]);
}
const facts = kb.permitFacts.filter((f) => inFile(f.source));
const phraseCount = facts.reduce((s, f) => s + f.phrases.length, 0);
console.log(`\n${facts.length} permit facts (${phraseCount} phrases), ${kb.departmentFacts.length} department facts, ${kb.outsideFacts.length} other-service facts; ${problems} problems`);
console.log(`visible permit names covered by 俗称 or 主要: ${covered.size} of ${names.length}`);
for (const [dept, list] of [...byDepartment].sort()) console.log(`  not covered, ${dept} (${list.length}): ${list.join(' / ')}`);
process.exitCode = problems > 0 ? 1 : 0;
