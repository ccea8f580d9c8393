import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Executor } from '../../db/database.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { DialectKind } from '../../db/connect.js';
import { createRegion } from '../../../test/helpers/fixtures.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { dumpTables, type DataDump } from '../../../test/helpers/data-dump.js';
import { COVERED_TABLES } from '../checkpoints/checkpoint-tables.js';
import { copyRiskFields } from '../permits/risk.schema.js';
import type { CorpusPermit } from '../../../test/helpers/seed-catalog.js';

export const WORKBOOKS = new URL('../../../test/fixtures/corpus/workbooks/', import.meta.url);
export const QIANFENG = '前锋区许可事项风险台账.xlsx';
export const GUANGAN_DISTRICT = '广安区行政许可事项法律风险清单.xlsx';
export const GUANGAN_CITY = '广安市市级许可事项风险清单.xlsx';

export interface ManifestSheet {
  name: string;
  header_row: number | null;
  first_data_row?: number;
  data_rows: number;
  permits?: number;
  risks?: number;
}

export interface ManifestFinding {
  sheet: string | null;
  row: number | null;
  column: string | null;
  severity: 'error' | 'warning';
  problem: string;
  severity_below_grade_90?: 'error';
}

export interface ManifestWorkbook {
  file: string;
  regions: string[];
  sheets: ManifestSheet[];
  permits?: number;
  risks?: number;
  theme_bindings?: Record<string, string | null>;
  expected_findings?: ManifestFinding[];
}

export const manifest = JSON.parse(readFileSync(new URL('manifest.json', WORKBOOKS), 'utf8')) as { workbooks: ManifestWorkbook[] };

export const workbookBytes = (file: string) => readFileSync(new URL(file, WORKBOOKS));

/** The three regions of the corpus with their codes (a sheet of the 前锋区 workbook names its region by code). */
export async function seedCorpusRegions(db: Executor): Promise<Record<string, number>> {
  return {
    广安市: await createRegion(db, '广安市', '511600'),
    广安区: await createRegion(db, '广安区', '511602'),
    前锋区: await createRegion(db, '前锋区', '511603'),
  };
}

/** The caller of the import routes, as a browser session would use them, on one instance (a TestApp, or `{app}`). */
export function importer(t: { app: FastifyInstance }) {
  const upload = (cookie: string, content: Buffer, filename: string, fields: Record<string, string> = {}) => {
    const { payload, headers } = multipartBody(fields, { file: { filename, content } });
    return t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers: { ...headers, cookie } });
  };
  const commit = (cookie: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/commit`, payload: body, headers: { cookie } });
  const preview = (cookie: string, sessionId: string) => t.app.inject({ url: `${API}/admin/permit-import/session/${sessionId}/preview`, headers: { cookie } });
  /** Upload then commit, asserting both succeed; returns the commit result. */
  const importFile = async (cookie: string, file: string, body: Record<string, unknown> = {}, content: Buffer = workbookBytes(file)) => {
    const up = await upload(cookie, content, file.split('/').pop()!);
    if (up.statusCode !== 200) throw new Error(`upload of ${file} failed: ${up.body}`);
    const res = await commit(cookie, { session_id: up.json().data.session_id, ...body });
    if (res.statusCode !== 200) throw new Error(`commit of ${file} failed: ${res.body}`);
    return res.json().data;
  };
  return { upload, commit, preview, importFile };
}

/**
 * A test application on a fresh database with the corpus regions, the administrator logged in, and
 * the import routes at hand; `env` adds settings. IMPORT_RATE_LIMIT is off unless `env` sets it:
 * these suites upload more often in a minute than a clerk would, and the limit has its own test
 * (import-load-limits.test.ts).
 */
export async function importerApp(
  dialect: DialectKind,
  env: Record<string, string> = {},
): Promise<{ t: TestApp; admin: string; imp: ReturnType<typeof importer> }> {
  const t = await buildTestApp(dialect, { env: { IMPORT_RATE_LIMIT: '0', ...env } });
  await seedCorpusRegions(t.dbh.db);
  return { t, admin: await t.login(), imp: importer(t) };
}

export const json = (res: LightMyRequestResponse) => res.json<{ success: boolean; message?: string; data: any }>();

/** Every data table and the import sessions, rows as text, to prove a refused or failed commit changed nothing. */
export function dumpDatabase(db: Executor): Promise<DataDump> {
  return dumpTables(db, [...COVERED_TABLES.map((c) => c.name), 'import_sessions']);
}

/** A copy of a workbook with one cell changed (exceljs writes what a user saving in Excel would). */
export async function editWorkbook(content: Buffer, edit: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(content as unknown as ExcelJS.Buffer);
  edit(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * The catalogue as stored, in the corpus's shape, keyed `<region code>:<permit code>` (the region's
 * name stands in for a missing code, the permit's name for a missing permit code).
 */
export async function storedCatalogue(db: Executor) {
  const permits = await db
    .selectFrom('permits as p')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .select([
      'p.id',
      'p.code',
      'p.name',
      'p.implementation_level',
      'p.internal_contact',
      'p.contact_info',
      'p.visible',
      'r.code as region_code',
      'r.name as region_name',
    ])
    .execute();
  const themes = await db.selectFrom('permit_themes as pt').innerJoin('themes as t', 't.id', 'pt.theme_id').select(['pt.permit_id', 't.name']).execute();
  const depts = await db
    .selectFrom('permit_approval_departments as pa')
    .innerJoin('approval_departments as a', 'a.id', 'pa.approval_department_id')
    .select(['pa.permit_id', 'a.name'])
    .orderBy('pa.position')
    .execute();
  const risks = await db.selectFrom('risks').selectAll().orderBy('permit_id').orderBy('position').execute();
  const out = new Map<string, unknown>();
  for (const p of permits) {
    out.set(`${p.region_code ?? p.region_name}:${p.code ?? p.name}`, {
      name: p.name,
      implementation_level: p.implementation_level,
      internal_contact: p.internal_contact,
      contact_info: p.contact_info,
      visible: p.visible === 1,
      approval_departments: depts.filter((d) => d.permit_id === p.id).map((d) => d.name),
      themes: themes
        .filter((t) => t.permit_id === p.id)
        .map((t) => t.name)
        .sort(),
      risks: risks.filter((r) => r.permit_id === p.id).map(copyRiskFields),
    });
  }
  return out;
}

/** A permit of the corpus as storedCatalogue shows it once imported. */
export function corpusAsStored(p: CorpusPermit) {
  return {
    name: p.name,
    implementation_level: p.implementation_level,
    internal_contact: p.internal_contact,
    contact_info: p.contact_info,
    visible: p.visible,
    approval_departments: p.approval_departments,
    themes: [...p.themes].sort(),
    risks: p.risks.map(({ key: _key, ...r }) => r),
  };
}
