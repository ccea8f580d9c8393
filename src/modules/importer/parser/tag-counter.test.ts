import { describe, expect, it } from 'vitest';
import { TagCounter } from './tag-counter.js';

/** Counts `tag` in `text` handed over in pieces cut at `cuts`. */
function countInPieces(tag: string, open: boolean, text: string, cuts: number[]): number {
  const counter = new TagCounter(tag, open);
  const buf = Buffer.from(text);
  let from = 0;
  for (const at of [...cuts, buf.length]) {
    counter.add(buf.subarray(from, at));
    from = at;
  }
  return counter.count;
}

const SHEET =
  '<cols><col min="1" max="3"/></cols><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"/>' +
  '<c\tr="C1"><v>2</v></c><c>\n</c></row><row r="2"><c\nr="A2"></c><c\rr="B2"></c></row></sheetData>' +
  '<conditionalFormatting><cfRule type="x"/></conditionalFormatting><colBreaks/><customSheetViews/>';

describe('tag counter', () => {
  it('counts cells by `<c` followed by the end of the name, never <col>, <cfRule> or the like, wherever the chunks are cut', () => {
    const bytes = Buffer.byteLength(SHEET);
    for (let a = 0; a <= bytes; a++) {
      expect(countInPieces('<c', true, SHEET, [a]), `cut at ${a}`).toBe(6);
      expect(countInPieces('</row>', false, SHEET, [a]), `cut at ${a}`).toBe(2);
    }
    // Chunks of one byte each.
    expect(
      countInPieces(
        '<c',
        true,
        SHEET,
        Array.from({ length: bytes }, (_, i) => i),
      ),
    ).toBe(6);
  });

  it('counts shared strings, <si> and <si/>, not <sheetPr> or the like', () => {
    const sst = '<sst count="4"><si><t>甲</t></si><si/><si ><r><t>乙</t></r></si><si>\n<t/></si><sheetPr/><sis/></sst>';
    for (let a = 0; a <= Buffer.byteLength(sst); a++) expect(countInPieces('<si', true, sst, [a])).toBe(4);
  });
});
