import type { SheetCounts } from '../modules/importer/import-plan.types.js';
import type { CommitResult } from '../modules/importer/importer.presenter.js';
import type { Finding } from '../modules/importer/parser/types.js';
import type { SessionDescription } from '../modules/importer/preview.service.js';
import { plural } from './format.js';
import { renderTable } from './table.js';

/** How the import command shows a workbook: its findings and its per-sheet counts, as tables. */

function where(f: Finding): string {
  return [f.column, f.header].filter(Boolean).join(' ');
}

export function findingsTable(findings: Finding[]): string {
  if (findings.length === 0) return 'no findings\n';
  return renderTable(
    ['sheet', 'row', 'column', 'severity', 'message'],
    findings.map((f) => [f.sheet ?? '(workbook)', f.row === null ? '' : String(f.row), where(f), f.severity, f.message]),
    { right: [1] },
  );
}

const COUNT_COLUMNS: Array<[keyof SheetCounts, string]> = [
  ['permits', 'permits'],
  ['risks', 'risks'],
  ['new', 'new'],
  ['changed', 'changed'],
  ['unchanged', 'unchanged'],
  ['risks_added', 'risks added'],
  ['risks_removed', 'risks removed'],
  ['themes_linked', 'themes linked'],
];

export function countsTable(sheets: Array<{ sheet: string } & SheetCounts>, totals: SheetCounts): string {
  const row = (name: string, c: SheetCounts) => [name, ...COUNT_COLUMNS.map(([k]) => String(c[k]))];
  return renderTable(['sheet', ...COUNT_COLUMNS.map(([, label]) => label)], [...sheets.map((s) => row(s.sheet, s)), row('total', totals)], {
    right: COUNT_COLUMNS.map((_c, i) => i + 1),
  });
}

/** Every finding of a session: the workbook's own, then each sheet's. */
export function sessionFindings(d: SessionDescription): Finding[] {
  return [...d.findings, ...d.sheets.flatMap((s) => s.findings)];
}

export function workbookHeading(name: string, d: SessionDescription): string {
  return `== ${name}: ${plural(d.sheets.length, 'sheet')}, ${plural(d.error_count, 'error')}, ${plural(d.warning_count, 'warning')}\n`;
}

/** The preview's own counts (every sheet as it is), shown when the commit would be refused. */
export function previewCounts(d: SessionDescription): string {
  return countsTable(
    d.sheets.map((s) => ({ sheet: s.name, ...s.counts })),
    d.totals,
  );
}

export function committedLine(name: string, r: CommitResult): string {
  const t = r.totals;
  const snapshot = r.snapshot_batch_id ? `, replaced permits saved as snapshot batch ${r.snapshot_batch_id}` : '';
  return (
    `committed ${name}: ${plural(t.permits, 'permit')} (${t.new} new, ${t.changed} changed, ${t.unchanged} unchanged), ` +
    `${plural(t.risks, 'risk')} (${t.risks_added} added, ${t.risks_removed} removed); archived as file ${r.file_id}${snapshot}\n`
  );
}
