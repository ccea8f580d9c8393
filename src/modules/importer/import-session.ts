import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import type { CurrentUser } from '../auth/current-user.js';
import { ALL_REGIONS_GRADE, inScope, regionScope } from '../auth/data-scope.js';
import { findDepartmentById } from '../departments/departments.repository.js';
import { findRegionById, type RegionRow } from '../regions/regions.repository.js';
import type { PlanActor, PlanOptions } from './import-plan.types.js';
import { findLiveSession, type ImportSessionHead } from './import-sessions.repository.js';
import { presentBoundDepartment, type BoundDepartment } from './importer.presenter.js';
import { decodeParsed } from './parsed-codec.js';
import type { ParsedWorkbook } from './parser/types.js';
import { text } from './plan-diff.js';
import { RefIndex } from './plan-refs.js';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const GONE = '导入会话不存在或已过期，请重新上传文件';

/**
 * A live session the user may work with. Below grade 90 only the uploader's own sessions are
 * visible (a session holds another department's workbook otherwise).
 */
export async function openSession(db: Executor, user: CurrentUser, sessionId: string | undefined, now: string): Promise<ImportSessionHead> {
  if (!sessionId) throw badRequest('session_id 不能为空');
  const session = await findLiveSession(db, sessionId, now);
  if (!session) throw badRequest(GONE);
  if (user.grade < ALL_REGIONS_GRADE && session.uploader_id !== user.id) throw badRequest(GONE);
  return session;
}

/** The session's parsed workbook (kept in memory between the steps of an import, see ParsedWorkbookCache). */
export function parsedOf(ctx: AppContext, session: ImportSessionHead): ParsedWorkbook {
  return ctx.parsedWorkbooks.get(session.id, () => decodeParsed(session.parsed));
}

/** Who is planning: the user's scope and rights, and the region the session's binding supplies. */
export async function planActorFor(
  db: Executor,
  user: CurrentUser,
  session: ImportSessionHead,
): Promise<{ actor: PlanActor; department: BoundDepartment | null }> {
  const dept = session.binding_mode === 'department' && session.department_id !== null ? await findDepartmentById(db, session.department_id) : undefined;
  const region = dept?.region_id ? await findRegionById(db, dept.region_id) : undefined;
  const department = dept ? presentBoundDepartment(dept, region) : null;
  const bindingRegion = region ? { id: region.id, name: region.name } : null;
  return { actor: { scope: regionScope(user), canCreateRegions: user.grade >= ALL_REGIONS_GRADE, bindingRegion }, department };
}

/**
 * The existing regions a plan will touch (named in cells, overrides or the binding) that the
 * user may see: only their permits are loaded for the comparison.
 */
export function regionIdsNamed(workbook: ParsedWorkbook, options: PlanOptions, actor: PlanActor) {
  return (regions: RegionRow[]): number[] => {
    const index = new RefIndex(regions);
    const ids = new Set<number>();
    const add = (token: string | null, acceptId: boolean) => {
      const id = token === null ? undefined : index.find(token, acceptId)?.id;
      if (id !== undefined && id !== null) ids.add(id);
    };
    for (const sheet of workbook.sheets) {
      for (const p of sheet.permits) add(text(p.region), false);
      add(options.overrides[sheet.name]?.region ?? null, true);
    }
    if (actor.bindingRegion?.id) ids.add(actor.bindingRegion.id);
    return [...ids].filter((id) => inScope(actor.scope, id));
  };
}
