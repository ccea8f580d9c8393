import { syllabify } from './pinyin.js';
import { W } from './ranking-params.js';
import { initialsKey, pinyinKey, type Run } from './terms.js';
import { synonymAlternatives, wordAlternatives } from './query-expansion.js';
import type { Alternative, PlanBuilder, QueryPlan } from './query-terms.js';
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
 * sound key is a concept of its own, and so are the words one stretch of letters spells: they
 * stand for different stretches of the letters, so they add up.
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
      const key = syllables
        .slice(i, j)
        .map((s) => s.text)
        .join(' ');
      spelt(b, [...vocab.wordsBySyllables(key)], 'pinyin', W.pinyinWord, syllables[i].start, syllables[j - 1].end);
    }
  }
  return { syllables: syllables.map((s) => s.text), initials };
}

/**
 * A run read as initials is one concept: the letters as a whole stand for one name. It is matched
 * either by its windows of two and three letters against the names' initials (together, each for
 * its share; they score, but explain the question only where the ranking finds the letters
 * together in a name's initials), or by a word those initials spell (火炮, 环评 for hp) — counted
 * once, by the best.
 */
function addInitials(run: Run, vocab: PinyinVocab, b: PlanBuilder): void {
  const t = run.text;
  const windows: Alternative = { text: t, origin: 'initials', weight: 1, expansion: false, scattered: true, parts: [] };
  for (let i = 0; i + 1 < t.length; i++) {
    windows.parts.push({ term: b.term(initialsKey(t.slice(i, i + 2)), t.slice(i, i + 2), 'initials'), share: W.initials2 / (t.length - 1) });
    if (i + 2 < t.length)
      windows.parts.push({ term: b.term(initialsKey(t.slice(i, i + 3)), t.slice(i, i + 3), 'initials'), share: W.initials3 / (t.length - 2) });
  }
  const words = [...vocab.wordsByInitials(t)].flatMap((word) => [
    ...wordAlternatives(word, 'initials', W.initialsWord, b),
    ...synonymAlternatives(word, W.initialsWord, b, 'initials'),
  ]);
  b.concept({ text: t, start: run.start, end: run.start + t.length, kind: 'sound', weight: 1, knowledge: true }, [windows, ...words]);
}

function soundConcept(b: PlanBuilder, key: string, display: string, origin: TermOrigin, weight: number, start: number, end: number): void {
  b.concept({ text: display, start, end, kind: 'sound', weight, knowledge: false }, [
    { text: display, origin, weight: 1, expansion: false, parts: [{ term: b.term(key, display, origin), share: 1 }] },
  ]);
}

/**
 * The words the same letters spell (火炮, 花炮 and 环评 are all hp): one concept, counted once by
 * its best word, each found as written and by its synonyms, in the knowledge spaces too.
 */
function spelt(b: PlanBuilder, words: string[], origin: TermOrigin, weight: number, start: number, end: number): void {
  if (words.length === 0) return;
  const alternatives = words.flatMap((word) => [...wordAlternatives(word, origin, 1, b), ...synonymAlternatives(word, 1, b, origin)]);
  b.concept({ text: words.join('/'), start, end, kind: 'sound', weight, knowledge: true }, alternatives);
}
