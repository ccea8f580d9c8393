import { Type } from '@sinclair/typebox';
import { aliased, failure, fields, ok, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Named, Nullable, Shape, Timestamp } from '../../http/openapi/shapes.js';
import { COLUMNS } from './parser/columns.js';
import { FINDING_CODES } from './parser/findings.js';

/** The answers of every route that parses an uploaded workbook (upload, re-import, template): docs/import.md. */
export const PARSE_REFUSALS = {
  busy: failure(
    'Every parse slot of the instance (IMPORT_MAX_PARSES) still busy after IMPORT_PARSE_WAIT_MS: 正在解析的工作簿过多，请稍后重试, ' +
      'with a Retry-After header.',
  ),
  rate: failure(
    'More than IMPORT_RATE_LIMIT uploads and re-imports a minute by this user: 上传过于频繁（每个账号每分钟最多 N 次上传或重新导入），请稍后再试, ' +
      'with a Retry-After header.',
  ),
  limits:
    '工作簿解压后超过 N MB，已拒绝, 工作簿行数超过上限（…）, 工作簿单元格数超过上限（…）, 工作簿中不重复的文本超过上限（…）, ' +
    '工作簿内容过多，解析时超出内存上限，已拒绝；请拆分后分批上传',
};

/** A problem of a workbook, with where it is (parser and database-aware findings alike). */
export const Finding = Component('ImportFinding', 'A finding of the import preview.', {
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning')], { description: 'Errors refuse the commit of their sheet.' }),
  code: Type.String({
    description:
      `A stable code: the parser's (${Object.keys(FINDING_CODES).join(', ')}) or the database-aware ones ` +
      '(new_region, region_out_of_scope, missing_region, new_theme, duplicate_permit); docs/import.md.',
  }),
  sheet: Nullable(Type.String(), 'Null for a workbook-level finding.'),
  row: Nullable(Type.Integer(), 'Excel row number, 1-based.'),
  column: Nullable(Type.String(), 'Column letter, e.g. D.'),
  header: Nullable(Type.String(), "Canonical column name, or the file's header text for an unknown column."),
  message: Type.String({ description: 'For the clerk, in Chinese.' }),
});

/** Counts of a sheet, or of the whole plan. */
export const SheetCounts = Component('ImportCounts', 'What an import plan does.', {
  permits: Count('Distinct permits.'),
  risks: Count('Risk rows (totals: risks of the final lists).'),
  new: Count('Permits to create.'),
  changed: Count('Permits to update.'),
  unchanged: Count('Permits already as the workbook has them.'),
  risks_added: Count('Risks added (of the permits whose last occurrence is here).'),
  risks_removed: Count('Risks removed (likewise).'),
  themes_linked: Count('Theme links added.'),
});

const PreviewPermit = Component('ImportPreviewPermit', 'One distinct permit of a sheet.', {
  rows: Type.Array(Type.Integer(), { description: 'Every row the permit occupies on the sheet.' }),
  name: Type.String(),
  code: Nullable(Type.String()),
  region: Type.String({ description: 'The region name.' }),
  status: Type.Union([Type.Literal('new'), Type.Literal('changed'), Type.Literal('unchanged')]),
  changed_fields: Type.Array(Type.String(), {
    description:
      'What differs from the database: code, name, implementation_level, internal_contact, contact_info, visible, approval_departments, risks, themes.',
  }),
  risks_added: Count('Risks added.'),
  risks_removed: Count('Risks removed.'),
  themes: Type.Array(Type.String(), { description: "The permit's theme names after the commit." }),
});

