/**
 * End-to-end import speed on a generated 50,000-risk-row workbook:
 *   - read:   a bare exceljs read and parseWorkbook of the same file (warmed up, then timed); the
 *             same parse in a worker thread, as uploads run it, and the first parse of a one-row
 *             workbook in a new thread (starting it and loading exceljs and the parser: the fixed
 *             cost of an upload's parse when no thread is kept from the last one);
 *   - import: upload (parse + store + preview), preview of the stored session, commit into an
 *             empty database (with the search-index follow-up shown apart), and an unchanged re-commit.
 * Each part runs in its own child process, so its peak RSS is its own (V8 keeps freed heap, and
 * the reference reads would otherwise inflate the import's figure).
 *
 *   npx tsx --expose-gc bench/import.ts [riskRows]
 *   BENCH_PG_URL=postgres://user:pass@host/db npx tsx --expose-gc bench/import.ts   (adds PostgreSQL; that database's public schema is dropped and made again every round)
 *   BENCH_ROUNDS=5 …   (rounds; medians are printed, default 3)
 *
 * Targets: preview ≤ 1.5× the bare read, commit ≥ 20,000 risk rows/s on SQLite, peak RSS < 600 MB.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { COLUMNS } from '../src/modules/importer/parser/columns.js';
import { ParseWorkers } from '../src/modules/importer/parse-workers.js';
import { parseWorkbook } from '../src/modules/importer/parser/parse-workbook.js';
import { BENCH_SETTINGS, benchParseLimits, median, peakRssMb, riskPhrase, runImport, timed } from './import-run.js';

const RISKS_PER_PERMIT = 5;
const SHEETS = 5;
const THEMES = ['开办餐饮店', '建设工程施工', '道路运输经营', '举办大型活动'];

const phrase = (seed: number, parts: number) => Array.from({ length: parts }, (_, i) => riskPhrase(seed + i * 3)).join('，');

/** Streams the workbook to disk: every permit column filled on its first row, blank below. */
async function generateWorkbook(path: string, riskRows: number): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const perSheet = Math.ceil(riskRows / SHEETS);
  for (let s = 0; s < SHEETS; s++) {
    const ws = writer.addWorksheet(`部门${s + 1}`);
    ws.addRow([`基准测试许可事项风险清单（部门${s + 1}）`]).commit();
    ws.addRow(COLUMNS.map((c) => c.canonical)).commit();
    for (let i = s * perSheet; i < Math.min(riskRows, (s + 1) * perSheet); i++) {
      const p = Math.floor(i / RISKS_PER_PERMIT);
      const first = i % RISKS_PER_PERMIT === 0;
      const permit = first
        ? [
            '广安区',
            p % 5 === 0 ? THEMES[p % THEMES.length] : '',
            `许可事项${p}经营许可核发`,
            `BENCH${String(p).padStart(8, '0')}`,
            '县级',
            '区行政审批局、区市场监管局',
            '审批科 0826-2381681',
            '0826-2306250',
          ]
        : ['', '', '', '', '', '', '', ''];
      ws.addRow([
        ...permit,
        '无证经营',
        `${phrase(i, 2)}\n${phrase(i + 1, 6)}`,
        '《行政许可法》第三十一条、第七十八条',
        phrase(i + 2, 5),
        phrase(i + 3, 3),
        ['高', '中', '低'][i % 3],
        first ? '是' : '',
      ]).commit();
    }
    ws.commit();
  }
  await writer.commit();
}

/** Child part "read": one untimed round of each warms the JIT, then one timed round of each; then the parse in a worker thread. */
async function runRead(file: string) {
  const buf = readFileSync(file);
  const limits = benchParseLimits();
  await new ExcelJS.Workbook().xlsx.load(buf as unknown as ExcelJS.Buffer);
  await parseWorkbook(buf, limits);
  const [, bare] = await timed(() => new ExcelJS.Workbook().xlsx.load(buf as unknown as ExcelJS.Buffer));
  const [, parse] = await timed(() => parseWorkbook(buf, limits));
  const rss = peakRssMb();

  const oneRow = new ExcelJS.Workbook();
  oneRow.addWorksheet('风险清单').addRow(COLUMNS.map((c) => c.canonical));
  const small = Buffer.from(await oneRow.xlsx.writeBuffer());
  const workers = new ParseWorkers(Number(BENCH_SETTINGS.IMPORT_PARSE_MEMORY_MB));
  try {
    const [, threadStart] = await timed(() => workers.parse(small, limits));
    const [, inWorker] = await timed(() => workers.parse(buf, limits));
    return { bare, parse, rss, threadStart, inWorker };
  } finally {
    await workers.close();
  }
}

