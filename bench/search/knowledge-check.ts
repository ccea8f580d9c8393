/**
 * Checks the knowledge files against the corpus catalogue (docs/search-knowledge.md).
 *   npx tsx bench/search/knowledge-check.ts [--file permits-x.txt] [--keys]
 * Prints grammar and order problems, keys that match no permit, other-service words that name a
 * permit, and the visible permits no 俗称 or 主要 line covers yet; with --keys, the names each 俗称
 * key matches.
 */
import { loadKnowledgeFiles } from '../../src/modules/search/engine/knowledge.js';
import { loadCorpus } from './corpus.js';
import { auditKnowledge } from './knowledge-audit.js';

const args = process.argv.slice(2);
const only = args.includes('--file') ? args[args.indexOf('--file') + 1] : null;
const listKeys = args.includes('--keys');

const corpus = loadCorpus();
const kb = loadKnowledgeFiles();
const audit = auditKnowledge(corpus, kb, only);
for (const p of audit.problems) console.log('ERROR ' + p);
if (listKeys) for (const [source, names] of audit.aliasMatches) console.log(`${source}: ${names.length}: ${names.join(' / ')}`);

const byDepartment = new Map<string, string[]>();
for (const n of audit.names.filter((x) => !audit.covered.has(x))) {
  const p = corpus.permits.find((x) => x.name === n)!;
  const dept = (p as unknown as { catalog_department?: string }).catalog_department ?? p.approval_departments[0] ?? '?';
  byDepartment.set(dept, [...(byDepartment.get(dept) ?? []), n]);
}
const inFile = (source: string) => only === null || source.startsWith(only + ':');
const facts = kb.permitFacts.filter((f) => inFile(f.source));
const phraseCount = facts.reduce((s, f) => s + f.phrases.length, 0);
console.log(
  `\n${facts.length} permit facts (${phraseCount} phrases), ${kb.departmentFacts.length} department facts, ${kb.outsideFacts.length} other-service facts; ${audit.problems.length} problems`,
);
console.log(`visible permit names covered by 俗称 or 主要: ${audit.covered.size} of ${audit.names.length}`);
for (const [dept, list] of [...byDepartment].sort()) console.log(`  not covered, ${dept} (${list.length}): ${list.join(' / ')}`);
process.exitCode = audit.problems.length > 0 ? 1 : 0;
