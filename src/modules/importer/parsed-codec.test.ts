import { describe, expect, it } from 'vitest';
import { parseWorkbook } from './parser/parse-workbook.js';
import { decodeParsed, encodeParsed } from './parsed-codec.js';
import { QIANFENG, workbookBytes } from './import.test-helpers.js';

describe('stored form of a parsed workbook', () => {
  it('round-trips a real workbook exactly, much smaller than its JSON', async () => {
    const parsed = await parseWorkbook(workbookBytes(QIANFENG));
    const stored = await encodeParsed(parsed);
    expect(decodeParsed(stored)).toEqual(parsed);
    expect(stored.length).toBeLessThan(Buffer.byteLength(JSON.stringify(parsed)) / 4);
  });

  it('round-trips an empty workbook and reads plain JSON', async () => {
    const empty = { sheets: [], findings: [] };
    expect(decodeParsed(await encodeParsed(empty))).toEqual(empty);
    expect(decodeParsed(JSON.stringify(empty))).toEqual(empty);
  });
});