const SheetPreview = Component('ImportSheetPreview', 'The preview of one sheet.', {
  name: Type.String(),
  index: Type.Integer({ description: '0-based position in the workbook.' }),
  header_row: Nullable(Type.Integer(), 'The header row; null when none was found (the sheet is not imported).'),
  first_data_row: Nullable(Type.Integer()),
  data_rows: Count('Rows holding data.'),
  columns: Type.Array(
    Shape({
      letter: Type.String(),
      header: Type.String({ description: 'As in the file.' }),
      field: Nullable(Type.String({ enum: COLUMNS.map((c) => c.field) }), 'Null for an unknown column.'),
      canonical: Nullable(Type.String({ enum: COLUMNS.map((c) => c.canonical) }), "The column's name in the template."),
    }),
    { description: 'The header mapping.' },
  ),
  findings: Type.Array(Finding),
  error_count: Count('Errors of the sheet.'),
  warning_count: Count('Warnings of the sheet.'),
  counts: SheetCounts,
  themes: Type.Array(Shape({ id: Nullable(Id(), 'Null for a theme the commit will create.'), name: Type.String(), exists: Type.Boolean() }), {
    description: 'The themes the sheet names.',
  }),
  permits: Type.Array(PreviewPermit),
});

/** The session description: the upload, preview and re-import answer (docs/import.md). */
export const SessionDescription = Component('ImportSession', 'An import session with the preview of every sheet.', {
  session_id: Type.String({ description: 'A UUID; valid 24 hours.' }),
  filename: Type.String(),
  content_type: Type.String(),
  size: Count('Bytes.'),
  sha256: Type.String(),
  uploaded_by: Type.String({ description: 'Display name, else username, else id.' }),
  created_at: Timestamp(),
  expires_at: Timestamp(),
  committed_at: Nullable(Timestamp(), 'When it was last committed.'),
  binding_mode: Type.Union([Type.Literal('auto'), Type.Literal('department')], {
    description: "`department`: rows without a region go to the department's region.",
  }),
  department: Nullable(
    Shape({ id: Id(), name: Type.String(), region_id: Nullable(Id()), region_name: Nullable(Type.String()) }),
    'The bound department; null for `auto`.',
  ),
  findings: Type.Array(Finding, { description: 'Workbook-level findings.' }),
  error_count: Count('Errors of the workbook and all its sheets.'),
  warning_count: Count('Warnings of the workbook and all its sheets.'),
  sheets: Type.Array(SheetPreview),
  totals: SheetCounts,
  regions_to_create: Type.Array(Type.String(), { description: 'Regions the commit would create (grade 90 and above).' }),
  themes_to_create: Type.Array(Type.String(), { description: 'Themes the commit would create.' }),
  theme_options: Shape(
    {
      catalog: Type.Array(Named('A catalog theme.')),
      regions: Type.Record(Type.String(), Type.Array(Shape({ id: Id('The theme id.'), name: Type.String(), option_id: Id() })), {
        description: 'Region name → the themes it offers ([] for a region the commit would create).',
      }),
    },
    { description: 'What the theme bindings of the commit can choose from.' },
  ),
});

export const CommitResult = Component('ImportCommitResult', 'What a commit applied.', {
  session_id: Type.String(),
  filename: Type.String(),
  file_id: Id('The archived workbook (the same one when the same workbook is committed again).'),
  snapshot_batch_id: Nullable(Id(), 'The batch saving the permits replaced; null when none was.'),
  sheets: Type.Array(Shape({ sheet: Type.String(), ...SheetCounts.properties }), { description: 'What was applied, per sheet.' }),
  totals: SheetCounts,
  regions_created: Type.Array(Named('A region created.')),
  themes_created: Type.Array(Named('A theme created.')),
});

const sessionGone = 'session_id 不能为空; 导入会话不存在或已过期，请重新上传文件';

const sheetsValue = Type.Union([Type.String(), Type.Array(Type.String())]);

