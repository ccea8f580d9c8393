import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { DatabaseHandle } from '../../src/db/connect.js';
import type { DB } from '../../src/db/database.js';
import { compressPiece, decompressPiece, type TableStat } from '../../src/modules/checkpoints/checkpoint-store.js';
import { COVERED_TABLES } from '../../src/modules/checkpoints/checkpoint-tables.js';
import { blankRisk } from './permit-row.js';
import { quoteIdent } from '../../src/db/dialect.js';

// Test data for the checkpoint suites: a small but complete catalogue touching every covered
// table, with the awkward values a copy must carry unchanged (nulls, quotes, emoji, binary).

const T = '2026-01-02T03:04:05.000Z';

/** Every byte value, so a blob survives base64 and both databases' binary types. */
export const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

export interface SmallDataset {
  regions: number[];
  permits: number[];
  departments: number[];
}

export async function seedSmallDataset(db: DB): Promise<SmallDataset> {
  const id = async <R extends { id: number }>(q: { executeTakeFirstOrThrow(): Promise<R> }) => (await q.executeTakeFirstOrThrow()).id;
  const regions = [
    await id(db.insertInto('regions').values({ code: '511602', name: '广安区', created_at: T }).returning('id')),
    await id(db.insertInto('regions').values({ code: null, name: '前锋区 "新"', created_at: T }).returning('id')),
  ];
  const themes: number[] = [];
  for (const name of ['开办餐饮店', '开办药店', "O'Brien 主题"]) {
    themes.push(await id(db.insertInto('themes').values({ name, created_at: T }).returning('id')));
  }
  await db
    .insertInto('region_themes')
    .values([
      { region_id: regions[0], theme_id: themes[0] },
      { region_id: regions[0], theme_id: themes[1] },
      { region_id: regions[1], theme_id: themes[2] },
    ])
    .execute();

  // A child created before its parent (parent id > child id): the self-reference must not depend on row order.
  const dept = (name: string, code: string, region: number | null) =>
    id(
      db
        .insertInto('service_departments')
        .values({
          name,
          code,
          phone: null,
          parent_id: null,
          region_id: region,
          description: '说明\n第二行',
          grade: 80,
          unit_level: null,
          created_at: T,
          updated_at: T,
        })
        .returning('id'),
    );
  const child = await dept('区市场监管局', 'SCJG', regions[0]);
  const parent = await dept('市政务服务中心', 'ZWZX', null);
  await db.updateTable('service_departments').set({ parent_id: parent, grade: 90 }).where('id', '=', child).execute();

  await db
    .insertInto('users')
    .values({
      username: 'scjg',
      password_hash: '$argon2id$v=19$placeholder',
      display_name: '市场监管',
      role: 'department_admin',
      grade: 80,
      service_department_id: child,
      department_role: 'admin',
      is_active: 1,
      must_change_password: 0,
      created_at: T,
      updated_at: T,
      last_login_at: null,
    })
    .execute();

  const file = await id(
    db
      .insertInto('permit_files')
      .values({
        filename: '清单.xlsx',
        content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        size: ALL_BYTES.length,
        sha256: 'ab'.repeat(32),
        content: ALL_BYTES,
        uploaded_by: 'admin',
        uploader_id: null,
        region_id: regions[0],
        created_at: T,
      })
      .returning('id'),
  );

  const permits: number[] = [];
  for (let i = 0; i < 5; i++) {
    permits.push(
      await id(
        db
          .insertInto('permits')
          .values({
            region_id: regions[i % 2],
            code: i === 4 ? null : `P-${i}`,
            name: `许可事项 ${i} 🚀`,
            implementation_level: i % 2 ? '县级' : null,
            internal_contact: '张三 13800000000',
            contact_info: null,
            visible: i === 3 ? 0 : 1,
            source_file_id: i < 2 ? file : null,
            created_at: T,
            updated_at: T,
          })
          .returning('id'),
      ),
    );
  }
  await db
    .insertInto('permit_themes')
    .values(permits.map((p, i) => ({ permit_id: p, theme_id: themes[i % 3] })))
    .execute();
  const approval = await id(db.insertInto('approval_departments').values({ name: '广安区市场监督管理局', service_department_id: child }).returning('id'));
  await db
    .insertInto('permit_approval_departments')
    .values(permits.slice(0, 3).map((p) => ({ permit_id: p, approval_department_id: approval, position: 0 })))
    .execute();
  await db
    .insertInto('risks')
    .values(
      permits.flatMap((p, i) =>
        Array.from({ length: 3 }, (_, n) => ({
          permit_id: p,
          position: n,
          risk_type: n === 0 ? null : '程序风险',
          title: `风险 ${i}-${n}`,
          description: 'a "quoted" \\ back\tslash',
          legal_basis: '《食品安全法》第三十五条',
          consequence: null,
          prevention: '防范\u2028建议',
          level: ['高', '中', '低'][n],
        })),
      ),
    )
    .execute();

  const batch = await id(
    db
      .insertInto('snapshot_batches')
      .values({ reason: 'delete', edited_by: 'admin', change_summary: null, permit_count: 1, risk_count: 1, created_at: T })
      .returning('id'),
  );
  const snapPermit = await id(
    db
      .insertInto('snapshot_permits')
      .values({ batch_id: batch, region_id: regions[0], permit_id: 999, permit_name: '已删除许可', permit_code: null, permit_data: '{"a":1}', risk_count: 1 })
      .returning('id'),
  );
  await db
    .insertInto('snapshot_risks')
    .values({ snapshot_permit_id: snapPermit, position: 0, ...blankRisk('旧风险') })
    .execute();
  await db
    .insertInto('app_meta')
    .values([
      { key: 'data_version', value: '7' },
      { key: 'template', value: '{"name":"模板"}' },
    ])
    .execute();
  return { regions, permits, departments: [child, parent] };
}

