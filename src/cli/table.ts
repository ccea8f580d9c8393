/** Plain-text tables for the terminal, aligned for Chinese text (a CJK character takes two columns). */

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

/** Columns the text takes in a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += WIDE.test(ch) ? 2 : 1;
  return width;
}

function pad(text: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? fill + text : text + fill;
}

export interface TableOptions {
  /** Columns aligned to the right (numbers), by index. */
  right?: number[];
}

/** Header, a rule, then the rows; cells are single lines (line breaks shown as ⏎). */
export function renderTable(headers: string[], rows: string[][], opts: TableOptions = {}): string {
  const clean = (rows: string[][]) => rows.map((r) => r.map((c) => c.replace(/\r?\n/g, ' ⏎ ')));
  const body = clean(rows);
  const widths = headers.map((h, i) => Math.max(displayWidth(h), ...body.map((r) => displayWidth(r[i] ?? ''))));
  const right = new Set(opts.right ?? []);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c ?? '', widths[i], right.has(i)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n') + '\n';
}
