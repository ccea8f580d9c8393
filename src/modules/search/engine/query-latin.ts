import { syllabify } from './pinyin.js';
import { W } from './ranking-params.js';
import { initialsKey, pinyinKey, type Run } from './terms.js';
import { synonymAlternatives, wordAlternatives } from './query-expansion.js';
import type { PlanBuilder, QueryPlan } from './query-terms.js';
import type { PinyinVocab } from './pinyin-vocab.js';
import type { TermOrigin } from './types.js';

interface Syllable {
  text: string;
  start: number;
  end: number;
}

/**
 * Latin runs: the token itself with its synonyms (KTV); then, read together, either full pinyin
 * (syllable bigrams against name pinyin, and the words the syllables spell) or, when a run is
 * not pinyin, initials (n-grams against name initials, and words with those initials). Each
 * sound key and each word spelt is a concept of its own: they stand for different stretches of
 * the letters, so they add up.
 */
export function analyzeLatinRuns(runs: Run[], vocab: PinyinVocab, b: PlanBuilder): { syllables: string[]; initials: QueryPlan['initials'] } {
  const syllables: Syllable[] = [];
  const initials: QueryPlan['initials'] = [];
  for (const run of runs) {
    const end = run.start + run.text.length;
    b.concept({ text: run.text, start: run.start, end, kind: 'content', weight: W.content, knowledge: true }, [
      ...wordAlternatives(run.text, 'word', 1, b),
      ...synonymAlternatives(run.text, 1, b),
    ]);
    if (!/^[a-z]+$/.test(run.text)) continue;
    const syl = syllabify(run.text);
    if (syl) {
      let at = run.start;
      for (const s of syl) {
        syllables.push({ text: s, start: at, end: at + s.length });
        at += s.length;
      }
    } else if (run.text.length >= 2) {
      addInitials(run, vocab, b);
      initials.push({ text: run.text, start: run.start });
    }
  }
  for (let i = 0; i + 1 < syllables.length; i++) {
    const key = syllables[i].text + ' ' + syllables[i + 1].text;
    soundConcept(b, pinyinKey(key), key, 'pinyin', W.pinyinBigram, syllables[i].start, syllables[i + 1].end);
  }
  for (let i = 0; i < syllables.length; i++) {
    for (let j = i + 2; j <= Math.min(syllables.length, i + 6); j++) {
      const key = syllables.slice(i, j).map((s) => s.text).join(' ');
      for (const word of vocab.wordsBySyllables(key)) spelt(b, word, 'pinyin', W.pinyinWord, syllables[i].start, syllables[j - 1].end);
    }
  }
  return { syllables: syllables.map((s) => s.text), initials };
}

function addInitials(run: Run, vocab: PinyinVocab, b: PlanBuilder): void {
  const t = run.text;
  for (let i = 0; i + 1 < t.length; i++) {
    soundConcept(b, initialsKey(t.slice(i, i + 2)), t.slice(i, i + 2), 'initials', W.initials2, run.start + i, run.start + i + 2);
    if (i + 2 < t.length) soundConcept(b, initialsKey(t.slice(i, i + 3)), t.slice(i, i + 3), 'initials', W.initials3, run.start + i, run.start + i + 3);
  }
  for (const word of vocab.wordsByInitials(t)) spelt(b, word, 'initials', W.initialsWord, run.start, run.start + t.length);
}

function soundConcept(b: PlanBuilder, key: string, display: string, origin: TermOrigin, weight: number, start: number, end: number): void {
  b.concept({ text: display, start, end, kind: 'sound', weight, knowledge: false }, [
    { text: display, origin, weight: 1, expansion: false, parts: [{ term: b.term(key, display, origin), share: 1 }] },
  ]);
}

/** A word the letters spell: found as written and by its synonyms, in the knowledge spaces too. */
function spelt(b: PlanBuilder, word: string, origin: TermOrigin, weight: number, start: number, end: number): void {
  b.concept({ text: word, start, end, kind: 'sound', weight, knowledge: true }, [...wordAlternatives(word, origin, 1, b), ...synonymAlternatives(word, 1, b, origin)]);
}
