import { pinyin } from 'pinyin-pro';
import { getLexicon, type Stage } from './lexicon.js';
import { negations } from './negation.js';
import { pairKey, wordUnits } from './permit-knowledge.js';
import { normalizeText } from './normalize.js';
import { MAX_CORRECTIONS, W } from './ranking-params.js';
import { tagWords } from './segmenter.js';
import { runsOf, type Run } from './terms.js';
import { PlanBuilder, type Alternative, type ConceptKind, type QueryPlan } from './query-terms.js';
import { synonymAlternatives, wordAlternatives } from './query-expansion.js';
import { analyzeLatinRuns } from './query-latin.js';
import { NO_QUERY_LEXICON, type QueryLexicon } from './admin-lexicon.js';
import type { PinyinVocab } from './pinyin-vocab.js';

/** Whether some permit is named by a key as written (its name, themes, risk titles or knowledge). */
export type NamedKey = (key: string) => boolean;

/**
 * Query analysis: the same normalisation as documents, then concepts — the words of the question,
 * each with what it can be matched as (itself, its synonyms, a homophone correction), weighed by
 * what kind of word it is — plus the bigrams straddling two words as weak evidence of their own,
 * and pinyin/initials for latin runs.
 */
export function analyzeQuery(query: string, vocab: PinyinVocab, named: NamedKey = () => true, lexicon: QueryLexicon = NO_QUERY_LEXICON): QueryPlan {
  const normalized = normalizeText(query);
  const b = new PlanBuilder(lexicon);
  const stages = new Set<Stage>();
  const runs = runsOf(normalized);
  const latin: Run[] = [];
  for (const run of runs) {
    if (run.cjk) analyzeCjkRun(run, vocab, named, b, stages);
    else latin.push(run);
  }
  const { syllables, initials } = analyzeLatinRuns(latin, vocab, b);
  return { normalized, terms: b.terms, concepts: b.concepts, runs: runs.filter((r) => r.cjk).map((r) => r.text), syllables, initials, stages: [...stages] };
}

/**
 * Parts of speech that qualify rather than name what is asked about: pronouns, place and
 * direction words, time words, numerals, quantifiers, adverbs, prepositions, conjunctions,
 * particles, modal words, and the names of places, people and organisations (where, who — not
 * what). Such words weigh less; place and time words only while nothing names a permit by them.
 */
const LIGHT_TAGS = new Set(['r', 's', 'f', 't', 'm', 'q', 'd', 'p', 'c', 'u', 'y', 'e', 'o']);
const LIGHT_NAMES = new Set(['ns', 'nr', 'nrt', 'nrfg', 'nt']);

/** What the name of an office ends with. */
const OFFICE = /..(局|委|委员会|办|办公室|所|站|队|大队|中心|厅|部)$/;

/** A word of the question before it joins the plan: its token, kind and alternatives so far. */
interface Draft {
  token: Token;
  alternatives: Alternative[];
  kind: ConceptKind;
  /** The phrase an object forms with its verb said apart (修…桥: 修桥). */
  withVerb?: string;
}

interface Token {
  word: string;
  tag: string;
  start: number;
  end: number;
  /** The compound a negated word is indexed as (negation.ts). */
  compound?: string;
}

function kindOf(t: Token, named: NamedKey): ConceptKind {
  const lex = getLexicon();
  if (t.compound) return 'content';
  if (lex.intent.has(t.word)) return 'intent';
  if (lex.stageOf.has(t.word)) return 'stage';
  if (lex.generic.has(t.word)) return 'light';
  // Place, direction and time words, and names of places, may be what a permit is about
  // (公共场所): light only when nothing names a permit by them — for a single character, nothing
  // in the knowledge (上 is in many names without being what they are about). The other light
  // kinds always are.
  const placeOrTime = LIGHT_NAMES.has(t.tag) || 'sft'.includes(t.tag[0]);
  const namesPermit = lex.vocabularySet.has(t.word) || (t.word.length > 1 && named(t.word));
  if ((LIGHT_TAGS.has(t.tag[0]) || LIGHT_NAMES.has(t.tag)) && !(placeOrTime && namesPermit)) return 'light';
  if (t.word.length > 1) return 'content';
  // A one-character verb (买, 立, 修, 投) takes its meaning from its object, a word of its own —
  // unless the knowledge names something by it (树, which the segmenter may take for a verb).
  return t.tag.startsWith('v') && !lex.vocabularySet.has(t.word) ? 'light' : 'single';
}

