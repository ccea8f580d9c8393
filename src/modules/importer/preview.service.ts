import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { CurrentUser } from '../auth/current-user.js';
import { buildImportPlan } from './import-plan.js';
import type { ImportPlan, ImportState, PlanActor, PlanOptions } from './import-plan.types.js';
import { openSession, parsedOf, planActorFor, regionIdsNamed } from './import-session.js';
import type { ImportSessionHead } from './import-sessions.repository.js';
import type { ParsedWorkbook } from './parser/types.js';
import { loadImportState, loadRegionThemeOptions } from './import-state.repository.js';
import type { SessionDescription as SessionDescriptionSchema } from './import.openapi.js';
import { presentPreview, presentSession, presentThemeOptions, type BoundDepartment, type ThemeOptions } from './importer.presenter.js';

/** The preview compares every sheet as it is: no sheet selection, overrides or theme bindings yet. */
const PREVIEW_OPTIONS: PlanOptions = { sheets: null, overrides: {}, themeBindings: {} };

/** Loads what the plan is compared with and builds it: the one path shared by preview and commit. */
export async function planSession(
  db: Executor,
  user: CurrentUser,
  session: ImportSessionHead,
  workbook: ParsedWorkbook,
  options: PlanOptions,
): Promise<{ plan: ImportPlan; state: ImportState; actor: PlanActor; department: BoundDepartment | null }> {
  const { actor, department } = await planActorFor(db, user, session);
  const state = await loadImportState(db, regionIdsNamed(workbook, options, actor));
  return { plan: buildImportPlan(workbook, state, actor, options), state, actor, department };
}

/** The theme catalog, and the theme options of every region the plan touches (new regions have none yet). */
async function themeOptionsFor(db: Executor, plan: ImportPlan, state: ImportState, actor: PlanActor): Promise<ThemeOptions> {
  const regions = new Map<string, number | null>();
  if (actor.bindingRegion) regions.set(actor.bindingRegion.name, actor.bindingRegion.id);
  for (const p of plan.permits) regions.set(p.region.name, p.region.id);
  const ids = [...regions.values()].filter((id): id is number => id !== null);
  return presentThemeOptions(state.themes, regions, await loadRegionThemeOptions(db, ids));
}

/**
 * The session description: the session, then the preview of all its sheets.
 */
export async function describeSession(db: Executor, user: CurrentUser, session: ImportSessionHead, workbook: ParsedWorkbook): Promise<SessionDescription> {
  const { plan, state, actor, department } = await planSession(db, user, session, workbook, PREVIEW_OPTIONS);
  return { ...presentSession(session, department), ...presentPreview(plan, await themeOptionsFor(db, plan, state, actor)) };
}

export type SessionDescription = Static<typeof SessionDescriptionSchema>;

export async function previewSession(ctx: AppContext, user: CurrentUser, sessionId: string | undefined): Promise<SessionDescription> {
  const session = await openSession(ctx.db, user, sessionId, nowIso(ctx.now));
  return describeSession(ctx.db, user, session, parsedOf(ctx, session));
}
