import { Type } from '@sinclair/typebox';
import { failure, FORM_OR_JSON, json, ok, okBody, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Nullable, Shape, Timestamp } from '../../http/openapi/shapes.js';

const tableName = Type.String({ description: 'A covered table, in foreign-key order (docs/checkpoints.md).' });

/** A checkpoint as listed and as created (presentCheckpoint). */
export const Checkpoint = Component('Checkpoint', 'A whole-database checkpoint.', {
  checkpoint_id: Id(),
  id: Id('The same as `checkpoint_id`.'),
  description: Type.String(),
  created_by: Type.String({ description: "The operator's username (else display name, else `admin`)." }),
  kind: Type.Union([Type.Literal('manual'), Type.Literal('auto_backup')], { description: '`auto_backup`: taken before a restore.' }),
  created_at: Timestamp(),
  total_rows: Count('Rows in all covered tables.'),
  size_bytes: Count('Compressed size.'),
  table_stats: Type.Array(Shape({ table: tableName, rows: Count('Rows.'), chunks: Count('Stored chunks.'), bytes: Count('Compressed bytes.') }), {
    description: 'One entry per covered table.',
  }),
  tables: Count('How many tables it covers.'),
});

export const CheckpointRestoreResult = Component('CheckpointRestoreResult', 'A completed restore.', {
  checkpoint_id: Id(),
  tables_restored: Count('Tables replaced.'),
  total_rows: Count('Rows written.'),
  auto_backup: Nullable(Id(), 'The backup checkpoint taken first, or null.'),
  table_details: Type.Array(Shape({ table: tableName, rows: Count('Rows written.') })),
});

const params = pathParams({ checkpoint_id: 'The checkpoint id.' });

export const checkpointDocs = routeDocs('checkpoints', {
  list: { summary: 'Checkpoints', responses: { 200: ok('Newest first.', Shape({ checkpoints: Type.Array(Checkpoint) })) } },
  create: {
    summary: 'Create a checkpoint',
    description: 'A complete copy of every covered table, read in one transaction.',
    consumes: FORM_OR_JSON,
    responses: { 200: ok('The new checkpoint.', Checkpoint) },
  },
  restore: {
    summary: 'Restore a checkpoint (destructive)',
    description:
      "Replaces the content of every covered table with the checkpoint's, in one transaction; sessions, the operation log " +
      'and the checkpoints themselves are kept. A failed restore leaves the database as it was.',
    params,
    consumes: FORM_OR_JSON,
    responses: {
      200: json(
        'Restored.',
        okBody({ message: Type.String({ description: 'Checkpoint <id> restored: <n> tables, <m> rows' }), data: CheckpointRestoreResult }),
      ),
      404: failure('Checkpoint not found'),
      500: failure(
        "The checkpoint's data did not check out (with `errors`, and the backup to recover from), or the restore failed: " +
          'Restore failed: <cause> (with `error_type`).',
        Type.Union([
          Shape(
            {
              errors: Type.Array(Type.String()),
              auto_backup_available: Nullable(Id(), 'The backup taken first.'),
              recovery_suggestion: Type.Optional(Type.String({ description: '可从自动备份检查点 <id> 恢复, when a backup was taken.' })),
            },
            { description: 'A restore that reported errors.' },
          ),
          Shape({ error_type: Type.String(), auto_backup_available: Type.Null() }, { description: 'A restore that failed.' }),
        ]),
      ),
    },
  },
  remove: {
    summary: 'Delete a checkpoint',
    params,
    responses: { 200: json('Deleted.', okBody({ message: Type.Literal('Checkpoint deleted') })), 404: failure('Checkpoint not found') },
  },
});