function analyzeCjkRun(run: Run, vocab: PinyinVocab, named: NamedKey, b: PlanBuilder, stages: Set<Stage>): void {
  const { text, start } = run;
  const lex = getLexicon();
  const tokens = joinLexiconWords(text, tokenize(text), b.lexicon);
  const concepts: Draft[] = [];
  for (const t of tokens) {
    const kind = kindOf(t, named);
    const stage = lex.stageOf.get(t.word);
    if (stage) stages.add(stage);
    const alternatives = t.compound
      ? [typedKey(b, t.compound, t.word)]
      : [...wordAlternatives(t.word, t.word.length === 1 ? 'unigram' : 'word', 1, b), ...synonymAlternatives(t.word, 1, b)];
    concepts.push({ token: t, alternatives, kind });
  }
  addCorrections(text, tokens, concepts, vocab, named, b);
  const composed = addVerbObjects(concepts, named, b);
  addPairs(concepts, named, b);
  concepts.forEach((c, i) => {
    const word = c.token.word;
    const outside = c.kind === 'content' && lex.outside.some((w) => word.includes(w));
    const office = c.kind === 'content' && (lex.offices.has(word) || OFFICE.test(word));
    // The knowledge maps what is asked about, and at which stage, to permits: only subjects, stage
    // words and verbs that form a phrase with their object are looked up in it (and, below, the
    // bigrams joining two words).
    const knowledge = c.kind === 'content' || c.kind === 'single' || c.kind === 'stage' || composed.has(i);
    b.concept(
      { text: word, start: start + c.token.start, end: start + c.token.end, kind: c.kind, weight: W[c.kind], knowledge, outside, office },
      c.alternatives,
    );
  });
  // Bigrams across a word boundary: weak evidence that the two words stand together.
  for (let i = 1; i < concepts.length; i++) {
    const left = concepts[i - 1];
    const right = concepts[i];
    if (left.kind === 'intent' || right.kind === 'intent') continue;
    const at = right.token.start;
    const bigram = text.slice(at - 1, at + 1);
    b.concept(
      { text: bigram, start: start + at - 1, end: start + at + 1, kind: 'bridge', weight: W.bridge * Math.min(W[left.kind], W[right.kind]), knowledge: true },
      [{ text: bigram, origin: 'bigram', weight: 1, expansion: false, parts: [{ term: b.term(bigram, bigram, 'bigram'), share: 1 }] }],
    );
  }
}

/**
 * The run's words with their parts of speech. An intent or stage word glued to a word the domain
 * knows is split off (想开 → 想 + 开, 开网吧 → 开 + 网吧, 注销公司 → 注销 + 公司), so that each
 * counts as what it is; a negated word becomes one token with its prefix (非企业).
 */
function tokenize(text: string): Token[] {
  const lex = getLexicon();
  const affix = (w: string) => lex.intent.has(w) || lex.stageOf.has(w);
  const tokens: Token[] = [];
  let p = 0;
  for (const t of tagWords(text)) {
    const w = t.word;
    let split = false;
    if (w.length >= 2 && !lex.intent.has(w) && !lex.stageOf.has(w)) {
      for (let cut = 1; cut < w.length && !split; cut++) {
        const head = w.slice(0, cut);
        const tail = w.slice(cut);
        if (affix(head) && lex.vocabularySet.has(tail)) {
          tokens.push({ word: head, tag: 'x', start: p, end: p + cut }, { word: tail, tag: t.tag, start: p + cut, end: p + w.length });
          split = true;
        } else if (affix(tail) && lex.vocabularySet.has(head)) {
          tokens.push({ word: head, tag: t.tag, start: p, end: p + cut }, { word: tail, tag: 'x', start: p + cut, end: p + w.length });
          split = true;
        }
      }
    }
    if (!split) tokens.push({ word: w, tag: t.tag, start: p, end: p + w.length });
    p += w.length;
  }
  for (const n of negations(text)) {
    const inside = tokens.filter((t) => t.start < n.wordEnd && t.end > n.start);
    if (inside.length === 0) continue;
    const from = Math.min(...inside.map((t) => t.start));
    const to = Math.max(...inside.map((t) => t.end));
    tokens.splice(tokens.indexOf(inside[0]), inside.length, { word: text.slice(from, to), tag: 'n', start: from, end: to, compound: n.compound });
  }
  return tokens;
}

/**
 * Adjacent words that together spell a word of the administrators' entries (奶茶 + 铺子 when
 * 奶茶铺子 is an alias) become that one word, longest first, so that the entry applies to it.
 */
function joinLexiconWords(text: string, tokens: Token[], lexicon: QueryLexicon): Token[] {
  if (lexicon.longest === 0) return tokens;
  const out: Token[] = [];
  for (let i = 0; i < tokens.length;) {
    let last = -1;
    for (let j = i + 1; j < tokens.length && tokens[j].end - tokens[i].start <= lexicon.longest; j++) {
      if (tokens[j].compound) break;
      if (lexicon.joins(text.slice(tokens[i].start, tokens[j].end))) last = j;
    }
    if (last < 0 || tokens[i].compound) {
      out.push(tokens[i++]);
      continue;
    }
    out.push({ word: text.slice(tokens[i].start, tokens[last].end), tag: 'n', start: tokens[i].start, end: tokens[last].end });
    i = last + 1;
  }
  return out;
}

