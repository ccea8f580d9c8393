import { readFileSync } from 'node:fs';
import { loadKnowledgeFiles, type KnowledgeBase } from './knowledge.js';
import { normalizeText } from './normalize.js';

/**
 * The engine's language data, kept as text files in ../knowledge (docs/search-knowledge.md): the
 * general-language synonym groups with the words that tell a permit's stage, the intent words
 * (question words and fillers, weighed down in queries), and the permit and department knowledge.
 */

/** The stages of a permit, as its name or a question tells them. */
export const STAGES = ['新办', '变更', '延续', '补办', '注销'] as const;
export type Stage = (typeof STAGES)[number];

export interface Lexicon {
  /** Normalised members of each general-language group. */
  groups: string[][];
  /** Normalised word → indices of the groups holding it. */
  groupsOf: Map<string, number[]>;
  /** The stage a word tells, for the members of stage groups. */
  stageOf: Map<string, Stage>;
  /** Words naming permits in general (许可, 审批, 证) or the setting rather than the subject (门口, 用户): light in a question. */
  generic: Set<string>;
  /** Characters that end the name of a kind of place or thing (店, 馆, 厂). */
  kindSuffixes: Set<string>;
  /** Words naming public services that are not permits of the catalogue (社保, 公积金). */
  outside: string[];
  /** The nicknames of approving departments (工商局, 环保局). */
  offices: Set<string>;
  intent: Set<string>;
  knowledge: KnowledgeBase;
  /**
   * Words the domain knows as words: general group members, the names, activities and goods of
   * the permit knowledge (not its questions, which are sentences) and department nicknames. They
   * are kept whole by the segmenter and reachable by pinyin and initials.
   */
  vocabulary: string[];
  vocabularySet: Set<string>;
  /**
   * The words people spell in pinyin or abbreviate by initials: names — general-language words,
   * the names people use for permits, department nicknames — not the goods and places of the
   * activities (nobody types hp for 花炮).
   */
  spelledVocabulary: string[];
}

const KNOWLEDGE_DIR = new URL('../knowledge/', import.meta.url);

function dataLines(file: string): string[] {
  return readFileSync(new URL(file, KNOWLEDGE_DIR), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Normalised and stripped of inner spaces ("卡拉OK" → "卡拉ok"). */
function clean(word: string): string {
  return normalizeText(word.trim()).replace(/ +/g, '');
}

const MARK = /^\[(.+?)\]\s*/;
/** Marks of groups whose words are light in a question: permits in general, and the setting. */
const SETTING_MARK = '背景';
const SUFFIX_MARK = '类后缀';
const LIGHT_MARKS = ['泛称', SETTING_MARK];
/** Longer phrases are descriptions rather than words: they are indexed, not taught to the segmenter. */
const MAX_VOCABULARY_WORD = 6;

function loadLexicon(): Lexicon {
  const groups: string[][] = [];
  const groupsOf = new Map<string, number[]>();
  const stageOf = new Map<string, Stage>();
  const generic = new Set<string>();
  const kindSuffixes = new Set<string>();
  for (const line of dataLines('general.txt')) {
    const mark = MARK.exec(line)?.[1] ?? null;
    const members = [
      ...new Set(
        line
          .replace(MARK, '')
          .split('/')
          .map(clean)
          .filter((w) => w !== ''),
      ),
    ];
    if (mark !== null && LIGHT_MARKS.includes(mark)) for (const m of members) generic.add(m);
    if (mark === SUFFIX_MARK) for (const m of members) kindSuffixes.add(m);
    // The setting's words and the suffixes are lists, not synonyms of each other.
    if (mark === SETTING_MARK || mark === SUFFIX_MARK) continue;
    const stage = mark !== null && !LIGHT_MARKS.includes(mark) ? (mark as Stage) : null;
    if (stage && !STAGES.includes(stage)) throw new Error(`general.txt: unknown mark [${stage}]`);
    const g = groups.length;
    groups.push(members);
    for (const m of members) {
      groupsOf.set(m, [...(groupsOf.get(m) ?? []), g]);
      if (stage) stageOf.set(m, stage);
    }
  }
  const intent = new Set<string>();
  for (const line of dataLines('intent-words.txt')) for (const w of line.split(/\s+/)) if (w) intent.add(clean(w));
  const knowledge = loadKnowledgeFiles(KNOWLEDGE_DIR);
  if (knowledge.errors.length > 0) throw new Error(`search knowledge files: ${knowledge.errors.join('; ')}`);
  const vocabulary = new Set(groupsOf.keys());
  const outside = knowledge.outsideFacts.flatMap((f) => f.phrases);
  for (const f of [...knowledge.permitFacts, ...knowledge.departmentFacts, ...knowledge.outsideFacts]) {
    if (f.relation !== 'question') for (const p of f.phrases) if (p.length <= MAX_VOCABULARY_WORD) vocabulary.add(p);
  }
  const offices = new Set(knowledge.departmentFacts.flatMap((f) => f.phrases));
  const spelled = new Set(groupsOf.keys());
  for (const f of [...knowledge.permitFacts, ...knowledge.departmentFacts]) if (f.relation === 'alias') for (const p of f.phrases) spelled.add(p);
  return {
    groups,
    groupsOf,
    stageOf,
    generic,
    kindSuffixes,
    outside,
    offices,
    intent,
    knowledge,
    vocabulary: [...vocabulary],
    vocabularySet: vocabulary,
    spelledVocabulary: [...spelled],
  };
}

let lexicon: Lexicon | null = null;

export function getLexicon(): Lexicon {
  lexicon ??= loadLexicon();
  return lexicon;
}
