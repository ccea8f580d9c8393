import type { AppContext } from '../../context.js';
import { bulkInserter } from '../../db/bulk-insert.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest } from '../../http/errors.js';
import type { CurrentUser } from '../auth/current-user.js';
import { writeChange } from '../changes/change-transaction.js';
import { applyImportPlan } from './apply-plan.js';
import type { CommitRequest } from './commit-input.js';
import type { ImportPlan, PlanOptions, SheetCounts } from './import-plan.types.js';
import { openSession, parsedOf } from './import-session.js';
import type { Finding, ParsedWorkbook } from './parser/types.js';
import { presentCommit, presentSheetCounts, type CommitResult } from './importer.presenter.js';
import { allFindings } from './plan-findings.js';
import { planSession } from './preview.service.js';

/** How many errors the refusal message spells out; `data.errors` carries all of them. */
const ERRORS_IN_MESSAGE = 5;

function describeFinding(f: Finding): string {
  const where = [f.sheet ? `工作表“${f.sheet}”` : '工作簿', f.row !== null ? `第 ${f.row} 行` : '', f.column ? `${f.column} 列` : ''].filter(Boolean).join(' ');
  return `${where}${f.header ? `（${f.header}）` : ''}：${f.message}`;
}

/** Refuses a plan that still has errors, naming the first few (all of them in `data.errors`). */
function assertCommittable(plan: ImportPlan): void {
  const errors = allFindings(plan).filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    const shown = errors.slice(0, ERRORS_IN_MESSAGE).map(describeFinding).join('；');
    const more = errors.length > ERRORS_IN_MESSAGE ? `；等共 ${errors.length} 个错误` : '';
    throw badRequest(`所选工作表存在错误，未导入任何数据：${shown}${more}`, { data: { errors } });
  }
  if (plan.permits.length === 0) throw badRequest('所选工作表中没有可导入的许可事项');
}

/** The sheets holding a table: a header row and data rows. */
const tableSheets = (workbook: ParsedWorkbook) => workbook.sheets.filter((s) => s.headerRow !== null && s.dataRows > 0).map((s) => s.name);

/** The sheets to apply: the ones asked for (each must exist), else every sheet with a header and data. */
function chooseSheets(workbook: ParsedWorkbook, req: CommitRequest): string[] {
  const names = new Set(workbook.sheets.map((s) => s.name));
  const named = [...req.sheets, ...Object.keys(req.overrides), ...Object.keys(req.themeBindings)];
  const unknown = named.filter((n) => !names.has(n));
  if (unknown.length > 0) throw badRequest(`工作表不存在：${[...new Set(unknown)].join('、')}`);
  const sheets = req.sheets.length > 0 ? req.sheets : tableSheets(workbook);
  if (sheets.length === 0) throw badRequest('工作簿中没有可导入的工作表（需要表头行和数据行）');
  return sheets;
}

/** The session, its workbook and the plan options a commit request names (sheets checked to exist). */
async function commitInputs(ctx: AppContext, user: CurrentUser, req: CommitRequest) {
  const session = await openSession(ctx.db, user, req.sessionId, nowIso(ctx.now));
  const workbook = parsedOf(ctx, session);
  const sheets = chooseSheets(workbook, req);
  const options: PlanOptions = { sheets, overrides: req.overrides, themeBindings: req.themeBindings };
  // Sheets left out of the commit may hold other regions' rows (the archived file's region).
  const wholeWorkbook = tableSheets(workbook).every((s) => sheets.includes(s));
  return { session, workbook, options, wholeWorkbook };
}

/**
 * Commit step: recomputes the plan inside one transaction that holds the catalogue lock (so it
 * matches the database it is written to, even when another instance committed a moment before),
 * refuses it while errors remain, applies it all or nothing, and tells the search indexes which
 * permits changed.
 */
export async function commitImport(ctx: AppContext, user: CurrentUser, req: CommitRequest): Promise<CommitResult> {
  const { session, workbook, options, wholeWorkbook } = await commitInputs(ctx, user, req);
  const now = nowIso(ctx.now);
  const { plan, outcome } = await ctx.metrics.time('import_commit', () =>
    writeChange(
      ctx,
      async (trx) => {
        const { plan } = await planSession(trx, user, session, workbook, options);
        assertCommittable(plan);
        const changeSummary = req.changeSummary ?? `导入 ${session.filename}`;
        const outcome = await applyImportPlan(trx, bulkInserter(ctx.dbh, trx), plan, { session, editedBy: req.editedBy, changeSummary, now, wholeWorkbook });
        return { plan, outcome };
      },
      ({ outcome }) => (outcome.touchedPermitIds.length > 0 ? { kind: 'permits', permitIds: outcome.touchedPermitIds, docs: outcome.newSearchDocs } : null),
      { catalogueLock: true },
    ),
  );
  return presentCommit(session, plan, outcome);
}

export interface CommitCheck {
  sheets: Array<{ sheet: string } & SheetCounts>;
  totals: SheetCounts;
  regions_to_create: string[];
  themes_to_create: string[];
}

/**
 * What a commit request would apply, refused exactly as the commit refuses it, without writing
 * anything (the command line's dry run, and its check of every workbook before committing any).
 */
export async function checkCommit(ctx: AppContext, user: CurrentUser, req: CommitRequest): Promise<CommitCheck> {
  const { session, workbook, options } = await commitInputs(ctx, user, req);
  const { plan } = await planSession(ctx.db, user, session, workbook, options);
  assertCommittable(plan);
  return { sheets: presentSheetCounts(plan), totals: plan.totals, regions_to_create: plan.newRegions, themes_to_create: plan.newThemes };
}

/** The operation-log summary of a commit (the route and the command line write the same). */
export function describeCommit(r: CommitResult): string {
  const t = r.totals;
  return (
    `导入 ${r.filename}：${t.permits} 个许可事项（新增 ${t.new}、更新 ${t.changed}、未变 ${t.unchanged}），` +
    `${t.risks} 条风险（新增 ${t.risks_added}、移除 ${t.risks_removed}）`
  );
}
