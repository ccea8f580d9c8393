/**
 * End-to-end import speed: generates a 50,000-risk-row workbook, then times a bare exceljs read,
 * parseWorkbook, the upload (parse + store + preview), a preview of the stored session, the
 * commit into an empty database and a second, unchanged commit. Prints peak RSS.
 *
 *   npx tsx --expose-gc bench/import.ts [riskRows]
 *   BENCH_PG_URL=postgres://user:pass@host/db npx tsx --expose-gc bench/import.ts   (also on PostgreSQL; the database is emptied)
 *
 * Targets: preview ≤ 1.5× the bare read, commit ≥ 20,000 risk rows/s on SQLite, peak RSS < 600 MB.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { COLUMNS } from '../src/modules/importer/parser/columns.js';
import { parseWorkbook } from '../src/modules/importer/parser/parse-workbook.js';
import { commitImport } from '../src/modules/importer/commit.service.js';
import { previewSession } from '../src/modules/importer/preview.service.js';
import { createImportSession } from '../src/modules/importer/upload.service.js';
import { loadCurrentUser } from '../src/modules/users/users.repository.js';

const RISK_ROWS = Number(process.argv[2] ?? 50_000);
const RISKS_PER_PERMIT = 5;
const SHEETS = 5;
const THEMES = ['开办餐饮店', '建设工程施工', '道路运输经营', '举办大型活动'];
const PHRASES = ['未取得许可擅自经营', '提交虚假材料申请许可', '超出许可范围从事经营活动', '出租出借许可证件',
  '未按规定办理变更手续', '场所条件不符合许可要求', '从业人员未取得相应资格', '未建立安全管理制度'];

const phrase = (seed: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => PHRASES[(seed + i * 3) % PHRASES.length]).join('，');

/** Streams the workbook to disk (so generating it does not count towards the import's memory). */
async function generateWorkbook(path: string): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const perSheet = Math.ceil(RISK_ROWS / SHEETS);
  for (let s = 0; s < SHEETS; s++) {
    const ws = writer.addWorksheet(`部门${s + 1}`);
    ws.addRow([`基准测试许可事项风险清单（部门${s + 1}）`]).commit();
    ws.addRow(COLUMNS.map((c) => c.canonical)).commit();
    for (let i = s * perSheet; i < Math.min(RISK_ROWS, (s + 1) * perSheet); i++) {
      const p = Math.floor(i / RISKS_PER_PERMIT);
      const first = i % RISKS_PER_PERMIT === 0;
      const permit = first
        ? ['广安区', p % 5 === 0 ? THEMES[p % THEMES.length] : '', `许可事项${p}经营许可核发`, `BENCH${String(p).padStart(8, '0')}`,
          '县级', '区行政审批局、区市场监管局', '审批科 0826-2381681', '0826-2306250']
        : ['', '', '', '', '', '', '', ''];
      ws.addRow([...permit, '无证经营', `${phrase(i, 2)}\n${phrase(i + 1, 6)}`, '《行政许可法》第三十一条、第七十八条',
        phrase(i + 2, 5), phrase(i + 3, 3), ['高', '中', '低'][i % 3], first ? '是' : '']).commit();
    }
    ws.commit();
  }
  await writer.commit();
}

async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.hrtime.bigint();
  const out = await fn();
  return [out, Number(process.hrtime.bigint() - start) / 1e6];
}

const ms = (v: number) => `${v.toFixed(0).padStart(6)} ms`;

async function runDatabase(label: string, databaseUrl: string, dataDir: string, buf: Buffer, bare: number): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ADMIN_PASSWORD: 'Bench-Pass-123', DEMO_DATA: '0', LOG_LEVEL: 'silent' });
  const { app, ctx } = await buildApp(config, { logger: false });
  try {
    if (databaseUrl.startsWith('postgres')) {
      await sql`truncate permits, risks, permit_files, import_sessions, snapshot_batches, regions, themes restart identity cascade`.execute(ctx.db);
    }
    await ctx.db.insertInto('regions').values({ name: '广安区', code: '511602', created_at: new Date().toISOString() }).execute();
    const row = await ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow();
    const admin = (await loadCurrentUser(ctx.db, row.id))!;
    const upload = { filename: 'bench.xlsx', contentType: null, content: buf };

    const [session, uploadMs] = await time(() => createImportSession(ctx, admin, upload, { mode: 'auto', departmentId: null }));
    if (session.error_count > 0) throw new Error(`bench workbook has errors: ${JSON.stringify(session.findings)}`);
    const [, previewMs] = await time(() => previewSession(ctx, admin, session.session_id));
    const request = { sessionId: session.session_id, sheets: [], overrides: {}, themeBindings: {}, editedBy: 'bench', changeSummary: null };
    const [result, commitMs] = await time(() => commitImport(ctx, admin, request));
    const [again, recommitMs] = await time(() => commitImport(ctx, admin, request));
    if (result.totals.risks !== RISK_ROWS || again.totals.unchanged !== result.totals.permits) throw new Error('unexpected commit result');

    console.log(`\n${label}`);
    console.log(`  upload (parse + store + preview) ${ms(uploadMs)}   ${(uploadMs / bare).toFixed(2)}× bare read`);
    console.log(`  preview of the stored session    ${ms(previewMs)}   ${(previewMs / bare).toFixed(2)}× bare read`);
    console.log(`  commit (${result.totals.permits} new permits)      ${ms(commitMs)}   ${Math.round(RISK_ROWS / (commitMs / 1000))} risk rows/s`);
    console.log(`  commit again (all unchanged)     ${ms(recommitMs)}`);
  } finally {
    await app.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'lawrisk-bench-'));
try {
  const file = join(dir, 'bench.xlsx');
  await generateWorkbook(file);
  const buf = readFileSync(file);
  console.log(`workbook: ${RISK_ROWS} risk rows in ${SHEETS} sheets, ${(buf.length / 1024 / 1024).toFixed(1)} MB`);

  // One untimed round of each warms up the JIT, so the two reads are compared on equal terms.
  await new ExcelJS.Workbook().xlsx.load(buf as unknown as ExcelJS.Buffer);
  await parseWorkbook(buf);
  const [, bare] = await time(() => new ExcelJS.Workbook().xlsx.load(buf as unknown as ExcelJS.Buffer));
  const [, parse] = await time(() => parseWorkbook(buf));
  console.log(`  bare exceljs read                ${ms(bare)}`);
  console.log(`  parseWorkbook                    ${ms(parse)}   ${(parse / bare).toFixed(2)}× bare read`);

  await runDatabase('SQLite', `sqlite:${join(dir, 'bench.db')}`, dir, buf, bare);
  if (process.env.BENCH_PG_URL) await runDatabase('PostgreSQL', process.env.BENCH_PG_URL, dir, buf, bare);
  console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
