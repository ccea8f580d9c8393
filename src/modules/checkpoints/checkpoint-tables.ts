/**
 * What a checkpoint covers: every data table, in foreign-key order (parents first). A restore
 * deletes in the reverse order and inserts in this order. `checkpoint-tables.test.ts` compares
 * this list with the live schema, so a new table that is neither here nor in EXCLUDED_TABLES,
 * or a table listed before one of its parents, fails the tests.
 */
export interface CoveredTable {
  name: string;
  /** Primary key columns (a serial `id` has its sequence moved past the restored ids). */
  key: readonly string[];
  /** Columns referencing the same table (a department's parent): restored with the keys off, in any order, even a cycle. */
  selfRefs?: readonly string[];
}

export const COVERED_TABLES: readonly CoveredTable[] = [
  { name: 'regions', key: ['id'] },
  { name: 'themes', key: ['id'] },
  { name: 'region_themes', key: ['id'] },
  { name: 'service_departments', key: ['id'], selfRefs: ['parent_id'] },
  { name: 'users', key: ['id'] },
  { name: 'permit_files', key: ['id'] },
  { name: 'permits', key: ['id'] },
  { name: 'permit_themes', key: ['permit_id', 'theme_id'] },
  { name: 'approval_departments', key: ['id'] },
  { name: 'permit_approval_departments', key: ['permit_id', 'approval_department_id'] },
  { name: 'risks', key: ['id'] },
  { name: 'snapshot_batches', key: ['id'] },
  { name: 'snapshot_permits', key: ['id'] },
  { name: 'snapshot_risks', key: ['id'] },
  { name: 'app_meta', key: ['key'] },
  { name: 'search_lexicon', key: ['id'] },
];

/**
 * Tables a checkpoint deliberately leaves alone: who is logged in, login lockouts, workbooks
 * waiting for commit, the checkpoints themselves, the operation log and the query log. A restore
 * neither saves nor rolls them back (docs/checkpoints.md). Kysely's migration bookkeeping is
 * excluded by prefix.
 */
export const EXCLUDED_TABLES: readonly string[] = [
  'sessions',
  'login_failures',
  'import_sessions',
  'checkpoints',
  'checkpoint_chunks',
  'operation_logs',
  // The instances' change feed: a restore announces itself there instead of rolling it back.
  'data_changes',
  // What people asked: a record of the service's use, not of its data (docs/query-log.md).
  'query_log',
  'query_log_salts',
];

export const isBookkeepingTable = (name: string) => name.startsWith('kysely_migration');