export const importDocs = routeDocs('import', {
  upload: {
    summary: 'Upload a workbook: a new import session and its preview',
    bodyRequired: true,
    description: "Nothing is written to the catalogue until the commit. Below grade 90 a session is always bound to the user's own " + 'department.',
    body: fields({
      file: Type.String({ format: 'binary', description: 'The .xlsx workbook; required; at most IMPORT_MAX_BYTES.' }),
      binding_mode: Type.Optional(Type.String({ enum: ['auto', 'department'], default: 'auto', description: 'Where rows without a region go.' })),
      department_id: Type.Optional(Type.String({ description: 'The department of mode `department`; required with it.' })),
    }),
    consumes: ['multipart/form-data'],
    responses: {
      200: ok('The session description.', SessionDescription),
      400: failure(
        '请选择要上传的Excel文件, 上传的文件为空, 文件超过大小限制（最大 N MB），请拆分后分批上传, 文件不是有效的 Excel 工作簿，无法解析 and the ' +
          `parser's other refusals (${PARSE_REFUSALS.limits}), binding_mode 只能是 auto 或 department, ` +
          'binding_mode 为 department 时必须提供 department_id, 部门不存在：…',
      ),
      403: failure('只能绑定本账号所属的部门'),
      429: [PARSE_REFUSALS.rate, PARSE_REFUSALS.busy],
    },
  },
  previewBySession: {
    summary: 'The preview of an import session',
    description: "Compared with the database anew. Below grade 90 only the uploader's own sessions.",
    params: pathParams({ session_id: 'The import session id.' }),
    responses: { 200: ok('The session description.', SessionDescription), 400: failure(sessionGone) },
  },
  preview: {
    summary: 'The preview of an import session (query string)',
    querystring: fields(aliased('session_id', ['sessionId'], Type.String({ description: 'The import session id; required.' }))),
    responses: { 200: ok('The session description.', SessionDescription), 400: failure(sessionGone) },
  },
  commit: {
    summary: 'Commit an import session',
    bodyRequired: true,
    description:
      'Applies the chosen sheets in one transaction, or nothing: permits created and updated, replaced ones snapshotted, ' +
      'the workbook archived. Any error finding left in the chosen sheets refuses the whole commit.',
    body: fields({
      ...aliased('session_id', ['sessionId'], Type.String({ description: 'The session to commit; required.' })),
      ...aliased(
        'sheet_names',
        ['sheets', 'selectedSheets'],
        Type.Union([Type.String(), Type.Array(Type.String())], {
          description: 'Sheets to commit, one name or several; default every sheet with a header row and data rows.',
        }),
      ),
      overrides: Type.Optional(
        Type.Record(
          Type.String(),
          Type.Object({
            region: Type.Optional(Type.String({ description: 'Region id, code or name for every row of the sheet (alias region_id).' })),
            visibility: Type.Optional(Type.Union([Type.String({ enum: ['visible', 'hidden'] }), Type.Boolean()], { description: 'Alias visible.' })),
            themes: Type.Optional(
              Type.Array(Type.String(), { description: 'Theme ids or names replacing every other source of themes (an empty list removes every link).' }),
            ),
          }),
          { description: 'Sheet name → overrides.' },
        ),
      ),
      ...aliased(
        'theme_bindings',
        ['themeBindings'],
        Type.Record(Type.String(), Type.Union([sheetsValue, Type.Null()]), {
          description: 'Sheet name → theme id or name, or several, linked to every permit of the sheet.',
        }),
      ),
      ...aliased('edited_by', ['editedBy'], Type.String({ description: "Default the user's username, else display name, else `admin`." })),
      ...aliased('change_summary', ['changeSummary'], Type.String({ description: 'Stored on the snapshot batch; default 导入 <file name>.' })),
    }),
    responses: {
      200: ok('What was applied.', CommitResult),
      400: failure(
        `${sessionGone}; 工作表不存在：…; 工作簿中没有可导入的工作表（需要表头行和数据行）; 所选工作表中没有可导入的许可事项; ` +
          'overrides.<sheet>.visibility 只能是 visible 或 hidden; 所选工作表存在错误，未导入任何数据：… (with every error finding)',
        Shape({ errors: Type.Array(Finding) }),
      ),
    },
  },
});
