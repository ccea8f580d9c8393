import { describe, it, expect } from 'vitest';
import { parseWorkbook } from './parse-workbook.js';
import { briefFindings, CANONICAL_HEADER, findingsOf, row, workbookBuffer } from './test-support.js';

const PERMIT = { 区域: '广安区', 许可事项: '旅馆业特种行业许可证核发', 事项编码: '511A0146000000' };

describe('cell text as the user sees it', () => {
  it('reads formulas by cached result, numbers without float noise, dates, rich text and hyperlinks', async () => {
    const buf = await workbookBuffer([
      CANONICAL_HEADER,
      row({
        ...PERMIT,
        实施层级: { formula: 'CONCAT("县","级")', result: '县级' },
        内部联系人: new Date(Date.UTC(2024, 2, 5)),
        对外咨询电话: 2381681,
        风险类型: { richText: [{ text: '无证' }, { font: { bold: true }, text: '经营' }] },
        风险点: { text: '未取得许可证经营旅馆', hyperlink: 'https://example.org/a' },
        法律依据: 0.1 + 0.2,
        法律后果: { formula: 'A1*2', result: 1234.5 },
        防范建议: { formula: 'B9' },
      }),
    ]);
    const permit = (await parseWorkbook(buf)).sheets[0].permits[0];
    expect(permit.implementationLevel).toBe('县级');
    expect(permit.internalContact).toBe('2024-03-05');
    expect(permit.contactInfo).toBe('2381681');
    expect(permit.risks[0]).toMatchObject({ riskType: '无证经营', title: '未取得许可证经营旅馆', legalBasis: '0.3', consequence: '1234.5', prevention: null });
  });

  it('keeps text beginning with = + - @ as text and trims full-width and trailing blanks', async () => {
    const buf = await workbookBuffer([
      CANONICAL_HEADER,
      row({
        ...PERMIT,
        许可事项: '　旅馆业特种行业许可证核发　',
        风险类型: ' 无证经营\u3000',
        风险点: '=HYPERLINK("x")',
        法律依据: '+86 0826',
        法律后果: '-罚款',
        防范建议: "'@注意",
      }),
    ]);
    const permit = (await parseWorkbook(buf)).sheets[0].permits[0];
    expect(permit.name).toBe('旅馆业特种行业许可证核发');
    expect(permit.risks[0]).toMatchObject({
      riskType: '无证经营',
      title: '=HYPERLINK("x")',
      legalBasis: '+86 0826',
      consequence: '-罚款',
      prevention: '@注意',
    });
  });

  it('splits 风险点 into title and description at the first in-cell line break', async () => {
    const buf = await workbookBuffer([CANONICAL_HEADER, row({ ...PERMIT, 风险点: '标题一\r\n描述第一行\n描述第二行\n' }), row({ 风险点: '\n  标题二  \n\n' })]);
    const risks = (await parseWorkbook(buf)).sheets[0].permits[0].risks;
    expect(risks.map((r) => [r.title, r.description])).toEqual([
      ['标题一', '描述第一行\n描述第二行'],
      ['标题二', null],
    ]);
  });

  it('splits multi-value cells on every separator, dropping blanks and duplicates', async () => {
    const buf = await workbookBuffer([
      CANONICAL_HEADER,
      row({ ...PERMIT, 主题: '开办餐饮店，开办网吧;开办餐饮店／ 举办大型活动 ；、', 审批部门: '区公安分局/区消防大队,区公安分局' }),
    ]);
    const permit = (await parseWorkbook(buf)).sheets[0].permits[0];
    expect(permit.themes).toEqual(['开办餐饮店', '开办网吧', '举办大型活动']);
    expect(permit.approvalDepartments).toEqual(['区公安分局', '区消防大队']);
  });
});

