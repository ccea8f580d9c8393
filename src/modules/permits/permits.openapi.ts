import { Type } from '@sinclair/typebox';
import { aliased, failure, fields, FORM_OR_JSON, json, ok, okBody, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Nullable, PageFields, Shape, Timestamp } from '../../http/openapi/shapes.js';
import { Region, regionToken } from '../regions/regions.openapi.js';
import { ThemeRef } from '../themes/themes.openapi.js';
import { Risk } from './risk.schema.js';

const text = (description?: string) => Nullable(Type.String(), description);

const permitFields = {
  id: Id(),
  region_id: Id(),
  region_name: Type.String(),
  code: text('事项编码.'),
  name: Type.String({ description: '许可事项.' }),
  implementation_level: text('实施层级, e.g. 市级.'),
  internal_contact: text('内部联系人 (not public).'),
  contact_info: text('对外咨询电话.'),
  visible: Type.Boolean({ description: 'Whether the permit appears in public search.' }),
  source_file_id: Nullable(Id(), 'The archived workbook the permit was last imported from.'),
  themes: Type.Array(ThemeRef, { description: 'Its themes, by name.' }),
  theme: Nullable(ThemeRef, 'The selected theme: the first of `themes` unless the route chose another.'),
  approval_departments: Type.Array(Type.String(), { description: '审批部门, in workbook order.' }),
  risk_count: Count('How many risks it has.'),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

/** The permit payload without its risks. */
export const Permit = Component('Permit', 'A permit (payload without risks).', permitFields);

/** The permit payload with its risks. */
export const PermitWithRisks = Component('PermitWithRisks', 'A permit with its risks.', {
  ...permitFields,
  risks: Type.Array(Risk, { description: 'In list order.' }),
});

const permitToken = aliased(
  'permit',
  ['permit_id'],
  Type.String({ description: 'Permit id, code (case-insensitive) or exact name within the region; required.' }),
);
const themeToken = aliased('theme', ['theme_id'], Type.String({ description: 'Theme id or name (case-insensitive).' }));
const echoedRegion = Type.String({ description: 'The region token as sent.' });

/** DELETE /admin/permits reads these from the query string, overlaid by a JSON or form body. */
const deleteFields = fields({
  ...aliased('region_id', ['region'], Type.String({ description: 'Region id, code or name; required.' })),
  ...aliased('permit_id', ['permit'], Type.String({ description: 'Permit id, code or exact name; required.' })),
  ...aliased('theme_id', ['theme'], Type.String({ description: "One of the permit's themes; blank: resolved from the permit." })),
  edited_by: Type.Optional(Type.String({ description: "Recorded on the snapshot; default the user's username, then display name, then `admin`." })),
  change_summary: Type.Optional(Type.String({ description: 'Recorded on the snapshot; blank becomes null.' })),
});

const editText = (description: string) => Type.Optional(Nullable(Type.String(), `${description} At most 5,000 characters; blank becomes null.`));
const RiskEdit = Type.Object(
  {
    id: Type.Optional(Nullable(Type.String(), 'An existing risk of the permit (kept, changed, moved); absent: a new risk.')),
    title: Type.Optional(Type.String({ description: '风险点; required for a new risk, kept when left out of an existing one (as every field).' })),
    risk_type: editText('风险类型.'),
    description: editText('风险描述.'),
    legal_basis: editText('法律依据.'),
    consequence: editText('法律后果.'),
    prevention: editText('防范建议.'),
    level: Type.Optional(Nullable(Type.String({ enum: ['高', '中', '低'] }), '风险等级: 高, 中 or 低; blank: none.')),
  },
  { additionalProperties: false },
);

export const PermitEditBody = Type.Object(
  {
    updated_at: Type.String({ description: "The permit's `updated_at` as it was read; required." }),
    name: Type.Optional(Type.String({ description: '事项名称; not blank.' })),
    code: editText('事项编码, unique within the region.'),
    implementation_level: editText('实施层级.'),
    internal_contact: editText('内部联系人.'),
    contact_info: editText('对外咨询电话.'),
    visible: Type.Optional(Type.Boolean({ description: '检索可见.' })),
    approval_departments: Type.Optional(Type.Array(Type.String(), { description: 'The approval departments in order (at most 50).' })),
    theme_ids: Type.Optional(
      Type.Array(Type.String(), { description: "Catalogue theme ids (at most 50); each is offered in the permit's region from then on." }),
    ),
    risks: Type.Optional(Type.Array(RiskEdit, { description: 'The whole risk list in order (at most 500): risks left out are deleted.' })),
    edited_by: Type.Optional(Type.String({ description: "Recorded on the snapshot; default the user's username." })),
    change_summary: editText('Recorded on the snapshot.'),
  },
  { additionalProperties: false },
);

export const PermitEditResult = Shape({
  permit: PermitWithRisks,
  snapshot_batch_id: Nullable(Id(), 'The batch holding the permit as it was; null when nothing changed.'),
  changes: Type.String({ description: 'What changed, in words (empty when nothing did).' }),
});

const FieldErrors = Shape({
  errors: Type.Array(Shape({ field: Type.String({ description: 'e.g. `name`, `risks[2].level`, `theme_ids[0]`.' }), message: Type.String() })),
});

export const DeletePermitResult = Component('DeletePermitResult', 'A deleted permit.', {
  deleted: Type.Literal(true),
  permit_id: Id(),
  permit_name: Type.String(),
  region_id: Id(),
  theme_id: Id('The theme given, or resolved from the permit.'),
  snapshot_batch_id: Id('The snapshot batch holding the permit as it was.'),
  risk_count: Count('Risks saved in the batch.'),
});

export const AdvancedFilterResult = Component('AdvancedFilterResult', 'One page of the permits matching every given dimension.', {
  permits: Type.Array(Permit, { description: 'In region id, name, id order.' }),
  ...PageFields,
});

export const DepartmentFilterResult = Component('DepartmentFilterResult', 'Every permit a service department handles.', {
  permits: Type.Array(Permit),
  pagination: Shape({ total: Count('How many match.'), page: Type.Literal(1), page_size: Count('Equal to `total`.') }),
});

export const FilterOptions = Component('FilterOptions', 'What the advanced filter can choose from.', {
  regions: Type.Array(Region, { description: 'The regions the user may see.' }),
  themes: Type.Array(ThemeRef, { description: 'The whole catalog, by id.' }),
  departments: Type.Array(Shape({ id: Id(), name: Type.String(), permit_count: Count('Permits (the user may see) naming it.') }), {
    description: 'Approval departments used by the permits the user may see (of `region_id` when given), by name.',
  }),
});

const listOf = (description: string) =>
  Type.Union([Type.String(), Type.Array(Type.String())], { description: `${description} One value or several; blank entries dropped.` });

const advancedFilterFields = fields({
  ...aliased('regions', ['region', 'regions[]'], listOf('Region ids, codes or names (any of them).')),
  ...aliased('themes', ['theme', 'themes[]'], listOf('Theme ids or names (any of them).')),
  ...aliased('departments', ['department', 'departments[]'], listOf('Approval department names, each matching names equal to it or starting with it.')),
  ...aliased('search_text', ['q'], Type.String({ description: 'Case-insensitive substring of the permit name.' })),
  visibility: Type.Optional(
    Type.String({ enum: ['visible', 'hidden', 'all'], default: 'all', description: 'Search visibility of the permits; case-insensitive.' }),
  ),
  limit: Type.Optional(Type.Integer({ default: 100, description: 'Page size: default 100 (also for a non-integer), clamped to 1..1000.' })),
  offset: Type.Optional(Type.Integer({ default: 0, description: 'Default 0 (also for a non-integer or a negative value).' })),
});

const advancedFilter = (get: boolean) => ({
  summary: `Filter permits on several dimensions (${get ? 'query string' : 'JSON or form body'})`,
  description:
    'Dimensions combine with AND, the values of one dimension with OR. A named region or theme that matches nothing ' +
    "makes the result empty. Within the user's data scope.",
  ...(get ? { querystring: advancedFilterFields } : { body: advancedFilterFields, consumes: FORM_OR_JSON }),
  responses: { 200: ok('The page.', AdvancedFilterResult), 400: failure('visibility 只能是 visible、hidden 或 all; 每类筛选条件最多 200 个') },
});

export const permitDocs = routeDocs('permits', {
  browse: {
    summary: 'The permits of a region (of one theme)',
    description:
      "Without a theme: the region's whole catalogue (hidden permits included), without risks. With a theme: the " +
      "region's permits of that theme with their risks. By permit name. Outside the user's data scope the region does not exist.",
    querystring: fields({ ...regionToken(true), ...themeToken }),
    responses: {
      200: json(
        'The permits.',
        Type.Union([
          okBody({ data: Shape({ region: echoedRegion, region_info: Region, permits: Type.Array(Permit) }, { description: 'Without a theme.' }) }),
          okBody({
            data: Shape(
              {
                region: echoedRegion,
                region_info: Region,
                theme: Type.String({ description: 'The theme token as sent.' }),
                theme_info: ThemeRef,
                permits: Type.Array(PermitWithRisks),
              },
              { description: 'With a theme.' },
            ),
          }),
        ]),
      ),
      400: failure('region is required'),
      404: failure('Region not found, Theme not found'),
    },
  },
  details: {
    summary: 'One permit with its risks',
    description:
      "The selected theme is, in this order: the permit's theme matching the given token, the theme resolved from the " +
      "permit (only when no token is given), the permit's own theme, the first of its themes. An unknown region, an " +
      "unknown permit and a region outside the user's data scope all answer 404.",
    querystring: fields({ ...regionToken(true), ...permitToken, ...themeToken }),
    responses: {
      200: ok(
        'The permit.',
        Shape({
          region: echoedRegion,
          region_info: Region,
          theme: Nullable(Type.String(), "The theme token given, else the resolved theme's id, else null."),
          permit: PermitWithRisks,
          theme_display: Nullable(ThemeRef, 'The selected theme (also `permit.theme`).'),
          selected_theme_id: Type.String({ description: 'Its id; empty when none is selected.' }),
          source_file: Nullable(
            Shape({ id: Id(), filename: Type.String() }),
            'The archived workbook the permit came from, by name; null when it has none (or it was deleted).',
          ),
        }),
      ),
      400: failure('region and permit are required; 该区域有多个名为“…”的许可事项，请改用许可 ID 或事项编码'),
      404: failure('Permit not found'),
    },
  },
  remove: {
    summary: 'Delete a permit (snapshotted first)',
    description:
      'Input from the query string, overlaid by the non-blank fields of a JSON or form body. The permit (record, links, ' +
      'risks) is saved as one snapshot batch and deleted, in one transaction. A blank theme is resolved from the permit.',
    querystring: deleteFields,
    body: deleteFields,
    consumes: FORM_OR_JSON,
    responses: {
      200: ok('Deleted.', DeletePermitResult),
      400: failure('region_id 和 permit_id 均为必填; 未找到许可所属主题,无法删除; a permit name shared by several permits'),
      403: failure("A region outside the user's data scope: 无权操作该区域的数据"),
      404: failure('Region not found, Permit not found'),
    },
  },
  edit: {
    summary: 'Edit a permit: its fields, themes, approval departments and risks (snapshotted first)',
    description:
      "Each part given replaces what the permit has; what is left out stays. `updated_at` must be the permit's as it was read: " +
      'a permit changed since is refused with 409, nothing overwritten. The permit is saved as a snapshot batch (reason `edit`) ' +
      "first, so restoring that batch undoes the edit, and every instance's search index follows. Outside the user's data " +
      'scope the permit does not exist (404). docs/maintenance.md, "Editing a permit".',
    params: pathParams({ permit_id: "The permit's id." }),
    body: PermitEditBody,
    bodyRequired: true,
    responses: {
      200: ok('Saved (`message` 许可事项已保存), or nothing to change (没有需要保存的修改, `snapshot_batch_id` null).', PermitEditResult, Type.String()),
      400: failure(
        'Every mistake at once: `message` names the first ones, `data.errors` lists `{field, message}` for each (事项名称不能为空, 第 2 条风险的风险等级只能是 高、中 或 低, 该区域已有事项编码为 … 的许可事项, 主题不存在: …).',
        FieldErrors,
      ),
      404: failure("No such permit, or one outside the user's regions: 许可事项不存在"),
      409: failure('Changed since it was read: 该许可事项已在 … 被修改，… 请刷新后重新编辑, with `data.updated_at`.', Shape({ updated_at: Timestamp() })),
    },
  },
  advancedFilterGet: advancedFilter(true),
  advancedFilterPost: advancedFilter(false),
  filterOptions: {
    summary: 'What the advanced filter can choose from',
    querystring: fields(aliased('region_id', ['region'], Type.String({ description: 'Only the departments of this region (id, code or name).' }))),
    responses: { 200: ok('The choices.', FilterOptions) },
  },
  departmentFilter: {
    tags: ['permits', 'departments'],
    summary: 'Permits handled by a service department',
    description:
      'A permit matches a service department when one of its approval departments is linked to it, is named like it or ' +
      'starts with its name. Every match is returned (`page` 1, `page_size` = `total`), by region and name, within the ' +
      "user's data scope. An unknown department or region matches nothing.",
    consumes: FORM_OR_JSON,
    responses: { 200: ok('The permits.', DepartmentFilterResult) },
  },
});
