import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { dumpDatabase, importer, importerApp, json } from './import.test-helpers.js';
import { tooLargeMessage } from './multipart-form.js';
import { NOT_A_WORKBOOK_MESSAGE } from './parser/errors.js';
import { CANONICAL_HEADER, gridWorkbook, workbookBuffer } from './parser/test-support.js';
import { deflatedEntry, handWrittenXlsx, MAIN_NS, repeatedEntry, rowXml, zeroBombEntry, zipOf, type SheetCell } from './parser/test-zip.js';

/**
 * Hostile workbooks through the real upload route (docs/hostile-input.md): each is refused with a
 * clear 400 and leaves the database as it was, or (formulas, formula-like text) is read as the
 * clerk sees it in Excel and kept exactly through preview, commit, the API and search.
 */

const MB = 1024 * 1024;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A row in canonical column order from cells keyed by canonical name. */
const cells = (byName: Record<string, SheetCell>): SheetCell[] => CANONICAL_HEADER.map((h) => byName[h] ?? null);

/**
 * 1,000,000 row records of one sheet, deflated as generated. Rows of cells that many would pass
 * the cell and size limits long before the row limit; rows that hold no cell (formatting only,
 * in a real file) reach it within them: 22 MB of sheet XML.
 */
async function millionRowWorkbook(): Promise<Buffer> {
  function* rows() {
    yield rowXml(1, ['许可事项', '风险点', '法律依据']);
    for (let i = 2; i <= 1_000_000; i++) yield `<row r="${i}"></row>`;
  }
  return handWrittenXlsx({ sheets: [{ name: '一百万行', rows: rows() }] });
}

/** `count` shared strings `unit` (with a sheet of the canonical header), deflated by repetition: a few hundred kilobytes for millions. */
function sharedStringsWorkbook(unit: string, count: number): Promise<Buffer> {
  return handWrittenXlsx({
    sheets: [{ name: '共享字符串', rows: [rowXml(1, CANONICAL_HEADER)] }],
    extra: [repeatedEntry('xl/sharedStrings.xml', { head: `<sst xmlns="${MAIN_NS}">`, unit, count, tail: '</sst>' })],
  });
}

