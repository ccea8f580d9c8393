import ExcelJS from 'exceljs';
import { COLUMNS } from '../../src/modules/importer/parser/columns.js';
import type { FieldKey } from '../../src/modules/importer/parser/types.js';

export interface PlannedPermit {
  index: number;
  name: string;
  code: string;
}

const plannedPermits = (count: number, name: (n: number) => string, prefix: string): PlannedPermit[] =>
  Array.from({ length: count }, (_, i) => ({ index: i, name: name(i + 1), code: `${prefix}${String(i + 1).padStart(4, '0')}` }));

/**
 * What the mixed bench writes, so that any answer or the final database can be checked against it:
 * - versioned permits, imported again in every round k with 1 to 7 risks (a different number each
 *   round) whose titles all carry the marker 【v<k>】;
 * - restorable permits, imported once with a fixed risk list (marker 【r】), then deleted and
 *   restored from their snapshot over and over.
 * All in one region of their own, created through the API, under one theme (a permit must have a
 * theme to be deleted).
 */
export class LoadPlan {
  readonly region = { name: '负载校验区', code: '519901' };
  readonly theme = '负载校验主题';
  readonly versioned: PlannedPermit[];
  readonly restorable: PlannedPermit[];

  constructor(versioned: number, restorable: number) {
    this.versioned = plannedPermits(versioned, (n) => `负载校验第${n}号许可`, 'LOADV');
    this.restorable = plannedPermits(restorable, (n) => `负载恢复第${n}号许可`, 'LOADR');
  }

  /** The risk titles of a versioned permit after round k, in order. */
  versionTitles(p: PlannedPermit, round: number): string[] {
    const count = 1 + ((round * 5 + p.index * 3) % 7);
    return Array.from({ length: count }, (_, j) => `${p.name}风险${j + 1}【v${round}】`);
  }

  restorableTitles(p: PlannedPermit): string[] {
    return Array.from({ length: 2 + (p.index % 3) }, (_, j) => `${p.name}风险${j + 1}【r】`);
  }

  /** The round a risk title belongs to, or null when it carries no version marker. */
  static roundOf(title: string): number | null {
    const m = /【v(\d+)】/.exec(title);
    return m ? Number(m[1]) : null;
  }

  /**
   * The workbook of round k, in the import layout (docs/import.md): a banner
   * row, the header, then one row per risk with the permit columns on the first row of each
   * permit block only. Round 1 also holds the restorable permits.
   */
  async workbook(round: number): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('负载校验');
    ws.addRow([`负载校验许可事项风险清单（第${round}轮）`]);
    ws.addRow(COLUMNS.map((c) => c.canonical));
    const block = (p: PlannedPermit, titles: string[]) =>
      titles.forEach((title, j) => {
        const permit: Partial<Record<FieldKey, string>> =
          j > 0
            ? {}
            : {
                region: this.region.name,
                themes: this.theme,
                permitName: p.name,
                permitCode: p.code,
                implementationLevel: '县级',
                approvalDepartments: '负载校验审批局',
                contactInfo: '0826-0000000',
              };
        const risk: Partial<Record<FieldKey, string>> = {
          riskType: '程序风险',
          riskPoint: `${title}\n未按规定办理第${j + 1}项手续的后果说明`,
          legalBasis: '《行政许可法》第八十一条',
          consequence: '责令改正',
          prevention: '按规定办理',
          level: ['高', '中', '低'][j % 3],
        };
        const values: Partial<Record<FieldKey, string>> = { ...permit, ...risk };
        ws.addRow(COLUMNS.map((c) => values[c.field] ?? ''));
      });
    for (const p of this.versioned) block(p, this.versionTitles(p, round));
    if (round === 1) for (const p of this.restorable) block(p, this.restorableTitles(p));
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
}