describe('header row', () => {
  it('skips title rows and merged banners, matching names across width, case, blanks and brackets', async () => {
    const header = ['序号', '所属　区域', '事项 名称', 'ＢＩＡＮＭＡ', '事项代码', '风险描述', '风险等级（高/中/低）', '是否可见(是/否)', '法律依据'];
    const buf = await workbookBuffer(
      [
        ['广安区许可事项风险清单'],
        ['说明：事项信息只在第一行填写'],
        header,
        [1, '广安区', '食品经营许可', null, '511A0005200004', '无证经营\n说明', '高风险', '否', '《食品安全法》'],
      ],
      (ws) => ws.mergeCells('A1:I1'),
    );
    const wb = await parseWorkbook(buf);
    const sheet = wb.sheets[0];
    expect(sheet.headerRow).toBe(3);
    expect(sheet.firstDataRow).toBe(4);
    expect(sheet.columns.map((c) => [c.letter, c.canonical])).toEqual([
      ['A', null],
      ['B', '区域'],
      ['C', '许可事项'],
      ['D', null],
      ['E', '事项编码'],
      ['F', '风险点'],
      ['G', '风险等级'],
      ['H', '检索可见'],
      ['I', '法律依据'],
    ]);
    expect(briefFindings(wb)).toEqual([
      ['UNKNOWN_COLUMN', 3, 'A'],
      ['UNKNOWN_COLUMN', 3, 'D'],
    ]);
    expect(findingsOf(wb)[1]).toMatchObject({ severity: 'warning', header: 'ＢＩＡＮＭＡ', message: '未识别的列“ＢＩＡＮＭＡ”，已忽略' });
    expect(sheet.permits[0]).toMatchObject({ name: '食品经营许可', code: '511A0005200004', visible: false });
    expect(sheet.permits[0].risks[0]).toMatchObject({ title: '无证经营', description: '说明', level: '高' });
  });

  it('ignores a horizontally merged header cell and warns on a second column of the same kind', async () => {
    const buf = await workbookBuffer(
      [
        ['许可事项', '风险点', null, '法律依据', '依据'],
        ['食品经营许可', '无证经营', null, '《食品安全法》', '重复'],
      ],
      (ws) => ws.mergeCells('B1:C1'),
    );
    const wb = await parseWorkbook(buf);
    expect(wb.sheets[0].columns.map((c) => c.letter)).toEqual(['A', 'B', 'D', 'E']);
    expect(findingsOf(wb)).toEqual([
      {
        severity: 'warning',
        code: 'DUPLICATE_COLUMN',
        sheet: '风险清单',
        row: 1,
        column: 'E',
        header: '依据',
        message: '列“依据”与 D 列同为“法律依据”，已忽略',
      },
    ]);
    expect(wb.sheets[0].permits[0].risks[0].legalBasis).toBe('《食品安全法》');
  });

  it('reports a sheet with text but no header row as a warning and an empty one as an error', async () => {
    const buf = await workbookBuffer([['填写说明'], ['许可事项', '风险点']], (_ws, wb) => {
      wb.addWorksheet('Sheet2');
    });
    const wb = await parseWorkbook(buf);
    expect(findingsOf(wb).map((f) => [f.sheet, f.severity, f.code, f.row])).toEqual([
      ['风险清单', 'warning', 'HEADER_NOT_FOUND', null],
      ['Sheet2', 'error', 'SHEET_EMPTY', null],
    ]);
    expect(wb.sheets.map((s) => s.headerRow)).toEqual([null, null]);
  });

  it('reports a missing 风险点 column and keeps the permits without risks', async () => {
    const buf = await workbookBuffer([
      ['区域', '许可事项', '事项编码', '法律依据'],
      ['广安区', '食品经营许可', 'C1', '《食品安全法》'],
    ]);
    const wb = await parseWorkbook(buf);
    expect(findingsOf(wb)).toEqual([
      {
        severity: 'error',
        code: 'MISSING_REQUIRED_COLUMN',
        sheet: '风险清单',
        row: 1,
        column: null,
        header: '风险点',
        message: '缺少必填列：风险点（别名 风险描述、风险内容、风险事项 均不存在）',
      },
    ]);
    expect(wb.sheets[0].permits.map((p) => [p.name, p.risks.length])).toEqual([['食品经营许可', 0]]);
  });
});

