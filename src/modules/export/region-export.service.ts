import ExcelJS from 'exceljs';
import type { DB } from '../../db/database.js';
import { addRiskSheet } from '../importer/template/build-template.js';
import { loadPermitPayloads } from '../permits/permit-payload.js';
import { listRegionPermitIds } from '../permits/permits.repository.js';
import { findRegionByToken, type RegionRow } from '../regions/regions.repository.js';
import { permitRows, unrepresentable } from './region-rows.js';

export interface RegionExport {
  region: RegionRow;
  permits: number;
  risks: number;
  /** The .xlsx file. */
  content: Buffer;
  /** What will not read back unchanged (see unrepresentable); empty in the usual case. */
  warnings: string[];
}

/**
 * One region's catalogue (hidden permits included) as a workbook in the import template layout,
 * which imports back to the same permits, risks, themes, approval departments and visibility.
 * The region is named by id, code or name; undefined when there is none.
 */
export async function exportRegionWorkbook(db: DB, regionToken: string): Promise<RegionExport | undefined> {
  // One state of the catalogue even while others write (a snapshot on both databases).
  const read = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const region = await findRegionByToken(trx, regionToken);
      if (!region) return undefined;
      return { region, permits: await loadPermitPayloads(trx, await listRegionPermitIds(trx, region.id), { withRisks: true }) };
    });
  if (!read) return undefined;
  const { region, permits } = read;
  const wb = new ExcelJS.Workbook();
  wb.creator = '许可事项法律风险查询与管理服务';
  addRiskSheet(
    wb,
    permits.flatMap((p) => permitRows(region.name, p)),
  );
  return {
    region,
    permits: permits.length,
    risks: permits.reduce((n, p) => n + (p.risks?.length ?? 0), 0),
    content: Buffer.from(await wb.xlsx.writeBuffer()),
    warnings: unrepresentable(permits),
  };
}
