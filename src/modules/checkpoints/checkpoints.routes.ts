import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { asInput, readFlag, readInt, readString } from '../../http/readers.js';
import { defaultEditor } from '../auth/current-user.js';
import {
  BATCH_SIZE,
  createCheckpoint,
  deleteCheckpoint,
  describeCheckpointCreated,
  describeRestore,
  listCheckpoints,
  restoreCheckpoint,
} from './checkpoints.service.js';
import { checkpointDocs } from './checkpoints.openapi.js';
import { adminChange } from '../../http/guards.js';

// JSON or form bodies. The two restore fields take anything: an invalid value falls back to its default.
const CreateBody = Type.Union([
  Type.Object(
    { description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: 'Free text; default empty.' })) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);
const RestoreBody = Type.Union([
  Type.Object(
    {
      create_auto_backup: Type.Optional(
        Type.Unknown({ description: 'Take a backup checkpoint of the current state first: 1, true, yes, on (any case); default true.' }),
      ),
      batch_size: Type.Optional(Type.Unknown({ description: 'Rows per insert, 100..10000; anything else 1000.' })),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

type WithCheckpointId = FastifyRequest<{ Params: { checkpoint_id: string } }>;

/**
 * Checkpoints. A checkpoint holds and a restore replaces every region's data and
 * the accounts, so every route, the list included, needs the admin guard (docs/checkpoints.md).
 */

const checkpointChange = adminChange('checkpoint');
export function registerCheckpointRoutes(app: FastifyInstance, ctx: AppContext): void {
  const base = `${ctx.config.apiRoot}/admin/checkpoints`;

  app.get(base, { config: { guard: 'admin', doc: checkpointDocs.list } }, async () => ({ success: true, data: { checkpoints: await listCheckpoints(ctx) } }));

  app.post(base, { schema: { body: CreateBody }, config: checkpointChange('checkpoint', '创建检查点', checkpointDocs.create) }, async (req) => {
    const description = readString(asInput(req.body), 'description') ?? '';
    req.operation.targetName = description || null;
    const checkpoint = await createCheckpoint(ctx, description, defaultEditor(req.user));
    req.operation.targetId = checkpoint.checkpoint_id;
    req.operation.summary = describeCheckpointCreated(checkpoint);
    return { success: true, data: checkpoint };
  });

  app.post(
    `${base}/:checkpoint_id/restore`,
    { schema: { body: RestoreBody }, config: checkpointChange('restore', '恢复检查点', checkpointDocs.restore) },
    async (req: WithCheckpointId) => {
      const body = asInput(req.body);
      req.operation.targetId = req.params.checkpoint_id;
      const batchSize = readInt(body, 'batch_size', BATCH_SIZE);
      const result = await restoreCheckpoint(ctx, req.params.checkpoint_id, {
        autoBackup: readFlag(body, 'create_auto_backup', true),
        batchSize,
        operator: defaultEditor(req.user),
      });
      req.operation.summary = describeRestore(result, batchSize);
      return {
        success: true,
        message: `Checkpoint ${result.checkpoint_id} restored: ${result.tables_restored} tables, ${result.total_rows} rows`,
        data: result,
      };
    },
  );

  app.delete(`${base}/:checkpoint_id`, { config: checkpointChange('delete', '删除检查点', checkpointDocs.remove) }, async (req: WithCheckpointId) => {
    req.operation.targetId = req.params.checkpoint_id;
    await deleteCheckpoint(ctx, req.params.checkpoint_id);
    req.operation.summary = `删除检查点 ${req.params.checkpoint_id}`;
    return { success: true, message: 'Checkpoint deleted' };
  });
}
