import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ParseWorkers } from './parse-workers.js';
import { OUT_OF_MEMORY_MESSAGE, WorkbookRejected } from './parser/errors.js';
import { DEFAULT_PARSE_LIMITS } from './parser/parse-limits.js';
import { parseWorkbook } from './parser/parse-workbook.js';
import { CANONICAL_HEADER, gridWorkbook, row, workbookBuffer } from './parser/test-support.js';

const CITY = readFileSync(new URL('../../../test/fixtures/corpus/workbooks/广安市市级许可事项风险清单.xlsx', import.meta.url));
const TINY = await workbookBuffer([CANONICAL_HEADER, row({ 许可事项: '甲', 风险点: '乙' })]);
/** 60,000 text cells: within every count, but more than a 32 MB heap can parse. */
const HEAVY_ROWS = 4000;

const opened: ParseWorkers[] = [];
const workers = (memoryMb: number, keepIdleMs?: number, keepHeapBytes?: number) => {
  const w = new ParseWorkers(memoryMb, keepIdleMs, keepHeapBytes);
  opened.push(w);
  return w;
};
afterEach(async () => {
  for (const w of opened.splice(0)) await w.close();
});

const rejection = async (p: Promise<unknown>) => {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkbookRejected);
  return [(err as WorkbookRejected).message, (err as WorkbookRejected).reason];
};

describe('parse worker threads', () => {
  it("give exactly what parseWorkbook gives in the process, keep the caller's buffer, and hand a refusal back as the parser made it", async () => {
    const w = workers(384);
    const content = Buffer.from(CITY);
    expect(await w.parse(content, DEFAULT_PARSE_LIMITS)).toEqual(await parseWorkbook(CITY));
    expect(content.equals(CITY)).toBe(true);
    expect(await rejection(w.parse(CITY, { ...DEFAULT_PARSE_LIMITS, maxCells: 100 }))).toEqual([
      '工作簿单元格数超过上限（每个工作簿最多 100 个单元格），已拒绝',
      'too_many_cells',
    ]);
  });

  it('keep a thread that finished for the next parse, one parse at a time each, and end it once idle or when it grew large', async () => {
    const w = workers(384);
    await w.parse(TINY, DEFAULT_PARSE_LIMITS);
    expect(w.idleThreads).toBe(1);
    await w.parse(TINY, { ...DEFAULT_PARSE_LIMITS, maxCells: 1 }).catch(() => null);
    expect(w.idleThreads).toBe(1);
    await Promise.all([w.parse(TINY, DEFAULT_PARSE_LIMITS), w.parse(TINY, DEFAULT_PARSE_LIMITS)]);
    expect(w.idleThreads).toBe(2);

    const brief = workers(384, 50);
    await brief.parse(TINY, DEFAULT_PARSE_LIMITS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(brief.idleThreads).toBe(0);

    // A thread whose heap grew past what is worth keeping is ended at once.
    const large = workers(384, 60_000, 1);
    await large.parse(TINY, DEFAULT_PARSE_LIMITS);
    expect(large.idleThreads).toBe(0);
  });

  it("refuse a workbook that fills a thread's memory, ending only that thread; the next parse runs normally", async () => {
    const w = workers(32);
    expect(await rejection(w.parse(await gridWorkbook(HEAVY_ROWS), DEFAULT_PARSE_LIMITS))).toEqual([OUT_OF_MEMORY_MESSAGE, 'out_of_memory']);
    expect(w.idleThreads).toBe(0);
    expect((await w.parse(CITY, DEFAULT_PARSE_LIMITS)).sheets).toHaveLength(1);
    expect(w.idleThreads).toBe(1);
  });
});