/** One key standing for all of a word, as typed (shown as `text`). */
function typedKey(b: PlanBuilder, key: string, text = key): Alternative {
  return { text, origin: 'word', weight: 1, expansion: false, parts: [{ term: b.term(key, key, 'word'), share: 1 }] };
}

/** Result complements after a one-character verb (砍掉, 卖了, 修好): the verb is what says the action. */
const COMPLEMENTS = new Set('掉了完好过下上走成起开');
/** Most words a verb and its object may stand apart (砍自家门口的树: 自, 家门口, 的). */
const MAX_OBJECT_GAP = 3;

/**
 * A verb and its object said apart (砍自家门口的树, 修个庙, 砍掉几棵行道树) form the phrase
 * people also say together (砍树, 修庙, 砍行道树): when some permit is named by that phrase, it
 * is an alternative of both words, found as typed. Only light words, question words and fillers
 * may stand between the two.
 */
function addVerbObjects(concepts: Draft[], named: NamedKey, b: PlanBuilder): Set<number> {
  const verbs = new Set<number>();
  concepts.forEach((verb, i) => {
    const v = verb.token;
    if (!(v.tag.startsWith('v') || verb.kind === 'stage') || v.compound) return;
    const stems = v.word.length === 2 && COMPLEMENTS.has(v.word[1]) ? [v.word, v.word[0]] : [v.word];
    for (let j = i + 1; j < concepts.length && j - i - 1 <= MAX_OBJECT_GAP; j++) {
      const object = concepts[j];
      if (object.kind === 'content' || object.kind === 'single') {
        // Adjacent words form the phrase already, as the question's bigrams and words.
        if (j === i + 1 && stems.length === 1) return;
        for (const stem of stems) {
          const phrase = stem + object.token.word;
          if (!named(phrase)) continue;
          for (const c of [verb, object]) c.alternatives.push(typedKey(b, phrase));
          object.withVerb = phrase;
          verbs.add(i);
          return;
        }
        // A one-character word that forms nothing with the verb may be a measure word (修条路).
        if (object.kind === 'content') return;
        continue;
      }
      if ((object.kind !== 'light' && object.kind !== 'intent') || object.token.tag.startsWith('v')) return;
    }
  });
  return verbs;
}

/** Most subjects of one run whose pairs are looked up. */
const MAX_PAIRED = 8;

/**
 * Two subjects of the question that stand together in a knowledge phrase (国道 and 广告牌 in
 * 国道边广告牌) are found by that phrase's pair key (permit-knowledge.ts): an alternative of both.
 * An object said apart from its verb takes part as the phrase the two form (河上…修桥).
 */
function addPairs(concepts: Draft[], named: NamedKey, b: PlanBuilder): void {
  const subjects = concepts.filter((c) => (c.kind === 'content' || c.withVerb) && !c.token.compound).slice(0, MAX_PAIRED);
  const units = subjects.map((c) => (c.withVerb ? [...wordUnits(c.token.word), c.withVerb] : wordUnits(c.token.word)));
  for (let i = 0; i < subjects.length; i++) {
    for (let j = i + 1; j < subjects.length; j++) {
      for (const u of units[i]) {
        for (const v of units[j]) {
          const key = u === v ? null : pairKey(u, v);
          if (!key || !named(key)) continue;
          for (const c of [subjects[i], subjects[j]]) c.alternatives.push(typedKey(b, key));
        }
      }
    }
  }
}

/**
 * Homophone corrections, only where the question is not an ordinary word and has no match as
 * written: a bigram that names no permit and is not a word of the question, at least one of
 * whose characters lies outside an ordinary word (a dictionary word of two or more characters)
 * and outside anything that names a permit. The name bigrams that sound alike become
 * alternatives of the words holding those characters.
 */
function addCorrections(text: string, tokens: Token[], concepts: Draft[], vocab: PinyinVocab, named: NamedKey, b: PlanBuilder): void {
  const ordinary = (t: Token) => t.word.length >= 2 && t.tag !== 'x';
  const settled = (t: Token) => ordinary(t) || named(t.compound ?? t.word);
  let readings: string[][] | null = null;
  for (let i = 0; i + 1 < text.length; i++) {
    const bigram = text.slice(i, i + 2);
    if (named(bigram) || tokens.some((t) => t.word === bigram && t.start === i)) continue;
    const open = concepts.filter((c) => c.token.start < i + 2 && c.token.end > i && !settled(c.token) && c.kind !== 'intent');
    if (open.length === 0) continue;
    readings ??= pinyin(text, { type: 'array', toneType: 'none', v: true }).map((r) => [r]);
    for (const alike of vocab.soundAlikes(bigram, readings.slice(i, i + 2)).slice(0, MAX_CORRECTIONS)) {
      for (const c of open) {
        const share = 1 / Math.max(1, c.token.word.length - 1);
        c.alternatives.push({
          text: alike,
          origin: 'correction',
          weight: W.correction,
          expansion: true,
          parts: [{ term: b.term(alike, alike, 'correction'), share }],
        });
      }
    }
  }
}
