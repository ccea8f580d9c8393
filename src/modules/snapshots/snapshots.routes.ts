import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { asInput, readInt, readNullableString, readString } from '../../http/readers.js';
import { defaultEditor } from '../auth/current-user.js';
import { regionScope } from '../auth/data-scope.js';
import { parseRecordId } from '../../http/record-id.js';
import { restoreSnapshotBatch } from './restore-snapshot.js';
import { snapshotDocs } from './snapshots.openapi.js';
import { listSnapshots } from './snapshots.service.js';

/** Permit risk snapshots: list and restore. */
export function registerSnapshotRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  app.get(`${apiRoot}/admin/permit-risk-snapshots`, { config: { doc: snapshotDocs.list } }, async (req) => {
    const q = asInput(req.query);
    const data = await listSnapshots(ctx.readDb, regionScope(req.user), {
      region: readString(q, 'region_id', 'region'),
      permit: readString(q, 'permit_id', 'permit'),
      editedBy: readString(q, 'edited_by'),
      limit: readInt(q, 'limit', { def: 20, min: 1, max: 200 }),
      offset: readInt(q, 'offset', { def: 0, min: 0 }),
    });
    return { success: true, data };
  });

  app.post(
    `${apiRoot}/admin/permit-risk-snapshots/:batch_id/restore`,
    { config: { operation: { type: 'restore', summary: '恢复风险快照', targetType: 'snapshot_batch' }, doc: snapshotDocs.restore } },
    async (req) => {
      const body = asInput(req.body);
      const batchId = parseRecordId((req.params as { batch_id: string }).batch_id);
      req.operation.targetId = batchId;
      const result = await restoreSnapshotBatch(ctx, regionScope(req.user), batchId, {
        editedBy: readString(body, 'edited_by') ?? defaultEditor(req.user),
        changeSummary: readNullableString(body, 'change_summary') ?? null,
      });
      Object.assign(req.operation, {
        targetName: `快照批次 #${result.batch_id}`,
        summary:
          `恢复快照批次 #${result.batch_id}：${result.restored_permits.length} 个许可事项、${result.risk_count} 条风险` +
          (result.new_snapshot_batch_id ? `，恢复前状态已保存为批次 #${result.new_snapshot_batch_id}` : ''),
      });
      return { success: true, data: result };
    },
  );
}