describe('permit blocks', () => {
  it('carries merged permit cells down and gives a merged risk cell to every risk row', async () => {
    const buf = await workbookBuffer(
      [
        CANONICAL_HEADER,
        row({ ...PERMIT, 审批部门: '区公安分局', 检索可见: '否', 风险点: '风险一', 法律依据: '共同依据' }),
        row({ 风险点: '风险二' }),
        row({ 风险点: '风险三', 法律依据: '另一依据' }),
      ],
      (ws) => {
        for (const col of ['A', 'C', 'D', 'F', 'O']) ws.mergeCells(`${col}2:${col}4`);
        ws.mergeCells('K2:K3');
      },
    );
    const wb = await parseWorkbook(buf);
    expect(findingsOf(wb)).toEqual([]);
    const [permit] = wb.sheets[0].permits;
    expect(permit).toMatchObject({ rows: [2, 3, 4], approvalDepartments: ['区公安分局'], visible: false });
    expect(permit.risks.map((r) => [r.row, r.title, r.legalBasis])).toEqual([
      [2, '风险一', '共同依据'],
      [3, '风险二', '共同依据'],
      [4, '风险三', '另一依据'],
    ]);
  });

  it('reports an invalid value in a merged cell once, at its master cell', async () => {
    const buf = await workbookBuffer([CANONICAL_HEADER, row({ ...PERMIT, 风险点: '一', 检索可见: '可见' }), row({ 风险点: '二' })], (ws) =>
      ws.mergeCells('O2:O3'),
    );
    expect(briefFindings(await parseWorkbook(buf))).toEqual([['INVALID_VISIBLE', 2, 'O']]);
  });

  it('starts a new permit on a new name, code or region and merges non-adjacent rows of one permit', async () => {
    const buf = await workbookBuffer([
      CANONICAL_HEADER,
      row({ ...PERMIT, 主题: '开办宾馆旅馆', 风险点: 'A1' }),
      row({ 风险点: 'A2' }),
      row({ 区域: '广安区', 许可事项: '公章刻制业特种行业许可证核发', 风险点: 'B1' }),
      row({ 风险点: 'B2' }),
      row({ ...PERMIT, 区域: '前锋区', 风险点: 'C1' }),
      row({ ...PERMIT, 主题: '开办网吧', 风险点: 'A3' }),
      row({ 区域: '广安区', 许可事项: '公章刻制业特种行业许可证核发', 风险点: 'B3' }),
      row({ 区域: '广安区', 许可事项: '另一事项', 事项编码: '511A0146000000', 风险点: 'A4' }),
    ]);
    const wb = await parseWorkbook(buf);
    const permits = wb.sheets[0].permits;
    expect(permits.map((p) => [p.region, p.name, p.rows, p.risks.map((r) => r.title)])).toEqual([
      ['广安区', '旅馆业特种行业许可证核发', [2, 3, 7, 9], ['A1', 'A2', 'A3', 'A4']],
      ['广安区', '公章刻制业特种行业许可证核发', [4, 5, 8], ['B1', 'B2', 'B3']],
      ['前锋区', '旅馆业特种行业许可证核发', [6], ['C1']],
    ]);
    expect(permits[0].themes).toEqual(['开办宾馆旅馆', '开办网吧']);
    // Same code, different name: merged by identity, the name disagreement is reported.
    expect(findingsOf(wb)).toEqual([
      {
        severity: 'warning',
        code: 'PERMIT_FIELD_CONFLICT',
        sheet: '风险清单',
        row: 9,
        column: 'C',
        header: '许可事项',
        message: '本行“许可事项”为“另一事项”，与本事项第 2 行的“旅馆业特种行业许可证核发”不一致，以第 2 行为准',
      },
    ]);
  });

  it('reports different permit values inside one block and keeps the first', async () => {
    const buf = await workbookBuffer([
      CANONICAL_HEADER,
      row({ ...PERMIT, 审批部门: '区公安分局', 检索可见: '是', 风险点: '一' }),
      row({ 审批部门: '区公安分局、区消防大队', 检索可见: '否', 风险点: '二' }),
      row({ 审批部门: '区公安分局', 检索可见: '是', 风险点: '三' }),
    ]);
    const wb = await parseWorkbook(buf);
    expect(briefFindings(wb)).toEqual([
      ['PERMIT_FIELD_CONFLICT', 3, 'F'],
      ['PERMIT_FIELD_CONFLICT', 3, 'O'],
    ]);
    expect(wb.sheets[0].permits[0]).toMatchObject({ approvalDepartments: ['区公安分局'], visible: true });
  });

  it('skips blank rows, allows a permit without risks and reports risk rows without a permit', async () => {
    const buf = await workbookBuffer([
      ['序号', ...CANONICAL_HEADER],
      [1, ...row({ 风险点: '孤立的风险' })],
      [2],
      [3, ...row({})],
      [4, ...row({ ...PERMIT, 实施层级: '县级' })],
      [5, ...row({ 事项编码: 'X1', 风险点: '没有名称的事项' })],
      [6, ...row({ 风险点: '续行' })],
      [7, ...row({ 区域: '广安区', 许可事项: '公章刻制业特种行业许可证核发', 风险类型: '无证经营', 风险等级: '严重' })],
    ]);
    const wb = await parseWorkbook(buf);
    const sheet = wb.sheets[0];
    expect([sheet.firstDataRow, sheet.dataRows]).toEqual([2, 5]);
    expect(sheet.permits.map((p) => [p.name, p.rows, p.risks.length, p.visible])).toEqual([
      ['旅馆业特种行业许可证核发', [5], 0, true],
      ['公章刻制业特种行业许可证核发', [8], 0, true],
    ]);
    expect(briefFindings(wb)).toEqual([
      ['UNKNOWN_COLUMN', 1, 'A'],
      ['MISSING_PERMIT_NAME', 2, 'D'],
      ['MISSING_PERMIT_NAME', 6, 'D'],
      ['INVALID_LEVEL', 8, 'O'],
      ['BLANK_RISK_POINT', 8, 'K'],
    ]);
    expect(findingsOf(wb)[3].message).toBe('风险等级“严重”不是 高/中/低，已留空');
  });
});
