import { Type } from '@sinclair/typebox';
import { aliased, content, failure, fields, json, ok, okBody, pageQuery, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Nullable, PageFields, Shape, Timestamp } from '../../http/openapi/shapes.js';
import { PARSE_REFUSALS, SessionDescription } from '../importer/import.openapi.js';
import { BYTES_TYPE, XLSX_TYPE } from '../../http/attachment.js';

export const PermitFileListing = Component('PermitFileListing', 'One page of the archive of imported workbooks.', {
  files: Type.Array(
    Shape({
      id: Id(),
      filename: Type.String(),
      content_type: Nullable(Type.String()),
      size: Count('Bytes.'),
      uploaded_by: Nullable(Type.String()),
      created_at: Timestamp(),
      permit_count: Count("Permits linked to it (below grade 90: of the user's region)."),
      region_id: Nullable(Id(), 'The region of its permits when the commit touched one region.'),
      region_name: Nullable(Type.String()),
    }),
    { description: 'Newest first.' },
  ),
  ...PageFields,
});

export const TemplateMeta = Component('TemplateMeta', 'The import template.', {
  filename: Type.String(),
  size: Count('Bytes.'),
  updated_at: Timestamp(),
  updated_by: Nullable(Type.String()),
  sha256: Type.String(),
  source: Type.Union([Type.Literal('bundled'), Type.Literal('uploaded')], { description: 'A file replaced by hand on disk counts as uploaded.' }),
});

const attachment = { 'content-disposition': 'attachment; filename="<ASCII fallback>"; filename*=UTF-8\'\'<the name, percent-encoded>' };
/** A stored file goes out typed by its bytes (a workbook, else plain bytes), never by what its uploader claimed. */
const storedFile = (description: string) => content(description, [XLSX_TYPE, BYTES_TYPE], attachment);
const workbook = (description: string) => content(description, [XLSX_TYPE], attachment);
const TEMPLATE_MISSING = '模板文件不存在,请联系管理员';
const fileParams = pathParams({ file_id: 'The archived workbook id.' });

export const fileDocs = routeDocs('files', {
  list: {
    summary: 'The archive of imported workbooks',
    description: "Below grade 90 only files linked to a permit of the user's region.",
    querystring: fields({
      ...pageQuery(20, 100),
      ...aliased('keyword', ['q'], Type.String({ description: 'Case-insensitive substring of the file name or the uploader.' })),
    }),
    responses: { 200: ok('The page.', PermitFileListing) },
  },
  reimport: {
    tags: ['files', 'import'],
    summary: 'A new import session from an archived workbook',
    description: 'Role `admin` gets binding mode `auto`; anyone else is bound to its own department, which it must have.',
    params: fileParams,
    responses: {
      200: ok('The session description.', SessionDescription),
      400: failure(`The parser's refusals: ${PARSE_REFUSALS.limits}`),
      403: failure('该账号未绑定服务部门,无法执行重新导入'),
      404: failure('文件不存在'),
      429: [PARSE_REFUSALS.rate, PARSE_REFUSALS.busy],
    },
  },
  remove: {
    summary: 'Delete an archived workbook',
    description: 'The permits keep their data and lose the link.',
    params: fileParams,
    responses: {
      200: json('Deleted.', okBody({ message: Type.Literal('文件已删除') })),
      403: failure(
        "Below grade 90, a file not wholly of the user's region (its recorded region and every linked permit), as for its download: 该文件包含其他区域的数据，无权删除",
      ),
      404: failure('文件不存在'),
    },
  },
  downloadById: {
    summary: 'Download an archived workbook',
    params: fileParams,
    responses: { 200: storedFile('The workbook as uploaded.'), 404: failure('文件不存在') },
  },
  downloadOfPermit: {
    summary: 'Download the original workbook of a permit',
    querystring: fields({
      ...aliased('region', ['region_id'], Type.String({ description: 'Region id, code or name; required.' })),
      ...aliased('permit', ['permit_id'], Type.String({ description: 'Permit id, code or exact name; required.' })),
    }),
    responses: {
      200: storedFile('The workbook the permit was last imported from.'),
      400: failure('region and permit are required'),
      404: failure('Permit not found, 当前许可没有关联的原始文件'),
    },
  },
  templateMeta: {
    tags: ['import'],
    summary: "The import template's metadata",
    responses: { 200: ok('The metadata.', TemplateMeta), 404: failure(TEMPLATE_MISSING) },
  },
  templateReplace: {
    tags: ['import'],
    summary: 'Replace the import template',
    bodyRequired: true,
    body: fields({ file: Type.String({ format: 'binary', description: 'The new template; required.' }) }),
    consumes: ['multipart/form-data'],
    responses: {
      200: ok('The new metadata.', TemplateMeta),
      400: failure(`请上传模板文件, 上传的模板为空, 模板中没有可识别的表头行（…）, the parser's refusals (${PARSE_REFUSALS.limits})`),
      429: PARSE_REFUSALS.busy,
    },
  },
  templateDownload: {
    tags: ['import'],
    summary: 'Download the import template',
    responses: { 200: workbook('许可事项导入模板.xlsx'), 404: failure(TEMPLATE_MISSING) },
  },
  sample: {
    tags: ['import'],
    summary: 'Download the import sample',
    responses: { 200: workbook('许可事项导入示例.xlsx: a filled workbook in the template layout.'), 404: failure('示例文件不存在') },
  },
});
