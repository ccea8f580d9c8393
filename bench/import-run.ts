/** The "import" part of bench/import.ts: the service's own upload → preview → commit path on one database. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { commitImport } from '../src/modules/importer/commit.service.js';
import { previewSession } from '../src/modules/importer/preview.service.js';
import { createImportSession, uploadParseLimits } from '../src/modules/importer/upload.service.js';
import { loadCurrentUser } from '../src/modules/auth/current-user.repository.js';

/** Collects garbage first (with --expose-gc), so a phase does not pay for the one before. */
export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.hrtime.bigint();
  const out = await fn();
  return [out, Number(process.hrtime.bigint() - start) / 1e6];
}

const PHRASES = [
  '未取得许可擅自经营',
  '提交虚假材料申请许可',
  '超出许可范围从事经营活动',
  '出租出借许可证件',
  '未按规定办理变更手续',
  '场所条件不符合许可要求',
  '从业人员未取得相应资格',
  '未建立安全管理制度',
];
/** Risk texts of the generated workbooks: the `seed`th of a few phrases such lists use. */
export const riskPhrase = (seed: number) => PHRASES[seed % PHRASES.length];

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/**
 * The bench's workbook (750,000 cells, 27 MB unpacked for 50,000 risk rows) is far above the
 * defaults sized from the real workbooks: the settings an administrator importing such workbooks
 * would give, and a parse memory that does not hold the parse back.
 */
export const BENCH_SETTINGS = { IMPORT_MAX_CELLS: '2000000', IMPORT_MAX_UNCOMPRESSED_BYTES: String(128 * 1024 * 1024), IMPORT_PARSE_MEMORY_MB: '1024' };
export const benchParseLimits = () => uploadParseLimits(loadConfig(BENCH_SETTINGS));

async function emptyPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('drop schema public cascade; create schema public');
  } finally {
    await client.end();
  }
}

export async function runImport(file: string, riskRows: number, databaseUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lawrisk-bench-data-'));
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'Bench-Pass-123',
    DEMO_DATA: '0',
    LOG_LEVEL: 'silent',
    ...BENCH_SETTINGS,
  });
  // Every round starts on an empty database, as SQLite's new file does: the service then starts
  // with an empty catalogue (not the last round's permits in its search index) and migrates.
  if (databaseUrl.startsWith('postgres')) await emptyPostgres(databaseUrl);
  const { app, ctx } = await buildApp(config, { logger: false });
  try {
    await ctx.db.insertInto('regions').values({ name: '广安区', code: '511602', created_at: new Date().toISOString() }).execute();
    // Times the search-index follow-up of a commit apart from the import's own work.
    let search = 0;
    ctx.onDataChanged = ctx.onDataChanged.map((listener) => async (change) => {
      const start = process.hrtime.bigint();
      await listener(change);
      search += Number(process.hrtime.bigint() - start) / 1e6;
    });
    const row = await ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow();
    const admin = (await loadCurrentUser(ctx.db, row.id))!;
    const upload = { filename: 'bench.xlsx', contentType: null, content: readFileSync(file) };

    const [session, uploadMs] = await timed(() => createImportSession(ctx, admin, upload, { mode: 'auto', departmentId: null }));
    if (session.error_count > 0) throw new Error(`bench workbook has errors: ${JSON.stringify(session.findings)}`);
    const [, previewMs] = await timed(() => previewSession(ctx, admin, session.session_id));
    const request = { sessionId: session.session_id, sheets: [], overrides: {}, themeBindings: {}, editedBy: 'bench', changeSummary: null };
    const [result, commitMs] = await timed(() => commitImport(ctx, admin, request));
    const searchMs = search;
    const [again, recommitMs] = await timed(() => commitImport(ctx, admin, request));
    if (result.totals.risks !== riskRows || again.totals.unchanged !== result.totals.permits) throw new Error('unexpected commit result');
    return { upload: uploadMs, preview: previewMs, commit: commitMs, search: searchMs, recommit: recommitMs, permits: result.totals.permits, rss: peakRssMb() };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
