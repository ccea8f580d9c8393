/**
 * Workbook parser throughput: builds a 50,000-risk-row workbook in the import layout, then times
 * a bare exceljs load and parseWorkbook on the same buffer (median of several runs each).
 *
 *   npx tsx bench/import-parse.ts [riskRows] [runs]
 *   node --expose-gc --import tsx bench/import-parse.ts   (steadier: collects garbage between runs)
 */
import ExcelJS from 'exceljs';
import { parseWorkbook } from '../src/modules/importer/parser/parse-workbook.js';
import { COLUMNS } from '../src/modules/importer/parser/columns.js';
import { benchParseLimits, median, riskPhrase, timed } from './import-run.js';

const RISK_ROWS = Number(process.argv[2] ?? 50_000);
const RUNS = Number(process.argv[3] ?? 5);
const RISKS_PER_PERMIT = 4;

function text(seed: number, parts: number): string {
  let out = '';
  for (let i = 0; i < parts; i++) out += riskPhrase(seed + i * 3) + (i % 2 ? '；' : '，');
  return out;
}

/** Permit cells on the first row of each block, blank below (the usual hand-made layout). */
async function buildWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('风险清单');
  ws.addRow(['广安区行政许可事项法律风险清单']);
  ws.addRow(COLUMNS.map((c) => c.canonical));
  for (let i = 0; i < RISK_ROWS; i++) {
    const p = Math.floor(i / RISKS_PER_PERMIT);
    const first = i % RISKS_PER_PERMIT === 0;
    const permit = first
      ? [
          '广安区',
          p % 7 === 0 ? '开办餐饮店、建设工程施工' : '',
          `许可事项${p}经营许可核发`,
          `511A${String(p).padStart(10, '0')}`,
          '县级',
          '区行政审批局、区市场监管局',
          '审批科 0826-2381681',
          '0826-2306250',
        ]
      : ['', '', '', '', '', '', '', ''];
    ws.addRow([
      ...permit,
      '无证经营',
      `${text(i, 2)}\n${text(i + 1, 6)}`,
      '《行政许可法》第三十一条、第七十八条',
      text(i + 2, 5),
      text(i + 3, 3),
      ['高', '中', '低'][i % 3],
      first ? '是' : '',
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const time = async (fn: () => Promise<unknown>) => (await timed(fn))[1];

const buf = await buildWorkbook();
console.log(`workbook: ${RISK_ROWS} risk rows, ${(buf.length / 1024 / 1024).toFixed(1)} MB, ${RUNS} runs each`);

// One untimed run of each warms up the JIT.
await new ExcelJS.Workbook().xlsx.load(buf as unknown as ExcelJS.Buffer);
await parseWorkbook(buf, benchParseLimits());

const bare: number[] = [];
const ours: number[] = [];
let risks = 0;
for (let i = 0; i < RUNS; i++) {
  bare.push(await time(() => new ExcelJS.Workbook().xlsx.load(buf as unknown as ExcelJS.Buffer)));
  ours.push(
    await time(async () => {
      const parsed = await parseWorkbook(buf, benchParseLimits());
      risks = parsed.sheets.reduce((n, s) => n + s.permits.reduce((m, p) => m + p.risks.length, 0), 0);
    }),
  );
}
if (risks !== RISK_ROWS) throw new Error(`parsed ${risks} risks, expected ${RISK_ROWS}`);

const b = median(bare);
const o = median(ours);
console.log(`exceljs load (bare): median ${b.toFixed(0)} ms  [${bare.map((x) => x.toFixed(0)).join(', ')}]`);
console.log(`parseWorkbook:       median ${o.toFixed(0)} ms  [${ours.map((x) => x.toFixed(0)).join(', ')}]`);
console.log(`ratio parse/bare: ${(o / b).toFixed(2)}`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
