import { stableOrder } from './doc-table.js';
import { nameForms } from './name-forms.js';
import { abbreviates, lastRunEnd, longestCommonRun, nameMatchShare } from './name-match.js';
import type { Stage } from './lexicon.js';
import { stageOfName } from './permit-knowledge.js';
import { EXPLAIN_WEIGHT, P } from './ranking-params.js';
import type { ConceptScorer } from './concept-score.js';
import type { Candidate } from './retrieve.js';
import type { Concept, ConceptKind, QueryPlan } from './query-terms.js';
import type { CutReason, SearchDoc } from './types.js';

export interface Ranked {
  doc: number;
  /** Final score: concepts × name match × stage. */
  score: number;
  /** Sum of the concepts' scores. */
  base: number;
  /** The factor the share of the question explained puts on the score. */
  coord: number;
  nameShare: number;
  stageMatch: boolean;
  /** How well the permit explains the question's subjects: their weighted mean quality, and the best. */
  explained: number;
  strongest: number;
  /** How well it explains each subject (in the order of RankOutcome.subjects). */
  subjectQuality: number[];
  hits: Candidate['hits'];
}

export interface RankOutcome {
  ranked: Ranked[];
  /** The question's subjects (concept indices): what a hit must explain. */
  subjects: number[];
  /** How well the best-scoring candidate explains each subject, answered or not (empty without one). */
  bestSubjectQuality: number[];
  /** Set when the answer is no_match. */
  noMatch: CutReason | null;
  /** Candidates cut after scoring (debug). */
  cut: { doc: number; reason: CutReason; score: number; explained: number }[];
  /** How many of the first ranked were pinned by curation (index.ts). */
  pinned?: number;
}

export interface RankContext {
  plan: QueryPlan;
  scorer: ConceptScorer;
  docOf(doc: number): SearchDoc;
}

/**
 * Second stage on the retrieved candidates: concept scores, weighed by how much of the question
 * they explain, the contiguous-match bonus on the permit name and the stage bonus; then the order
 * — score, ties broken by region and permit code, never by an index's internal order — and the
 * decisions: no_match when the best hit explains too little of the question, and the cut of
 * hits far below the best or explaining too little.
 */
export function rankCandidates(cands: Candidate[], ctx: RankContext, limit: number): RankOutcome {
  const picked = subjects(ctx.plan);
  if (picked.length === 0 || cands.length === 0) return { ranked: [], subjects: picked, bestSubjectQuality: [], noMatch: 'nothing', cut: [] };
  const all = scoreCandidates(cands, ctx, picked);
  all.sort((a, b) => b.score - a.score || stableOrder(ctx.docOf(a.doc), ctx.docOf(b.doc)));
  const best = all[0];
  if (!best || best.score <= 0) return { ranked: [], subjects: picked, bestSubjectQuality: [], noMatch: 'nothing', cut: [] };
  const cut: RankOutcome['cut'] = [];
  const outcome = { subjects: picked, bestSubjectQuality: best.subjectQuality };
  if (best.explained < P.minExplained || best.strongest < P.minStrongest) {
    for (const r of all) cut.push({ doc: r.doc, reason: 'unexplained', score: r.score, explained: r.explained });
    return { ranked: [], ...outcome, noMatch: 'unexplained', cut };
  }
  const ranked: Ranked[] = [];
  for (const r of all) {
    const reason: CutReason | null = r.score < P.relativeCutoff * best.score ? 'relative' : r.explained < P.minExplainedHit ? 'hit_unexplained' : null;
    if (reason) cut.push({ doc: r.doc, reason, score: r.score, explained: r.explained });
    else if (ranked.length < limit) ranked.push(r);
  }
  return { ranked, ...outcome, noMatch: null, cut };
}

/** Each candidate's score and how well it explains the question's subjects (`picked`), in the candidates' order. */
export function scoreCandidates(cands: Candidate[], ctx: RankContext, picked: number[] = subjects(ctx.plan)): Ranked[] {
  const { plan, scorer } = ctx;
  const wantStages: Stage[] = plan.stages.filter((s) => s !== '新办');
  const shareByName = new Map<string, number>();
  return cands.map((c) => {
    const doc = ctx.docOf(c.doc);
    const total = scorer.score(c.hits);
    let nameShare = shareByName.get(doc.name);
    if (nameShare === undefined) shareByName.set(doc.name, (nameShare = nameMatchShare(plan, doc.name)));
    const stage = stageOfName(doc.name);
    const stageMatch = wantStages.length > 0 ? wantStages.includes(stage) : stage === '新办';
    const { mean, strongest, each } = explanation(plan, picked, scorer.quality, doc.name);
    // A permit that explains all of the question ranks above one that explains a part of it
    // better: the score counts by how much of the question it explains.
    const coord = P.coordFloor + (1 - P.coordFloor) * mean;
    const score = total * coord * (1 + P.phraseBonus * nameShare) * (1 + (stageMatch ? (wantStages.length > 0 ? P.namedStageBonus : P.stageBonus) : 0));
    return { doc: c.doc, score, base: total, coord, nameShare, stageMatch, explained: mean, strongest, subjectQuality: each, hits: c.hits };
  });
}

