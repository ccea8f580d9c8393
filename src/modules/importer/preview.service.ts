import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { CurrentUser } from '../auth/current-user.js';
import { buildImportPlan } from './import-plan.js';
import type { ImportPlan, ImportState, PlanActor, PlanOptions } from './import-plan.types.js';
import { openSession, parsedOf, planActorFor, regionIdsNamed, type BoundDepartment } from './import-session.js';
import type { ImportSessionHead } from './import-sessions.repository.js';
import type { ParsedWorkbook } from './parser/types.js';
import { loadImportState, loadRegionThemeOptions } from './import-state.repository.js';
import type { SessionDescription as SessionDescriptionSchema } from './import.openapi.js';
import { presentPreview, type ThemeOptions } from './preview-presenter.js';
import type { BindingMode } from './session-binding.js';

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
  const options = await loadRegionThemeOptions(db, ids);
  const out: ThemeOptions['regions'] = {};
  for (const [name, id] of regions) {
    out[name] = options
      .filter((o) => o.region_id === id)
      .map((o) => ({ id: String(o.id), name: o.name, option_id: String(o.option_id) }));
  }
  return { catalog: state.themes.map((t) => ({ id: String(t.id), name: t.name })), regions: out };
}

function presentSession(s: ImportSessionHead, department: BoundDepartment | null) {
  return {
    session_id: s.id,
    filename: s.filename,
    content_type: s.content_type,
    size: s.size,
    sha256: s.sha256,
    uploaded_by: s.uploader_name,
    created_at: s.created_at,
    expires_at: s.expires_at,
    committed_at: s.committed_at,
    binding_mode: s.binding_mode as BindingMode, // written by session-binding.ts only
    department,
  };
}

/**
 * The session description of interface 4.7: the session, then the preview of all its sheets.
 */
export async function describeSession(
  db: Executor,
  user: CurrentUser,
  session: ImportSessionHead,
  workbook: ParsedWorkbook,
): Promise<SessionDescription> {
  const { plan, state, actor, department } = await planSession(db, user, session, workbook, PREVIEW_OPTIONS);
  return { ...presentSession(session, department), ...presentPreview(plan, await themeOptionsFor(db, plan, state, actor)) };
}

export type SessionDescription = Static<typeof SessionDescriptionSchema>;

export async function previewSession(ctx: AppContext, user: CurrentUser, sessionId: string | undefined): Promise<SessionDescription> {
  const session = await openSession(ctx.db, user, sessionId, nowIso(ctx.now));
  return describeSession(ctx.db, user, session, parsedOf(ctx, session));
}
