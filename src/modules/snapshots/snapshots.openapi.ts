import { Type } from '@sinclair/typebox';
import { aliased, failure, fields, FORM_OR_JSON, ok, pageQuery, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Nullable, PageFields, Shape, Timestamp } from '../../http/openapi/shapes.js';

/** One permit of one snapshot batch, as listed. */
export const SnapshotEntry = Component('SnapshotEntry', 'A permit as saved in a snapshot batch.', {
  batch_id: Id(),
  region_id: Id(),
  region_name: Nullable(Type.String(), 'Null once the region has been deleted.'),
  permit_id: Id(),
  permit_name: Type.String(),
  permit_code: Nullable(Type.String()),
  edited_by: Type.String(),
  change_summary: Nullable(Type.String()),
  reason: Type.String({ description: 'What the batch was taken before: `delete`, `import`, `restore` or `edit`.' }),
  created_at: Timestamp(),
  risk_count: Count('Risks of the permit saved in the batch.'),
});

export const SnapshotList = Component('SnapshotList', 'One page of snapshot entries.', {
  snapshots: Type.Array(SnapshotEntry, { description: 'Newest batch first; permits of a batch in saved order.' }),
  pagination: Shape(PageFields),
});

export const SnapshotRestoreResult = Component('SnapshotRestoreResult', 'A restored snapshot batch.', {
  batch_id: Id(),
  restored_permits: Type.Array(Id(), { description: 'Every permit of the batch.' }),
  new_snapshot_batch_id: Nullable(Id(), 'The batch holding the state just before this restore; null when none of the permits existed.'),
  risk_count: Count('Risks put back.'),
});

export const snapshotDocs = routeDocs('snapshots', {
  list: {
    summary: 'Permit risk snapshots',
    description: "One item per (batch, permit), within the user's data scope. A filter that names nothing gives an empty list.",
    querystring: fields({
      ...aliased('region_id', ['region'], Type.String({ description: 'Region id, code or name, or the id of a region deleted since.' })),
      ...aliased('permit_id', ['permit'], Type.String({ description: "The saved permit's id, code or name." })),
      edited_by: Type.Optional(Type.String({ description: 'Exact.' })),
      ...pageQuery(20, 200),
    }),
    responses: { 200: ok('The page.', SnapshotList) },
  },
  restore: {
    summary: 'Restore every permit of a snapshot batch',
    description:
      'The current state of those permits is saved as a new batch first (restoring it undoes the restore); then each ' +
      "permit's record, theme links, approval departments and risks are put back, recreated under its id when deleted. One transaction.",
    params: pathParams({ batch_id: 'The snapshot batch id.' }),
    body: fields({
      edited_by: Type.Optional(Type.String({ description: "Recorded on the new batch; default the user's username, then display name, then `admin`." })),
      change_summary: Type.Optional(Type.String({ description: 'Recorded on the new batch; blank becomes null.' })),
    }),
    consumes: FORM_OR_JSON,
    responses: {
      200: ok('Restored.', SnapshotRestoreResult),
      400: failure('无法恢复许可事项“…”：所属区域已被删除; 无法恢复许可事项“…”：该区域已有事项编码为 … 的许可事项…'),
      403: failure("A batch spanning regions outside the user's data scope: 无权操作该区域的数据"),
      404: failure('快照批次不存在'),
    },
  },
});