export type TableDump = Record<string, Record<string, unknown>[]>;

/** Every covered table, all columns, in key order: two dumps are equal exactly when the data is. */
export async function dumpCoveredTables(db: DB): Promise<TableDump> {
  const out: TableDump = {};
  for (const table of COVERED_TABLES) {
    let q = db.selectFrom(table.name as 'regions').selectAll();
    for (const k of table.key) q = q.orderBy(k as 'id');
    out[table.name] = await q.execute();
  }
  return out;
}

/** Changes every kind of row after a checkpoint: deletes, inserts and updates across the tables. */
export async function changeDataset(db: DB, data: SmallDataset): Promise<void> {
  await db.deleteFrom('risks').where('permit_id', '=', data.permits[0]).execute();
  await db.deleteFrom('permits').where('id', '=', data.permits[4]).execute();
  await db.updateTable('permits').set({ name: '改过的名字' }).where('id', '=', data.permits[1]).execute();
  await db.updateTable('service_departments').set({ parent_id: null }).execute();
  await db.insertInto('regions').values({ code: '999999', name: '新区域', created_at: T }).execute();
  await db
    .insertInto('risks')
    .values({ permit_id: data.permits[2], position: 9, ...blankRisk('新增风险') })
    .execute();
  await db.deleteFrom('permit_files').execute();
  await db.deleteFrom('app_meta').where('key', '=', 'template').execute();
  await db.deleteFrom('snapshot_batches').execute();
}

interface StoredImage {
  bytes: Buffer;
  /** The stored chunks in image order, with how many bytes of the image each holds. */
  chunks: Array<{ id: number; length: number }>;
}

/** A SQLite checkpoint's database image, put together from its chunks. */
async function storedImage(dbh: DatabaseHandle, checkpointId: number): Promise<StoredImage> {
  const { table_stats } = await dbh.db.selectFrom('checkpoints').select('table_stats').where('id', '=', checkpointId).executeTakeFirstOrThrow();
  const order = (JSON.parse(table_stats) as Array<{ table: string }>).map((s) => s.table);
  const rows = await dbh.db
    .selectFrom('checkpoint_chunks')
    .select(['id', 'table_name', 'chunk_index', 'content'])
    .where('checkpoint_id', '=', checkpointId)
    .execute();
  rows.sort((a, b) => order.indexOf(a.table_name) - order.indexOf(b.table_name) || a.chunk_index - b.chunk_index);
  const pieces = await Promise.all(rows.map((r) => decompressPiece(r.content)));
  return { bytes: Buffer.concat(pieces), chunks: rows.map((r, i) => ({ id: r.id, length: pieces[i].length })) };
}

