import { Type } from '@sinclair/typebox';
import { aliased, failure, fields, FORM_OR_JSON, ok, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Nullable, Shape } from '../../http/openapi/shapes.js';

const regionFields = { id: Id(), code: Nullable(Type.String(), 'Administrative division code, e.g. 511602.'), name: Type.String() };

/** A region as every route shows it (presentRegion). */
export const Region = Component('Region', 'A region.', regionFields);

export const RegionWithUsage = Component('RegionWithUsage', 'A region with what uses it.', {
  ...regionFields,
  permit_count: Count('Permits of the region (what blocks a deletion).'),
  department_count: Count('Service departments of the region (what blocks a deletion).'),
});

/** The `region`/`region_id` request field of the region-scoped reads. */
export const regionToken = (required: boolean) =>
  aliased('region', ['region_id'], Type.String({ description: `Region id, code or name (case-insensitive)${required ? '; required' : ''}.` }));

const regionBody = fields({
  name: Type.Optional(Type.String({ description: 'Region name, at most 100 characters; unique (case-insensitive).' })),
  code: Type.Optional(Type.String({ description: 'Division code, at most 50 characters; unique; blank clears it.' })),
});

const params = pathParams({ region_id: 'The region id.' });

export const regionDocs = routeDocs('regions', {
  list: {
    summary: 'Regions with their usage',
    description: "By id. Below grade 90 only the user's own region.",
    responses: { 200: ok('The regions.', Shape({ regions: Type.Array(RegionWithUsage) })) },
  },
  create: {
    summary: 'Create a region',
    bodyRequired: true,
    body: regionBody,
    consumes: FORM_OR_JSON,
    responses: { 200: ok('The new region.', Shape({ region: Region })), 400: failure('区域名称不能为空, 区域名称过长…, 区域名称已存在：…, 区域编码已存在：…') },
  },
  update: {
    summary: 'Rename a region or change its code',
    bodyRequired: true,
    params,
    body: regionBody,
    consumes: FORM_OR_JSON,
    responses: {
      200: ok('The region as changed.', Shape({ region: Region })),
      400: failure('没有需要更新的字段, 区域名称不能为空, a name or code already used.'),
      404: failure('区域不存在'),
    },
  },
  remove: {
    summary: 'Delete a region nothing uses',
    description: 'Its theme options go with it.',
    params,
    responses: {
      200: ok('Deleted.', Shape({ deleted: Type.Literal(true), region: Region })),
      400: failure('区域“…”下仍有 N 个许可事项，无法删除; 区域“…”仍被 N 个服务部门使用，无法删除'),
      404: failure('区域不存在'),
    },
  },
});
