import { readdirSync, readFileSync } from 'node:fs';
import { normalizeText } from './normalize.js';

/**
 * The knowledge files (docs/search-knowledge.md): what people call each kind of permit, which
 * activities need it, and the nicknames of the approving departments, keyed by fragments of the
 * names so that any catalogue holding the same permits benefits.
 */

export type KnowledgeRelation = 'alias' | 'principal' | 'supporting' | 'question' | 'outside';

/** The relations in the order lines are sorted by, with their labels in the files. */
export const RELATION_LABELS: Record<string, KnowledgeRelation> = {
  俗称: 'alias',
  主要: 'principal',
  相关: 'supporting',
  问法: 'question',
  其他服务: 'outside',
};
const RELATION_ORDER = Object.keys(RELATION_LABELS);

export interface NamePattern {
  /** As written in the file. */
  text: string;
  /** Fragments that must all occur in the name key. */
  all: string[];
  /** Fragments that must not occur. */
  none: string[];
}

export interface KnowledgeFact {
  pattern: NamePattern;
  relation: KnowledgeRelation;
  phrases: string[];
  note: string;
  /** file:line, for messages. */
  source: string;
}

export interface ParsedFile {
  facts: KnowledgeFact[];
  errors: string[];
}

const MAX_PHRASE = 16;
const PHRASE_CHARS = /^[\u3400-\u9fffa-z0-9]+$/;

/** A name as patterns see it: normalised, without punctuation, brackets or spaces. */
export function nameKey(name: string): string {
  return normalizeText(name).replace(/ +/g, '');
}

export function matchesPattern(pattern: NamePattern, key: string): boolean {
  for (const f of pattern.all) if (!key.includes(f)) return false;
  for (const f of pattern.none) if (key.includes(f)) return false;
  return true;
}

/** A name pattern as the files write it: fragments joined by `&`, a leading `!` negating one. */
export function parsePattern(text: string): NamePattern | null {
  const all: string[] = [];
  const none: string[] = [];
  for (const raw of text.split('&')) {
    const negated = raw.trim().startsWith('!');
    const fragment = nameKey(raw.trim().replace(/^!/, ''));
    if (fragment === '') return null;
    (negated ? none : all).push(fragment);
  }
  return all.length > 0 ? { text, all, none } : null;
}

/**
 * Parses one file: `键 | 关系 | 词语、词语 | 依据` per line, `#` comments. Problems are reported per
 * line (the line is skipped); the order of lines is checked too.
 */
export function parseKnowledge(text: string, file: string, relations: KnowledgeRelation[] = ['alias', 'principal', 'supporting', 'question']): ParsedFile {
  const facts: KnowledgeFact[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  let previous: [string, number] | null = null;
  text.split(/\r?\n/).forEach((line, i) => {
    const source = `${file}:${i + 1}`;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const cells = trimmed.split('|').map((c) => c.trim());
    if (cells.length !== 4) return void errors.push(`${source}: expected 4 cells (键 | 关系 | 词语 | 依据), found ${cells.length}`);
    const [keyText, label, phraseText, note] = cells;
    const pattern = parsePattern(keyText);
    const relation = RELATION_LABELS[label];
    if (!pattern) return void errors.push(`${source}: empty key`);
    if (!relation || !relations.includes(relation))
      return void errors.push(
        `${source}: relation "${label}" is not one of ${relations.map((r) => RELATION_ORDER.find((l) => RELATION_LABELS[l] === r)).join(', ')}`,
      );
    if (note === '') errors.push(`${source}: the source note is empty`);
    const order: [string, number] = [keyText, RELATION_ORDER.indexOf(label)];
    if (previous && (previous[0] > order[0] || (previous[0] === order[0] && previous[1] >= order[1]))) {
      errors.push(`${source}: out of order or repeated (sorted by key, then relation: ${RELATION_ORDER.join(', ')})`);
    }
    previous = order;
    const phrases: string[] = [];
    for (const raw of phraseText.split('、')) {
      const phrase = nameKey(raw);
      if (phrase === '') {
        errors.push(`${source}: empty phrase`);
        continue;
      }
      if (!PHRASE_CHARS.test(phrase) || phrase.length > MAX_PHRASE)
        errors.push(`${source}: phrase "${raw}" must be 1–${MAX_PHRASE} letters, digits or Chinese characters`);
      else if (phrases.includes(phrase)) errors.push(`${source}: phrase "${raw}" appears twice`);
      else phrases.push(phrase);
    }
    const id = `${keyText}|${label}`;
    if (seen.has(id)) errors.push(`${source}: key and relation already given`);
    seen.add(id);
    if (phrases.length > 0) facts.push({ pattern, relation, phrases, note, source });
  });
  return { facts, errors };
}

export interface KnowledgeBase {
  permitFacts: KnowledgeFact[];
  departmentFacts: KnowledgeFact[];
  /** Public services people ask about that are not permits of the catalogue. */
  outsideFacts: KnowledgeFact[];
  errors: string[];
}

const KNOWLEDGE_DIR = new URL('../knowledge/', import.meta.url);

/** Reads every permit file, the department file and the other-services file of the knowledge folder. */
export function loadKnowledgeFiles(dir: URL = KNOWLEDGE_DIR): KnowledgeBase {
  const permitFacts: KnowledgeFact[] = [];
  const errors: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => /^permits-.+\.txt$/.test(f))
    .sort()) {
    const parsed = parseKnowledge(readFileSync(new URL(file, dir), 'utf8'), file);
    permitFacts.push(...parsed.facts);
    errors.push(...parsed.errors);
  }
  const departments = parseKnowledge(readFileSync(new URL('departments.txt', dir), 'utf8'), 'departments.txt', ['alias']);
  const outside = parseKnowledge(readFileSync(new URL('out-of-scope.txt', dir), 'utf8'), 'out-of-scope.txt', ['outside']);
  errors.push(...departments.errors, ...outside.errors);
  return { permitFacts, departmentFacts: departments.facts, outsideFacts: outside.facts, errors };
}
