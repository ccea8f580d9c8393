import { getLexicon } from './lexicon.js';
import { normalizeText } from './normalize.js';
import { cutForSearch, tagWords } from './segmenter.js';
import { pinyin } from 'pinyin-pro';
import { MAX_CORRECTIONS, W } from './ranking-params.js';
import { runsOf, type Run } from './terms.js';
import { TermCollector, type QueryPlan } from './query-terms.js';
import { addSynonyms } from './query-expansion.js';
import { analyzeLatinRuns } from './query-latin.js';
import type { PinyinVocab } from './pinyin-vocab.js';

/**
 * Query analysis: the same normalisation as documents, bigrams and words of CJK runs with
 * intent words weighed down, synonyms from the domain dictionary, homophone corrections for
 * bigrams no permit name has, and pinyin/initials for latin runs.
 */
export function analyzeQuery(query: string, vocab: PinyinVocab): QueryPlan {
  const normalized = normalizeText(query);
  const posWeight = new Float32Array(normalized.length);
  const out = new TermCollector();
  const runs = runsOf(normalized);
  const latin: Run[] = [];
  for (const run of runs) {
    if (run.cjk) analyzeCjkRun(run, vocab, out, posWeight);
    else {
      posWeight.fill(1, run.start, run.start + run.text.length);
      latin.push(run);
    }
  }
  const { syllables, initials } = analyzeLatinRuns(latin, vocab, out);
  return { normalized, terms: out.terms(), posWeight, runs: runs.filter((r) => r.cjk).map((r) => r.text), syllables, initials };
}

/**
 * Parts of speech that qualify rather than name what is asked about: pronouns, place and
 * direction words, time words, numerals, quantifiers, adverbs, prepositions, conjunctions,
 * particles, modal words. Such words weigh less (unless the domain vocabulary knows them).
 */
const LIGHT_TAGS = new Set(['r', 's', 'f', 't', 'm', 'q', 'd', 'p', 'c', 'u', 'y', 'e', 'o']);

function analyzeCjkRun(run: Run, vocab: PinyinVocab, out: TermCollector, posWeight: Float32Array): void {
  const { text, start } = run;
  const lex = getLexicon();
  const tagged = splitIntentAffixes(tagWords(text));
  const words = tagged.map((t) => t.word);
  const cw = new Float32Array(text.length).fill(1);
  const wordAt = new Set<string>();
  let p = 0;
  for (const { word, tag } of tagged) {
    if (lex.intent.has(word)) cw.fill(W.intentChar, p, p + word.length);
    else if (LIGHT_TAGS.has(tag[0]) && !lex.groupsOf.has(word)) cw.fill(W.lightWord, p, p + word.length);
    wordAt.add(word);
    p += word.length;
  }
  posWeight.set(cw, start);
  const meanWeight = (from: number, to: number) => cw.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);

  // Readings in the context of the query only: a typo is read the way its writer meant it.
  // Worked out only when a bigram needs corrections (most queries are spelt as the names are).
  let readings: string[][] | null = null;
  const readingsOf = () => (readings ??= (pinyin(text, { type: 'array', toneType: 'none', v: true }) as string[]).map((p) => [p]));
  if (text.length === 1) out.add(text, text, 'unigram', W.loneUnigram * cw[0], start, start + 1);
  for (let i = 0; i + 1 < text.length; i++) {
    const bigram = text.slice(i, i + 2);
    const weight = meanWeight(i, i + 2);
    out.add(bigram, bigram, wordAt.has(bigram) ? 'word' : 'bigram', weight, start + i, start + i + 2);
    if (!vocab.isNameBigram(bigram) && !wordAt.has(bigram)) {
      for (const alike of vocab.soundAlikes(bigram, readingsOf().slice(i, i + 2)).slice(0, MAX_CORRECTIONS)) {
        out.add(alike, alike, 'correction', W.correction * weight, start + i, start + i + 2);
      }
    }
  }
  p = 0;
  for (const w of words) {
    if (w.length === 1 && text.length > 1 && cw[p] === 1) out.add(w, w, 'unigram', W.unigram, start + p, start + p + 1);
    p += w.length;
  }
  const seen = new Set<string>();
  for (const w of [...words, ...cutForSearch(text)]) {
    if (seen.has(w)) continue;
    seen.add(w);
    const at = text.indexOf(w);
    const weight = meanWeight(at, at + w.length);
    if (w.length >= 3) out.add(w, w, 'word', W.word * weight, start + at, start + at + w.length);
    addSynonyms(w, weight, start + at, start + at + w.length, out);
  }
}

/**
 * The segmenter glues intent words to short content words (想开 = 想 + 开, 开个 = 开 + 个);
 * such tokens are split back when the rest is a word of the domain vocabulary, so the intent
 * part is weighed down and the rest finds its synonyms.
 */
function splitIntentAffixes(tagged: { word: string; tag: string }[]): { word: string; tag: string }[] {
  const lex = getLexicon();
  const out: { word: string; tag: string }[] = [];
  for (const t of tagged) {
    const w = t.word;
    let split = false;
    if (w.length >= 2 && !lex.intent.has(w) && !lex.groupsOf.has(w)) {
      for (let cut = 1; cut < w.length && !split; cut++) {
        const head = w.slice(0, cut);
        const tail = w.slice(cut);
        if (lex.intent.has(head) && lex.groupsOf.has(tail)) out.push({ word: head, tag: 'x' }, { word: tail, tag: t.tag });
        else if (lex.intent.has(tail) && lex.groupsOf.has(head)) out.push({ word: head, tag: t.tag }, { word: tail, tag: 'x' });
        else continue;
        split = true;
      }
    }
    if (!split) out.push(t);
  }
  return out;
}
