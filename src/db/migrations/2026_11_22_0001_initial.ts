import type { CreateTableBuilder, Kysely } from 'kysely';
import { createTableWithId, isPostgres } from './schema-kit.js';

// Migrations never import application code (what they share is in schema-kit.ts): they see the
// database as Kysely<any> and branch only where the DDL differs (ids, blobs).

type Table = CreateTableBuilder<string, never>;

export async function up(db: Kysely<any>): Promise<void> {
  const blob = isPostgres(db) ? 'bytea' : 'blob';
  /** A risk's place in its list and its seven fields: `risks` and `snapshot_risks` hold the same. */
  const withRiskColumns = (t: Table): Table =>
    t
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('risk_type', 'text')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('legal_basis', 'text')
      .addColumn('consequence', 'text')
      .addColumn('prevention', 'text')
      .addColumn('level', 'text');
  const create = (name: string, withSerial = true): Table => (withSerial ? createTableWithId(db, name) : db.schema.createTable(name));

  await create('regions')
    .addColumn('code', 'text', (c) => c.unique())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await create('themes')
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await create('region_themes')
    .addColumn('region_id', 'integer', (c) => c.notNull().references('regions.id').onDelete('cascade'))
    .addColumn('theme_id', 'integer', (c) => c.notNull().references('themes.id').onDelete('cascade'))
    .addUniqueConstraint('region_themes_region_theme_uq', ['region_id', 'theme_id'])
    .execute();
  await db.schema.createIndex('region_themes_theme_idx').on('region_themes').column('theme_id').execute();

  await create('service_departments')
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('phone', 'text')
    .addColumn('parent_id', 'integer', (c) => c.references('service_departments.id'))
    .addColumn('region_id', 'integer', (c) => c.references('regions.id'))
    .addColumn('description', 'text')
    .addColumn('grade', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unit_level', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('service_departments_parent_idx').on('service_departments').column('parent_id').execute();
  await db.schema.createIndex('service_departments_region_idx').on('service_departments').column('region_id').execute();

  await create('users')
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('grade', 'integer', (c) => c.notNull())
    .addColumn('service_department_id', 'integer', (c) => c.references('service_departments.id').onDelete('set null'))
    .addColumn('department_role', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_login_at', 'text')
    .execute();
  await db.schema.createIndex('users_department_idx').on('users').column('service_department_id').execute();

  await create('sessions', false)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_last_seen_idx').on('sessions').column('last_seen_at').execute();

  await create('login_failures')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_user_idx').on('login_failures').columns(['username', 'created_at']).execute();

  await create('permit_files')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('uploader_id', 'integer')
    .addColumn('region_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('permit_files_created_idx').on('permit_files').column('created_at').execute();
  await db.schema.createIndex('permit_files_sha_idx').on('permit_files').column('sha256').execute();

  await create('permits')
    .addColumn('region_id', 'integer', (c) => c.notNull().references('regions.id'))
    .addColumn('code', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('implementation_level', 'text')
    .addColumn('internal_contact', 'text')
    .addColumn('contact_info', 'text')
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('source_file_id', 'integer', (c) => c.references('permit_files.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('permits_region_code_uq', ['region_id', 'code'])
    .execute();
  await db.schema.createIndex('permits_region_name_idx').on('permits').columns(['region_id', 'name']).execute();
  await db.schema.createIndex('permits_source_file_idx').on('permits').column('source_file_id').execute();

  await create('permit_themes', false)
    .addColumn('permit_id', 'integer', (c) => c.notNull().references('permits.id').onDelete('cascade'))
    .addColumn('theme_id', 'integer', (c) => c.notNull().references('themes.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('permit_themes_pk', ['permit_id', 'theme_id'])
    .execute();
  await db.schema.createIndex('permit_themes_theme_idx').on('permit_themes').column('theme_id').execute();

  await create('approval_departments')
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('service_department_id', 'integer', (c) => c.references('service_departments.id').onDelete('set null'))
    .execute();

  await create('permit_approval_departments', false)
    .addColumn('permit_id', 'integer', (c) => c.notNull().references('permits.id').onDelete('cascade'))
    .addColumn('approval_department_id', 'integer', (c) => c.notNull().references('approval_departments.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('permit_approval_departments_pk', ['permit_id', 'approval_department_id'])
    .execute();
  await db.schema.createIndex('permit_approval_departments_dept_idx').on('permit_approval_departments').column('approval_department_id').execute();

  await create('risks')
    .addColumn('permit_id', 'integer', (c) => c.notNull().references('permits.id').onDelete('cascade'))
    .$call(withRiskColumns)
    .execute();
  await db.schema.createIndex('risks_permit_idx').on('risks').columns(['permit_id', 'position']).execute();

  await create('import_sessions', false)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uploader_id', 'integer')
    .addColumn('uploader_name', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .addColumn('binding_mode', 'text', (c) => c.notNull())
    .addColumn('department_id', 'integer')
    .addColumn('parsed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('committed_at', 'text')
    .execute();
  await db.schema.createIndex('import_sessions_expires_idx').on('import_sessions').column('expires_at').execute();

  await create('snapshot_batches')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('edited_by', 'text', (c) => c.notNull())
    .addColumn('change_summary', 'text')
    .addColumn('permit_count', 'integer', (c) => c.notNull())
    .addColumn('risk_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshot_batches_created_idx').on('snapshot_batches').column('created_at').execute();
  await db.schema.createIndex('snapshot_batches_editor_idx').on('snapshot_batches').column('edited_by').execute();

  await create('snapshot_permits')
    .addColumn('batch_id', 'integer', (c) => c.notNull().references('snapshot_batches.id').onDelete('cascade'))
    .addColumn('region_id', 'integer', (c) => c.notNull())
    .addColumn('permit_id', 'integer', (c) => c.notNull())
    .addColumn('permit_name', 'text', (c) => c.notNull())
    .addColumn('permit_code', 'text')
    .addColumn('permit_data', 'text', (c) => c.notNull())
    .addColumn('risk_count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshot_permits_batch_idx').on('snapshot_permits').column('batch_id').execute();
  await db.schema.createIndex('snapshot_permits_permit_idx').on('snapshot_permits').columns(['region_id', 'permit_id']).execute();

  await create('snapshot_risks')
    .addColumn('snapshot_permit_id', 'integer', (c) => c.notNull().references('snapshot_permits.id').onDelete('cascade'))
    .$call(withRiskColumns)
    .execute();
  await db.schema.createIndex('snapshot_risks_permit_idx').on('snapshot_risks').columns(['snapshot_permit_id', 'position']).execute();

  await create('checkpoints')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('table_stats', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await create('checkpoint_chunks')
    .addColumn('checkpoint_id', 'integer', (c) => c.notNull().references('checkpoints.id').onDelete('cascade'))
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checkpoint_chunks_checkpoint_idx').on('checkpoint_chunks').columns(['checkpoint_id', 'table_name', 'chunk_index']).execute();

  await create('operation_logs')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'integer')
    .addColumn('operator_username', 'text')
    .addColumn('operator_name', 'text')
    .addColumn('operation_type', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_name', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('params', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('client_ip', 'text')
    .addColumn('request_id', 'text')
    .execute();
  await db.schema.createIndex('operation_logs_created_idx').on('operation_logs').column('created_at').execute();
  await db.schema.createIndex('operation_logs_operator_idx').on('operation_logs').column('operator_username').execute();
  await db.schema.createIndex('operation_logs_type_idx').on('operation_logs').column('operation_type').execute();

  await create('app_meta', false)
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

const TABLES = [
  'app_meta',
  'operation_logs',
  'checkpoint_chunks',
  'checkpoints',
  'snapshot_risks',
  'snapshot_permits',
  'snapshot_batches',
  'import_sessions',
  'risks',
  'permit_approval_departments',
  'approval_departments',
  'permit_themes',
  'permits',
  'permit_files',
  'login_failures',
  'sessions',
  'users',
  'service_departments',
  'region_themes',
  'themes',
  'regions',
];

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of TABLES) await db.schema.dropTable(t).ifExists().execute();
}
