import { describe, expect, it } from 'vitest';
import { parseWorkbook } from './parse-workbook.js';
import { CANONICAL_HEADER } from './test-support.js';
import { columnLetter } from './columns.js';
import { deflatedEntry, MAIN_NS, PKG_REL_NS, REL_NS, rowXml, zipOf } from './test-zip.js';

/**
 * What the sheet reader resolves itself rather than through `xlsx.load`: which parts are the
 * workbook's sheets and in what order. Written by hand so each rule is in the file on purpose.
 */
const sheetXml = (rows: string, tail = '') => `<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>${rows}</sheetData>${tail}</worksheet>`;
/** A data row from canonical column name → text. */
const dataRow = (r: number, cells: Record<string, string>) =>
  rowXml(
    r,
    CANONICAL_HEADER.map((c) => cells[c] ?? null),
  );
const LEGAL_BASIS = columnLetter(CANONICAL_HEADER.indexOf('法律依据') + 1);

describe('sheet reader', () => {
  it('reads the sheets in workbook order, through relative and absolute targets and leading-slash parts, skipping chart sheets', async () => {
    const buf = zipOf([
      // Part order differs from workbook order; one part is named with a leading slash.
      deflatedEntry('xl/worksheets/sheet1.xml', sheetXml(rowXml(1, CANONICAL_HEADER) + dataRow(2, { 许可事项: '甲事项', 风险点: '甲风险' }))),
      deflatedEntry(
        '/xl/worksheets/sheet2.xml',
        sheetXml(
          rowXml(1, ['乙页风险清单']) +
            rowXml(2, CANONICAL_HEADER) +
            dataRow(3, { 许可事项: '乙事项', 风险点: '乙风险一', 法律依据: '《行政许可法》' }) +
            dataRow(4, { 风险点: '乙风险二' }),
          // The legal basis is merged over both risk rows: the second repeats it.
          `<mergeCells count="1"><mergeCell ref="${LEGAL_BASIS}3:${LEGAL_BASIS}4"/></mergeCells>`,
        ),
      ),
      deflatedEntry('xl/chartsheets/sheet1.xml', `<chartsheet xmlns="${MAIN_NS}"/>`),
      deflatedEntry(
        'xl/workbook.xml',
        `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
          '<sheet name="乙" sheetId="2" r:id="rId2"/><sheet name="图表" sheetId="3" r:id="rId3"/><sheet name="甲" sheetId="1" r:id="rId1"/>' +
          '</sheets></workbook>',
      ),
      deflatedEntry(
        'xl/_rels/workbook.xml.rels',
        `<Relationships xmlns="${PKG_REL_NS}">` +
          `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${REL_NS}/worksheet" Target="/xl/worksheets/sheet2.xml"/>` +
          `<Relationship Id="rId3" Type="${REL_NS}/chartsheet" Target="chartsheets/sheet1.xml"/>` +
          '</Relationships>',
      ),
    ]);
    const wb = await parseWorkbook(buf);
    expect(wb.findings).toEqual([]);
    expect(wb.sheets.map((s) => [s.name, s.index, s.headerRow, s.dataRows])).toEqual([
      ['乙', 0, 2, 2],
      ['甲', 1, 1, 1],
    ]);
    expect(wb.sheets.map((s) => s.permits.map((p) => [p.name, p.risks.map((r) => [r.title, r.legalBasis])]))).toEqual([
      [
        [
          '乙事项',
          [
            ['乙风险一', '《行政许可法》'],
            ['乙风险二', '《行政许可法》'],
          ],
        ],
      ],
      [['甲事项', [['甲风险', null]]]],
    ]);
  });
});