/** Runs one part of the bench in a fresh process with the same runtime flags and returns its JSON line. */
function child(part: string, ...args: string[]): any {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), part, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

const ms = (v: number) => `${v.toFixed(0).padStart(6)} ms`;
/** The median of a figure over the rounds, with every round's value (a busy machine shows as spread). */
const figure = (xs: number[]) => `${ms(median(xs))}  [${xs.map((x) => x.toFixed(0)).join(', ')}]`;

async function main(): Promise<void> {
  const [part, file, riskArg, dbUrl] = process.argv.slice(2);
  if (part === 'read') return void console.log(JSON.stringify(await runRead(file)));
  if (part === 'import') return void console.log(JSON.stringify(await runImport(file, Number(riskArg), dbUrl)));

  const riskRows = Number(part ?? 50_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-bench-'));
  try {
    const path = join(dir, 'bench.xlsx');
    await generateWorkbook(path, riskRows);
    console.log(`workbook: ${riskRows} risk rows in ${SHEETS} sheets, ${(readFileSync(path).length / 1024 / 1024).toFixed(1)} MB; ${rounds} rounds, medians`);
    const targets: Array<[string, string | null]> = [['SQLite', null]];
    if (process.env.BENCH_PG_URL) targets.push(['PostgreSQL', process.env.BENCH_PG_URL]);
    const reads: any[] = [];
    const imports = new Map<string, any[]>(targets.map(([label]) => [label, []]));
    // Rounds interleave the parts, so a load spike on the machine hits each of them alike.
    for (let round = 0; round < rounds; round++) {
      reads.push(child('read', path));
      for (const [label, url] of targets) {
        imports.get(label)!.push(child('import', path, String(riskRows), url ?? `sqlite:${join(dir, `bench-${round}.db`)}`));
      }
    }
    const bare = median(reads.map((r) => r.bare));
    const of = (rs: any[], key: string) => rs.map((r) => r[key] as number);
    console.log(`  bare exceljs read                ${figure(of(reads, 'bare'))}`);
    console.log(`  parseWorkbook                    ${figure(of(reads, 'parse'))}   ${(median(of(reads, 'parse')) / bare).toFixed(2)}× bare read`);
    console.log(`  peak RSS of the reading process  ${median(of(reads, 'rss'))} MB`);
    console.log(
      `  parse in a kept worker thread    ${figure(of(reads, 'inWorker'))}   ${(median(of(reads, 'inWorker')) / median(of(reads, 'parse'))).toFixed(2)}× in the process`,
    );
    console.log(
      `  a new thread's first parse       ${figure(of(reads, 'threadStart'))}   (a one-row workbook: starting the thread, loading exceljs and the parser)`,
    );
    for (const [label, rs] of imports) {
      const commit = median(of(rs, 'commit'));
      const search = median(of(rs, 'search'));
      console.log(`\n${label}`);
      console.log(`  upload (parse + store + preview) ${figure(of(rs, 'upload'))}   ${(median(of(rs, 'upload')) / bare).toFixed(2)}× bare read`);
      console.log(`  preview of the stored session    ${figure(of(rs, 'preview'))}   ${(median(of(rs, 'preview')) / bare).toFixed(2)}× bare read`);
      console.log(`  commit (${rs[0].permits} new permits)      ${figure(of(rs, 'commit'))}   ${Math.round(riskRows / (commit / 1000))} risk rows/s`);
      console.log(
        `    of which search-index update   ${figure(of(rs, 'search'))}   (without it: ${Math.round(riskRows / ((commit - search) / 1000))} risk rows/s)`,
      );
      console.log(`  commit again (all unchanged)     ${figure(of(rs, 'recommit'))}`);
      console.log(`  peak RSS of the import process   ${Math.max(...of(rs, 'rss'))} MB (highest round)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