/**
 * With a region filter: a region whose best hit leaves part of the question unexplained and
 * scores far below the whole catalogue's best (`catalogueBest`, asked for only then) lacks what
 * is asked about — the answer is no_match. A filter chooses among the catalogue's answers; it
 * does not lower the bar.
 */
export function withinRegion(outcome: RankOutcome, catalogueBest: () => number): RankOutcome {
  const best = outcome.ranked[0];
  if (!best || best.explained >= 1 || best.score >= P.regionRelative * catalogueBest()) return outcome;
  const cut = [...outcome.ranked.map((r) => ({ doc: r.doc, reason: 'elsewhere' as const, score: r.score, explained: r.explained })), ...outcome.cut];
  return { ...outcome, ranked: [], noMatch: 'elsewhere', cut };
}

/**
 * The concepts a hit must explain for the question to be answered: its subjects — the words that
 * name what is asked about (content words, latin runs) — or, in a question without any, its
 * other words (stages, light words); never intent words or bridges.
 */
function subjects(plan: QueryPlan): number[] {
  const pick = (kinds: ConceptKind[]) => plan.concepts.flatMap((c, i) => (kinds.includes(c.kind) && !isLatinReading(c) ? [i] : []));
  const main = pick(['content', 'single']);
  return main.length > 0 ? main : pick(['light', 'stage']);
}

/** Pinyin and initials read from a latin run: they explain the run's letters, they are not subjects of their own. */
const isLatinReading = (c: Concept) => c.kind === 'sound';

/**
 * How well a document explains the question's subjects: the weighted mean of their qualities
 * (0..1) and the best of them. A latin run counts as explained as far as its letters are spelt
 * by matched pinyin or initials (or, for initials, by a run of the permit name's initials).
 */
function explanation(plan: QueryPlan, picked: number[], quality: Float64Array, name: string): { mean: number; strongest: number; each: number[] } {
  let sum = 0;
  let total = 0;
  let strongest = 0;
  const each: number[] = [];
  for (const i of picked) {
    const c = plan.concepts[i];
    let q = Math.min(1, quality[i]);
    if (c.kind === 'content' && !isCjk(c.text)) q = Math.max(q, letterCoverage(plan, c, quality, name));
    // A public service that is not a permit here is what such a question is about: unexplained, it
    // outweighs the words a permit happens to share with the question.
    const w = EXPLAIN_WEIGHT[c.kind] * (c.outside ? P.outsideWeight : 1);
    sum += w * q;
    total += w;
    strongest = Math.max(strongest, q);
    each.push(q);
  }
  return { mean: total > 0 ? sum / total : 0, strongest, each };
}

const isCjk = (text: string) => /^[\u3400-\u9fff]/.test(text);

/** The share of a latin run's letters that matched pinyin or initials stand for, by their quality. */
function letterCoverage(plan: QueryPlan, run: Concept, quality: Float64Array, name: string): number {
  const q = new Float32Array(run.end - run.start);
  plan.concepts.forEach((c, i) => {
    if (!isLatinReading(c) || quality[i] <= 0) return;
    for (let p = Math.max(c.start, run.start); p < Math.min(c.end, run.end); p++) q[p - run.start] = Math.max(q[p - run.start], Math.min(1, quality[i]));
  });
  for (const r of plan.initials) {
    if (r.start !== run.start) continue;
    const initials = nameForms(name).initials;
    if (abbreviates(r.text, initials)) {
      q.fill(1);
      continue;
    }
    // Part of the run found together is weaker evidence the more of it is missing.
    const length = longestCommonRun(r.text, initials);
    if (length < 2) continue;
    for (let p = lastRunEnd.value - length; p < lastRunEnd.value; p++) q[p] = Math.max(q[p], length / r.text.length);
  }
  return q.reduce((a, b) => a + b, 0) / q.length;
}
