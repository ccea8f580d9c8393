import { createRequire } from 'node:module';
import { getLexicon } from './lexicon.js';

const require = createRequire(import.meta.url);

interface JiebaLike {
  cut(sentence: string, hmm?: boolean): string[];
  tag(sentence: string, hmm?: boolean): { word: string; tag: string }[];
  cutForSearch(sentence: string, hmm?: boolean): string[];
  loadDict(dict: Uint8Array): void;
}

let jieba: JiebaLike | null = null;

/** Frequency given to lexicon words so that segmentation keeps them whole. */
const LEXICON_WORD_FREQ = 200000;

/** The shared jieba instance, with the domain vocabulary and intent words added to its dictionary. */
function getJieba(): JiebaLike {
  if (jieba) return jieba;
  const { Jieba } = require('@node-rs/jieba') as { Jieba: { withDict(d: Uint8Array): JiebaLike } };
  const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
  const j = Jieba.withDict(dict);
  const lex = getLexicon();
  const extra = [...lex.vocabulary, ...lex.intent].filter((w) => w.length > 1 && /^[\u3400-\u9fff]+$/.test(w));
  j.loadDict(Buffer.from(extra.map((w) => `${w} ${LEXICON_WORD_FREQ}`).join('\n') + '\n'));
  jieba = j;
  return j;
}

/** Words of a run of CJK text, in order and covering it (precise mode). */
export function cutWords(text: string): string[] {
  return getJieba().cut(text, true);
}

/** Search-mode words: the precise words plus the dictionary words inside long ones. */
export function cutForSearch(text: string): string[] {
  return getJieba().cutForSearch(text, true);
}

/**
 * Dictionary words with their part-of-speech tags (jieba's ICTCLAS-style tag set), without the
 * hidden Markov model's guesses: in everyday questions it glues characters that are no word
 * together (树会, 塘里, 先到), so a stretch the dictionary does not know stays single characters.
 */
export function tagWords(text: string): { word: string; tag: string }[] {
  return getJieba().tag(text, false);
}
