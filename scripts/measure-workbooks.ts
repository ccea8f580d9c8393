/**
 * What the real workbooks hold, as the import's zip guard counts it: the figures the import limits
 * are sized from (docs/import.md, src/modules/importer/parser/parse-limits.ts).
 *   npx tsx scripts/measure-workbooks.ts [workbook.xlsx …]
 * Without arguments: the reference corpus and the demo workbooks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkEntries, inspectZip } from '../src/modules/importer/parser/zip-guard.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIRS = ['test/fixtures/corpus/workbooks', 'demo/workbooks'];
const UNLIMITED = { maxRows: Infinity, maxCells: Infinity, maxSharedStrings: Infinity };

const given = process.argv.slice(2);
const files =
  given.length > 0
    ? given
    : DIRS.flatMap((dir) =>
        readdirSync(join(ROOT, dir))
          .filter((f) => f.endsWith('.xlsx'))
          .map((f) => join(ROOT, dir, f)),
      );

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const rows: Array<Record<string, string | number>> = [];
const largest = { cells: 0, sharedStrings: 0, part: 0, unpacked: 0 };
for (const file of files) {
  const buf = readFileSync(file);
  const zip = inspectZip(buf, Infinity);
  const counts = await checkEntries(buf, zip, UNLIMITED);
  const part = zip.items.reduce((max, e) => (e.size > max.size ? e : max));
  rows.push({
    workbook: relative(ROOT, file),
    file: kb(buf.length),
    rows: counts.rows,
    cells: counts.cells,
    'shared strings': counts.sharedStrings,
    'largest part': `${kb(part.size)} (${part.name})`,
    unpacked: kb(zip.uncompressedBytes),
  });
  largest.cells = Math.max(largest.cells, counts.cells);
  largest.sharedStrings = Math.max(largest.sharedStrings, counts.sharedStrings);
  largest.part = Math.max(largest.part, part.size);
  largest.unpacked = Math.max(largest.unpacked, zip.uncompressedBytes);
}
console.table(rows);
console.log(
  `largest: ${largest.cells} cells, ${largest.sharedStrings} shared strings, a ${kb(largest.part)} part, ${kb(largest.unpacked)} unpacked; ` +
    `×10: ${largest.cells * 10} cells, ${largest.sharedStrings * 10} shared strings, ${((largest.part * 10) / 1024 / 1024).toFixed(1)} MB part, ` +
    `${((largest.unpacked * 10) / 1024 / 1024).toFixed(1)} MB unpacked`,
);
