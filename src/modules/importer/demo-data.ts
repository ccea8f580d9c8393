import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import type { CurrentUser } from '../auth/current-user.js';
import { findRegionsByTokens, insertRegion } from '../regions/regions.repository.js';
import { loadCurrentUser } from '../auth/current-user.repository.js';
import { commitImport } from './commit.service.js';
import { previewSession } from './preview.service.js';
import { createImportSession } from './upload.service.js';

const DEMO_DIR = fileURLToPath(new URL('../../../demo/workbooks/', import.meta.url));

/**
 * The demo regions, with their administrative codes: one sheet of the 前锋区 workbook names its
 * region by code (511603), which only matches when the region carries it.
 */
const DEMO_REGIONS = [
  { name: '广安市', code: '511600' },
  { name: '广安区', code: '511602' },
  { name: '前锋区', code: '511603' },
];

/** The bundled workbooks, in import order. The 前锋区 ledger has one sheet per theme and no 主题 column. */
const DEMO_WORKBOOKS = [
  { file: '广安市市级许可事项风险清单.xlsx', sheetsAreThemes: false },
  { file: '广安区行政许可事项法律风险清单.xlsx', sheetsAreThemes: false },
  { file: '前锋区许可事项风险台账.xlsx', sheetsAreThemes: true },
];
/** The one sheet of the 前锋区 ledger that is not a theme. */
const UNTHEMED_SHEET = '其他许可事项';

async function ensureDemoRegions(ctx: AppContext): Promise<void> {
  const existing = await findRegionsByTokens(
    ctx.db,
    DEMO_REGIONS.flatMap((r) => [r.name, r.code]),
  );
  for (const r of DEMO_REGIONS) {
    if (existing.some((e) => e.name === r.name || e.code === r.code)) continue;
    await insertRegion(ctx.db, { ...r, created_at: nowIso(ctx.now) });
  }
}

async function defaultAdmin(ctx: AppContext): Promise<CurrentUser | null> {
  const row = await ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').where('is_active', '=', 1).orderBy('id').executeTakeFirst();
  return row ? loadCurrentUser(ctx.db, row.id) : null;
}

/**
 * DEMO_DATA: on a database without permits, imports the bundled workbooks through the same
 * upload → preview → commit functions as the routes, as the default administrator. A workbook
 * that fails is logged and skipped; the service starts either way.
 */
export async function importDemoData(ctx: AppContext): Promise<void> {
  if (!ctx.config.demoData) return;
  if (await ctx.db.selectFrom('permits').select('id').limit(1).executeTakeFirst()) return;
  const admin = await defaultAdmin(ctx);
  if (!admin) {
    ctx.log.warn('demo data skipped: no active administrator account');
    return;
  }
  await ensureDemoRegions(ctx);
  for (const demo of DEMO_WORKBOOKS) {
    try {
      const content = await readFile(`${DEMO_DIR}${demo.file}`);
      const session = await createImportSession(ctx, admin, { filename: demo.file, content }, { mode: 'auto', departmentId: null });
      const preview = await previewSession(ctx, admin, session.session_id);
      const themeBindings: Record<string, string[]> = {};
      if (demo.sheetsAreThemes) {
        for (const s of preview.sheets) if (s.name !== UNTHEMED_SHEET) themeBindings[s.name] = [s.name];
      }
      const result = await commitImport(ctx, admin, {
        sessionId: session.session_id,
        sheets: [],
        overrides: {},
        themeBindings,
        editedBy: admin.username,
        changeSummary: '导入演示数据',
      });
      ctx.log.info(`demo data: imported ${demo.file}: ${result.totals.permits} permits, ${result.totals.risks} risks, ${preview.warning_count} warnings`);
    } catch (err) {
      ctx.log.error({ err }, `demo data: could not import ${demo.file}`);
    }
  }
}
