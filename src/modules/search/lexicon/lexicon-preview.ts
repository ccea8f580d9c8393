import type { AppContext } from '../../../context.js';
import { badRequest, tooMany } from '../../../http/errors.js';
import type { CurrentUser } from '../../auth/current-user.js';
import { AdminLexicon } from '../engine/admin-lexicon.js';
import type { SearchIndexHolder } from '../search-index.service.js';
import { MAX_RESULTS } from '../search.service.js';
import { rulesOf } from './lexicon.repository.js';
import { proposedEntries, type LexiconChange } from './lexicon.service.js';

/** How many of the recent questions a preview answers (its `limit`). */
export const PREVIEW_LIMIT = { def: 1000, min: 1, max: 5000 };
/** Changed questions listed in full; the counts cover them all. */
const SHOWN = 200;
/** Questions answered between two yields to the event loop: a preview never holds up searches for long. */
const BATCH = 50;
/**
 * A change of aliases is answered on the live index re-indexed for it and back in one
 * synchronous stretch (no request runs meanwhile, none sees it): the questions it answers are
 * limited to `stretchMs`, and it may re-index at most `permits` permits (each twice, there and back).
 */
const ALIAS_IN_PLACE = { stretchMs: 2000, permits: 5000 };
/** The log entries, last first, whose distinct questions a preview answers: its read stays bounded however long the log. */
const LOG_WINDOW = 200_000;

interface Permit {
  permit_id: string;
  name: string;
}

export interface PreviewedQuestion {
  query: string;
  region_ids: string[] | null;
  asks: number;
  askers: number;
  before: Permit[];
  after: Permit[];
  entered: (Permit & { rank: number })[];
  left: (Permit & { rank: number })[];
  moved: (Permit & { from: number; to: number })[];
}

export interface LexiconPreview {
  checked: number;
  changed: number;
  /** How often the changed questions were asked, and by how many distinct askers (each day's askers count apart). */
  asks: number;
  askers: number;
  changes: PreviewedQuestion[];
}

/** The distinct questions (with their region filters) asked last, each with how often and by how many. */
async function recentQuestions(ctx: AppContext, limit: number) {
  const last = await ctx.readDb
    .selectFrom('query_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const rows = await ctx.readDb
    .selectFrom('query_log')
    .where('id', '>', Number(last?.id ?? 0) - LOG_WINDOW)
    .select((eb) => [
      'query',
      'region_ids',
      eb.fn.countAll<number>().as('asks'),
      eb.fn.count<number>('asker').distinct().as('askers'),
      eb.fn.max('asked_at').as('last'),
    ])
    .groupBy(['query', 'region_ids'])
    .orderBy('last', 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
  // A filter that named no region ('') answers nothing, whatever the lexicon.
  return rows
    .filter((r) => r.region_ids !== '')
    .map((r) => ({ query: r.query, regionIds: r.region_ids === null ? null : r.region_ids.split(','), asks: Number(r.asks), askers: Number(r.askers) }));
}

/** What one question's answer becomes: the permits that enter it, leave it, and move in it. */
function compare(before: Permit[], after: Permit[]): Pick<PreviewedQuestion, 'entered' | 'left' | 'moved'> {
  const rankIn = (list: Permit[], id: string) => list.findIndex((p) => p.permit_id === id) + 1;
  return {
    entered: after.filter((p) => rankIn(before, p.permit_id) === 0).map((p) => ({ ...p, rank: rankIn(after, p.permit_id) })),
    left: before.filter((p) => rankIn(after, p.permit_id) === 0).map((p) => ({ ...p, rank: rankIn(before, p.permit_id) })),
    moved: after
      .filter((p) => rankIn(before, p.permit_id) > 0 && rankIn(before, p.permit_id) !== rankIn(after, p.permit_id))
      .map((p) => ({ ...p, from: rankIn(before, p.permit_id), to: rankIn(after, p.permit_id) })),
  };
}

const busy = new WeakSet<SearchIndexHolder>();

/**
 * Answers the last `limit` distinct logged questions with the entries as they are and as the
 * change would leave them (docs/search-lexicon.md), and lists the questions whose answers differ.
 * One preview at a time per instance.
 */
export async function previewLexiconChange(
  ctx: AppContext,
  holder: SearchIndexHolder,
  actor: CurrentUser,
  change: LexiconChange,
  limit: number,
): Promise<LexiconPreview> {
  if (busy.has(holder)) throw tooMany('另一个预览正在进行，请稍后再试');
  busy.add(holder);
  try {
    const { before, after } = await proposedEntries(ctx.db, actor, change);
    const questions = await recentQuestions(ctx, limit);
    const beforeLexicon = new AdminLexicon(rulesOf(before));
    const afterLexicon = new AdminLexicon(rulesOf(after));
    const live = holder.current;
    const answer = (lexicon: AdminLexicon, q: (typeof questions)[number]): Permit[] =>
      live.search(q.query, { regionIds: q.regionIds, lexicon, limit: MAX_RESULTS }).hits.map((h) => ({ permit_id: h.doc.permitId, name: h.doc.name }));
    const changes: PreviewedQuestion[] = [];
    const take = (q: (typeof questions)[number], was: Permit[], will: Permit[]) => {
      const diff = compare(was, will);
      if (diff.entered.length + diff.left.length + diff.moved.length > 0)
        changes.push({ query: q.query, region_ids: q.regionIds, asks: q.asks, askers: q.askers, before: was, after: will, ...diff });
    };
    let checked = questions.length;
    if (beforeLexicon.aliasSignature === live.adminLexicon.aliasSignature && afterLexicon.aliasSignature === beforeLexicon.aliasSignature) {
      // Only synonyms, expansions or curation change: given with each question, on the index as it is.
      for (let i = 0; i < questions.length; i++) {
        if (i > 0 && i % BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
        take(questions[i], answer(beforeLexicon, questions[i]), answer(afterLexicon, questions[i]));
      }
    } else {
      const toBefore = live.aliasChanges(beforeLexicon);
      const reach = Math.max(toBefore.length, live.aliasChanges(afterLexicon).length);
      if (reach > ALIAS_IN_PLACE.permits)
        throw badRequest(`这项别名改动涉及 ${reach} 个许可，超过预览上限 ${ALIAS_IN_PLACE.permits} 个；可以缩小名称模式后再预览`);
      const original = live.adminLexicon;
      const was: Permit[][] = [];
      const started = performance.now();
      try {
        live.setLexicon(beforeLexicon, toBefore);
        for (const q of questions) {
          if (performance.now() - started > ALIAS_IN_PLACE.stretchMs / 2) break;
          was.push(answer(beforeLexicon, q));
        }
        live.setLexicon(afterLexicon);
        was.forEach((answers, i) => take(questions[i], answers, answer(afterLexicon, questions[i])));
      } finally {
        live.setLexicon(original);
      }
      checked = was.length;
    }
    changes.sort((a, b) => b.asks - a.asks || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
    return {
      checked,
      changed: changes.length,
      asks: changes.reduce((n, c) => n + c.asks, 0),
      askers: changes.reduce((n, c) => n + c.askers, 0),
      changes: changes.slice(0, SHOWN),
    };
  } finally {
    busy.delete(holder);
  }
}