/** A Word document saved under an .xlsx name: a real zip, with word/document.xml and no workbook. */
function renamedDocx(): Buffer {
  return zipOf([
    deflatedEntry(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    deflatedEntry(
      '_rels/.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    deflatedEntry(
      'word/document.xml',
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
        '<w:p><w:r><w:t>许可事项 风险点 法律依据</w:t></w:r></w:p></w:body></w:document>',
    ),
    deflatedEntry('docProps/app.xml', '<Properties><Application>Microsoft Office Word</Application></Properties>'),
  ]);
}

/** A local server standing in for every address a formula or an external link names: it counts visits. */
async function listeningTrap(): Promise<{ server: Server; base: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('pwned');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

let millionRows: Promise<Buffer> | null = null;
let overCellLimit: Promise<Buffer> | null = null;

describe.each(testDialects())('hostile workbooks through the upload route (%s)', (dialect) => {
  let t: TestApp;
  let admin = '';
  let imp: ReturnType<typeof importer>;

  beforeAll(async () => {
    ({ t, admin, imp } = await importerApp(dialect));
  });
  afterAll(async () => t?.close());

  /** Uploads and expects the refusal, with nothing stored. */
  async function refused(content: Buffer, filename: string, message: string) {
    const before = await dumpDatabase(t.dbh.db);
    const res = await imp.upload(admin, content, filename);
    expect(res.statusCode, res.body).toBe(400);
    expect(json(res)).toEqual({ success: false, message });
    expect(await dumpDatabase(t.dbh.db)).toEqual(before);
  }

  it('refuses zip bombs: a 1 GB part declared as such, and one whose directory claims 4 KB', async () => {
    const parts = [deflatedEntry('[Content_Types].xml', '<Types/>'), deflatedEntry('xl/workbook.xml', '<workbook><sheets/></workbook>')];
    const honest = zipOf([...parts, zeroBombEntry('xl/worksheets/sheet1.xml', 1024 ** 3)]);
    expect(honest.length).toBeLessThan(1.1 * MB);
    await refused(honest, '炸弹.xlsx', '工作簿解压后超过 24 MB，已拒绝');
    const lying = zipOf([...parts, zeroBombEntry('xl/sharedStrings.xml', 1024 ** 3, { declaredSize: 4096 })]);
    await refused(lying, '炸弹.xlsx', NOT_A_WORKBOOK_MESSAGE);
  });

  it('refuses a workbook of 1,000,000 rows by the row limit before exceljs reads it', async () => {
    const content = await (millionRows ??= millionRowWorkbook());
    expect(content.length).toBeLessThan(20 * MB);
    // The parse runs in a worker thread (parse-in-worker.ts): this proves the service's own thread
    // never loads the workbook; zip-guard.test.ts proves the guard refuses it before exceljs does.
    const load = vi.spyOn(Object.getPrototypeOf(new ExcelJS.Workbook().xlsx) as { load: () => Promise<unknown> }, 'load');
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    await refused(content, '一百万行.xlsx', '工作簿行数超过上限（每个工作簿最多 200000 行），已拒绝');
    console.log(
      `1,000,000-row workbook (${(content.length / MB).toFixed(1)} MB) refused in ${Math.round(performance.now() - started)} ms, ` +
        `RSS ${Math.round((process.memoryUsage().rss - rss) / MB)} MB above the start`,
    );
    expect(load).not.toHaveBeenCalled();
    load.mockRestore();
  });

  it('refuses millions of shared strings in a small file: by the size limit, and within it by their count', async () => {
    // What the security review sent: 8,000,000 shared strings (136 MB of XML) in about 330 KB.
    const review = await sharedStringsWorkbook('<si><t>x</t></si>', 8_000_000);
    expect(review.length).toBeLessThan(400 * 1024);
    await refused(review, '共享字符串.xlsx', '工作簿解压后超过 24 MB，已拒绝');
    // 2,000,000 empty ones fit in 10 MB: the guard counts them and stops at the limit.
    const within = await sharedStringsWorkbook('<si/>', 2_000_000);
    await refused(within, '共享字符串.xlsx', '工作簿中不重复的文本超过上限（每个工作簿最多 35000 条），已拒绝');
  });

  it('refuses a workbook over the cell limit', async () => {
    // 15 header cells and 20,000 rows of 15 numbers: 300,015 cells, within the row and size limits.
    const content = await (overCellLimit ??= gridWorkbook(20_000, (r) => r));
    await refused(content, '单元格.xlsx', '工作簿单元格数超过上限（每个工作簿最多 300000 个单元格），已拒绝');
  });

  it('refuses an .xlsx that is really a renamed .docx', async () => {
    await refused(renamedDocx(), '风险清单.xlsx', NOT_A_WORKBOOK_MESSAGE);
  });

  it('reads formulas and external links as their cached values: nothing is calculated, fetched or followed', async () => {
    const trap = await listeningTrap();
    try {
      const content = await handWrittenXlsx({
        sheets: [
          {
            name: '公式',
            rows: [
              rowXml(1, CANONICAL_HEADER),
              rowXml(
                2,
                cells({
                  区域: '广安区',
                  许可事项: { formula: 'CONCAT("食品","经营许可（公式）")', cached: '食品经营许可（公式）' },
                  事项编码: 'FX-001',
                  对外咨询电话: { formula: '2000000+381681', cached: 2381681 },
                  风险点: { formula: '[1]Sheet1!A1', cached: '外部链接中的风险' },
                  法律依据: { formula: `WEBSERVICE("${trap.base}/webservice")`, cached: '《食品安全法》第三十五条' },
                  法律后果: { formula: `HYPERLINK("${trap.base}/hyperlink","罚款")`, cached: '罚款' },
                  防范建议: { formula: 'NOW()' },
                  风险等级: { formula: "cmd|' /C calc'!A0", cached: '高' },
                }),
              ),
            ],
          },
        ],
        workbookRels: `<Relationship Id="rIdExt1" Type="${REL}/externalLink" Target="externalLinks/externalLink1.xml"/>`,
        workbookTail: '<externalReferences><externalReference r:id="rIdExt1"/></externalReferences>',
        extra: [
          deflatedEntry(
            'xl/externalLinks/externalLink1.xml',
            `<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><externalBook r:id="rId1">` +
              '<sheetNames><sheetName val="Sheet1"/></sheetNames><sheetDataSet><sheetData sheetId="0"><row r="1"><cell r="A1" t="str"><v>外部值</v></cell></row></sheetData></sheetDataSet></externalBook></externalLink>',
          ),
          deflatedEntry(
            'xl/externalLinks/_rels/externalLink1.xml.rels',
            `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/externalLinkPath" Target="${trap.base}/book.xlsx" TargetMode="External"/></Relationships>`,
          ),
        ],
      });
      const up = await imp.upload(admin, content, '公式.xlsx');
      expect(up.statusCode, up.body).toBe(200);
      const sheet = json(up).data.sheets[0];
      expect(sheet.findings).toEqual([
        expect.objectContaining({
          severity: 'warning',
          code: 'FORMULA_WITHOUT_RESULT',
          row: 2,
          column: 'M',
          header: '防范建议',
          message: '单元格是没有计算结果的公式“=NOW()”，按空白读取（系统不计算公式；请在 Excel 中打开并保存后重新上传）',
        }),
      ]);
      expect(sheet.permits.map((p: { name: string }) => p.name)).toEqual(['食品经营许可（公式）']);
      const commit = await imp.commit(admin, { session_id: json(up).data.session_id });
      expect(commit.statusCode, commit.body).toBe(200);

      const details = await t.app.inject({
        url: `${API}/admin/permit-details?region=${encodeURIComponent('广安区')}&permit=FX-001`,
        headers: { cookie: admin },
      });
      const permit = json(details).data.permit;
      expect(permit).toMatchObject({ name: '食品经营许可（公式）', contact_info: '2381681' });
      expect(permit.risks).toEqual([
        expect.objectContaining({ title: '外部链接中的风险', legal_basis: '《食品安全法》第三十五条', consequence: '罚款', prevention: null, level: '高' }),
      ]);
      expect(trap.hits).toEqual([]);
    } finally {
      await new Promise((resolve) => trap.server.close(resolve));
    }
  });

  it('keeps text beginning with = + - @ exactly as typed, through preview, commit, the API and search', async () => {
    const name = '=HYPERLINK("http://evil.example","旅馆业特种行业许可")';
    const titles = ['=1+2', '+86 0826 2381681 未登记', '-罚款 5000 元', '@SUM(A1:A9) 旅客信息', "=cmd|' /C calc'!A0"];
    const rows = [
      CANONICAL_HEADER,
      ...titles.map((title, i) =>
        CANONICAL_HEADER.map((h) => {
          if (h === '风险点') return title;
          if (i > 0) return null;
          return ({ 区域: '前锋区', 许可事项: name, 事项编码: '=QF-001', 法律依据: '-《治安管理处罚法》' } as Record<string, string>)[h] ?? null;
        }),
      ),
    ];
    const content = await workbookBuffer(rows);
    const up = await imp.upload(admin, content, '公式样文本.xlsx');
    const preview = json(up).data.sheets[0];
    expect(preview.findings).toEqual([]);
    expect(preview.permits).toEqual([expect.objectContaining({ name, code: '=QF-001' })]);
    expect((await imp.commit(admin, { session_id: json(up).data.session_id })).statusCode).toBe(200);

    const stored = await t.dbh.db
      .selectFrom('risks')
      .innerJoin('permits', 'permits.id', 'risks.permit_id')
      .select(['permits.name', 'permits.code', 'risks.title', 'risks.legal_basis'])
      .where('permits.code', '=', '=QF-001')
      .orderBy('risks.position')
      .execute();
    expect(stored.map((r) => r.title)).toEqual(titles);
    expect(stored[0]).toMatchObject({ name, code: '=QF-001', legal_basis: '-《治安管理处罚法》' });

    const details = json(
      await t.app.inject({
        url: `${API}/admin/permit-details?region=${encodeURIComponent('前锋区')}&permit=${encodeURIComponent('=QF-001')}`,
        headers: { cookie: admin },
      }),
    ).data.permit;
    expect(details).toMatchObject({ name, code: '=QF-001' });
    expect(details.risks.map((r: { title: string }) => r.title)).toEqual(titles);

    const search = json(await t.app.inject({ url: `${API}/v2?query=${encodeURIComponent('旅馆业特种行业许可')}` })).data;
    const hit = search.risk_subject.find((s: { permit: { code: string } }) => s.permit.code === '=QF-001');
    expect(hit.permit.name).toBe(name);
    expect(hit.risks.map((r: { title: string }) => r.title)).toEqual(titles);
    expect(hit.risks[0].legal_basis).toBe('-《治安管理处罚法》');

    const filtered = json(
      await t.app.inject({ url: `${API}/admin/permits/advanced-filter?q=${encodeURIComponent('=HYPERLINK')}`, headers: { cookie: admin } }),
    ).data;
    expect(filtered.permits.map((p: { name: string }) => p.name)).toEqual([name]);
  });
});

/** Streams `total` bytes of multipart upload to the listening app; resolves with the answer and how much had been sent by then. */
function streamUpload(base: string, cookie: string, total: number, declareLength: boolean) {
  const { payload } = multipartBody({}, { file: { filename: 'big.xlsx', content: Buffer.alloc(0) } });
  const boundary = payload.toString('latin1').split('\r\n')[0];
  const head = Buffer.from(payload.toString('latin1').split(`\r\n\r\n`)[0] + '\r\n\r\n', 'latin1');
  const tail = Buffer.from(`\r\n${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const length = head.length + total + tail.length;
  return new Promise<{ status: number; body: string; sentAtAnswer: number }>((resolve, reject) => {
    let sent = 0;
    let sentAtAnswer = -1;
    const req = request(
      `${base}${API}/admin/permit-import/upload`,
      {
        method: 'POST',
        agent: false, // its own connection, closed with the request (a pooled one would be left half-sent)
        headers: {
          cookie,
          'content-type': `multipart/form-data; boundary=${boundary.slice(2)}`,
          ...(declareLength ? { 'content-length': String(length) } : { 'transfer-encoding': 'chunked' }),
        },
      },
      (res) => {
        sentAtAnswer = sent;
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, sentAtAnswer });
          req.destroy(); // the rest is never sent
        });
      },
    );
    req.on('error', (err) => (sentAtAnswer >= 0 ? undefined : reject(err)));
    const pump = () => {
      while (sent < total && sentAtAnswer < 0) {
        const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (sentAtAnswer < 0) req.end(tail);
    };
    req.write(head);
    pump();
  });
}

describe('a 100 MB upload over HTTP', () => {
  let t: TestApp;
  let base = '';
  let admin = '';
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    admin = await t.login();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  it('is refused by IMPORT_MAX_BYTES with the 400 envelope, without the service reading it all', async () => {
    const limit = t.config.importMaxBytes;
    for (const declareLength of [true, false]) {
      const started = performance.now();
      const res = await streamUpload(base, admin, 100 * MB, declareLength);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ success: false, message: tooLargeMessage(limit) });
      // The answer came while the client was still sending: the service stopped reading (at once
      // for a declared length, at the limit for a chunked body) instead of taking in 100 MB.
      expect(res.sentAtAnswer).toBeLessThan(limit + 10 * MB);
      console.log(
        `100 MB upload (${declareLength ? 'Content-Length' : 'chunked'}): 400 after ${(res.sentAtAnswer / MB).toFixed(1)} MB sent, ` +
          `${Math.round(performance.now() - started)} ms`,
      );
    }
    expect(await t.dbh.db.selectFrom('import_sessions').select('id').execute()).toEqual([]);
  });
});
