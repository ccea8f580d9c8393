import type { ImportPlan } from './import-plan.types.js';
import type { ColumnMapping, FieldKey, Finding, ParsedSheet } from './parser/types.js';

/** Canonical header names of the columns the database-aware findings point at. */
const HEADERS: Partial<Record<FieldKey, string>> = { region: '区域', themes: '主题', permitName: '许可事项' };

export function columnOf(sheet: ParsedSheet, field: FieldKey): ColumnMapping | undefined {
  return sheet.columns.find((c) => c.field === field);
}

/**
 * Collects the findings the parser cannot know (they need the database and the user), once per
 * sheet and subject: a region missing from the catalog is reported at its first row, not at
 * every row that names it.
 */
export class SheetFindings {
  private readonly seen = new Set<string>();

  constructor(
    private readonly sheet: ParsedSheet,
    readonly list: Finding[],
  ) {}

  add(severity: Finding['severity'], code: string, field: FieldKey | null, row: number | null, message: string, once = true): void {
    const dedupe = `${code}\u0000${message}`;
    if (once && this.seen.has(dedupe)) return;
    this.seen.add(dedupe);
    const column = field ? columnOf(this.sheet, field) : undefined;
    this.list.push({
      severity,
      code,
      sheet: this.sheet.name,
      row,
      column: column?.letter ?? null,
      header: field ? (column?.canonical ?? HEADERS[field] ?? null) : null,
      message,
    });
  }
}

export const countBy = (findings: Finding[], severity: Finding['severity']) => findings.reduce((n, f) => n + (f.severity === severity ? 1 : 0), 0);

/** Every finding of a plan: the workbook's own and each sheet's. */
export function allFindings(plan: ImportPlan): Finding[] {
  return [...plan.workbookFindings, ...plan.sheets.flatMap((s) => s.findings)];
}
