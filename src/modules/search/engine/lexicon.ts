import { readFileSync } from 'node:fs';
import { normalizeText } from './normalize.js';

/**
 * The engine's language data, kept as text files next to the code: the domain synonym groups and
 * the intent words (question words and fillers that are weighed down in queries).
 */
export interface Lexicon {
  /** Normalised members of each group. */
  groups: string[][];
  /** Normalised word → indices of the groups holding it. */
  groupsOf: Map<string, number[]>;
  intent: Set<string>;
  /** Every normalised synonym member (the domain vocabulary). */
  vocabulary: string[];
  maxWordLen: number;
}

function dataLines(file: string): string[] {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Normalised and stripped of inner spaces ("卡拉OK" → "卡拉ok"). */
function clean(word: string): string {
  return normalizeText(word.trim()).replace(/ +/g, '');
}

function loadLexicon(): Lexicon {
  const groups: string[][] = [];
  const groupsOf = new Map<string, number[]>();
  let maxWordLen = 1;
  for (const line of dataLines('./synonyms.txt')) {
    const members = [...new Set(line.split('/').map(clean).filter((w) => w !== ''))];
    if (members.length < 2) continue;
    const g = groups.length;
    groups.push(members);
    for (const m of members) {
      const list = groupsOf.get(m);
      if (list) list.push(g);
      else groupsOf.set(m, [g]);
      if (m.length > maxWordLen) maxWordLen = m.length;
    }
  }
  const intent = new Set<string>();
  for (const line of dataLines('./intent-words.txt')) for (const w of line.split(/\s+/)) if (w) intent.add(clean(w));
  return { groups, groupsOf, intent, vocabulary: [...groupsOf.keys()], maxWordLen };
}

let lexicon: Lexicon | null = null;

export function getLexicon(): Lexicon {
  lexicon ??= loadLexicon();
  return lexicon;
}
