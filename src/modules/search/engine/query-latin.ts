import { syllabify } from './pinyin.js';
import { W } from './ranking-params.js';
import { initialsKey, pinyinKey, type Run } from './terms.js';
import { addPhrase, addSynonyms } from './query-expansion.js';
import type { QueryPlan, TermCollector } from './query-terms.js';
import type { PinyinVocab } from './pinyin-vocab.js';

interface Syllable {
  text: string;
  start: number;
  end: number;
}

/**
 * Latin runs: the token itself and its synonyms; then, read together, either full pinyin
 * (syllable bigrams against name pinyin, and vocabulary words spelt by the syllables) or, when
 * a run is not pinyin, initials (n-grams against name initials, and words with those initials).
 */
export function analyzeLatinRuns(runs: Run[], vocab: PinyinVocab, out: TermCollector): { syllables: string[]; initials: QueryPlan['initials'] } {
  const syllables: Syllable[] = [];
  const initials: QueryPlan['initials'] = [];
  for (const run of runs) {
    const end = run.start + run.text.length;
    out.add(run.text, run.text, 'word', 1, run.start, end);
    addSynonyms(run.text, 1, run.start, end, out);
    if (!/^[a-z]+$/.test(run.text)) continue;
    const syl = syllabify(run.text);
    if (syl) {
      let at = run.start;
      for (const s of syl) {
        syllables.push({ text: s, start: at, end: at + s.length });
        at += s.length;
      }
    } else if (run.text.length >= 2) {
      addInitials(run, vocab, out);
      initials.push({ text: run.text, start: run.start });
    }
  }
  for (let i = 0; i + 1 < syllables.length; i++) {
    const key = syllables[i].text + ' ' + syllables[i + 1].text;
    out.add(pinyinKey(key), key, 'pinyin', W.pinyinBigram, syllables[i].start, syllables[i + 1].end);
  }
  for (let i = 0; i < syllables.length; i++) {
    for (let j = i + 2; j <= Math.min(syllables.length, i + 6); j++) {
      const key = syllables.slice(i, j).map((s) => s.text).join(' ');
      for (const word of vocab.wordsBySyllables(key)) {
        addPhrase(word, 'pinyin', W.pinyinWord, word.length - 1, syllables[i].start, syllables[j - 1].end, out);
        addSynonyms(word, W.pinyinWord, syllables[i].start, syllables[j - 1].end, out, 'pinyin');
      }
    }
  }
  return { syllables: syllables.map((s) => s.text), initials };
}

function addInitials(run: Run, vocab: PinyinVocab, out: TermCollector): void {
  const t = run.text;
  for (let i = 0; i + 1 < t.length; i++) {
    out.add(initialsKey(t.slice(i, i + 2)), t.slice(i, i + 2), 'initials', W.initials2, run.start + i, run.start + i + 2);
    if (i + 2 < t.length) out.add(initialsKey(t.slice(i, i + 3)), t.slice(i, i + 3), 'initials', W.initials3, run.start + i, run.start + i + 3);
  }
  const end = run.start + t.length;
  for (const word of vocab.wordsByInitials(t)) {
    addPhrase(word, 'initials', W.initialsWord, word.length - 1, run.start, end, out);
    addSynonyms(word, W.initialsWord, run.start, end, out, 'initials');
  }
}