/**
 * PostgreSQL: one table of a checkpoint loaded into a temporary table of the same name (which
 * unqualified names then find first), without keys or constraints, for `fn`; with `store`, the
 * table is written back as the checkpoint's chunks of that table.
 */
async function withStoredTable<T>(
  dbh: DatabaseHandle,
  checkpointId: number,
  table: string,
  fn: (client: pg.PoolClient) => Promise<T>,
  store = false,
): Promise<T> {
  const row = await dbh.db.selectFrom('checkpoints').select('table_stats').where('id', '=', checkpointId).executeTakeFirstOrThrow();
  const stats = JSON.parse(row.table_stats) as TableStat[];
  const stat = stats.find((s) => s.table === table)!;
  const chunks = await storedChunks(dbh.db, checkpointId, table);
  const client = await dbh.pool!.connect();
  try {
    await client.query(
      `create temporary table ${quoteIdent(table)} (${stat.columns!.map((c, i) => `${quoteIdent(c)} ${quoteIdent(stat.types![i])}`).join(', ')})`,
    );
    const pieces = await Promise.all(chunks.map((c) => decompressPiece(c.content)));
    await pipeline(Readable.from(pieces), client.query(copyFrom(`copy pg_temp.${quoteIdent(table)} from stdin (format binary)`)));
    const result = await fn(client);
    if (store) {
      const copied = Buffer.concat(await client.query(copyTo(`copy pg_temp.${quoteIdent(table)} to stdout (format binary)`)).toArray());
      await dbh.db.deleteFrom('checkpoint_chunks').where('checkpoint_id', '=', checkpointId).where('table_name', '=', table).execute();
      const content = await compressPiece(copied);
      await dbh.db.insertInto('checkpoint_chunks').values({ checkpoint_id: checkpointId, table_name: table, chunk_index: 0, row_count: 0, content }).execute();
      stat.chunks = 1;
      stat.bytes = content.length;
      await dbh.db
        .updateTable('checkpoints')
        .set({ table_stats: JSON.stringify(stats) })
        .where('id', '=', checkpointId)
        .execute();
    }
    return result;
  } finally {
    try {
      await client.query(`drop table if exists pg_temp.${quoteIdent(table)}`);
    } finally {
      client.release();
    }
  }
}

/** A checkpoint's stored chunks of one table, in order. */
export function storedChunks(db: DB, checkpointId: number, table: string) {
  return db
    .selectFrom('checkpoint_chunks')
    .select(['id', 'chunk_index', 'content'])
    .where('checkpoint_id', '=', checkpointId)
    .where('table_name', '=', table)
    .orderBy('chunk_index')
    .execute();
}

/** The rows a checkpoint holds for one table (column name → value). */
export async function checkpointRows(dbh: DatabaseHandle, checkpointId: number, table: string): Promise<Record<string, unknown>[]> {
  if (dbh.kind === 'postgres')
    return withStoredTable(dbh, checkpointId, table, async (c) => (await c.query(`select * from pg_temp.${quoteIdent(table)}`)).rows);
  const image = await storedImage(dbh, checkpointId);
  const db = new Database(image.bytes, { readonly: true });
  try {
    return db.prepare(`select * from ${quoteIdent(table)} order by rowid`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** PostgreSQL: runs `sql` on one table of a checkpoint (a temporary table of its name) and stores it back. */
export async function editCheckpointTable(dbh: DatabaseHandle, checkpointId: number, table: string, sql: string): Promise<void> {
  await withStoredTable(dbh, checkpointId, table, (client) => client.query(sql), true);
}

/** SQLite: runs `sql` on a checkpoint's image and stores the image back (the change must keep its size). */
export async function editCheckpointImage(dbh: DatabaseHandle, checkpointId: number, sql: string): Promise<void> {
  const image = await storedImage(dbh, checkpointId);
  const db = new Database(image.bytes);
  db.exec(sql);
  const edited = db.serialize();
  db.close();
  if (edited.length !== image.bytes.length) throw new Error('the edit changed the image size');
  let at = 0;
  for (const { id, length } of image.chunks) {
    const content = await compressPiece(edited.subarray(at, (at += length)));
    await dbh.db.updateTable('checkpoint_chunks').set({ content }).where('id', '=', id).execute();
  }
}
