import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { changeDataset, dumpCoveredTables, seedSmallDataset, type SmallDataset } from './checkpoint-test-data.js';
import { encodeChunk, type ChunkFormat } from './chunk-codec.js';
import { liveColumns } from './live-schema.js';
import { withRawConnection } from './raw-connection.js';

// docs/checkpoints.md: checkpoints stored in the `json` row layout, which both databases wrote
// before (SQLite now stores an image, PostgreSQL `copy` chunks), still restore.
describe.each(testDialects())('checkpoints in older layouts on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let data: SmallDataset;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    data = await seedSmallDataset(t.dbh.db);
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  /** Stores the current covered tables as a checkpoint in `format`, two rows per chunk, as the older writers did. */
  async function storeOlderCheckpoint(format: ChunkFormat): Promise<number> {
    const dump = await dumpCoveredTables(t.dbh.db);
    const { id } = await t.dbh.db.insertInto('checkpoints').values({
      description: `older ${format}`, created_by: 'admin', kind: 'manual', table_stats: '[]', total_rows: 0, size_bytes: 0,
      created_at: '2026-01-01T00:00:00.000Z',
    }).returning('id').executeTakeFirstOrThrow();
    const stats = [];
    for (const [table, rows] of Object.entries(dump)) {
      const columns = (await withRawConnection(t.dbh, (conn) => liveColumns(conn, table))).map((c) => c.name);
      const binary = columns.filter((c) => rows.some((r) => Buffer.isBuffer(r[c])));
      let chunks = 0;
      for (let at = 0; at < rows.length; at += 2, chunks++) {
        const part = rows.slice(at, at + 2).map((r) => columns.map((c) => r[c]));
        const content = await encodeChunk({ format, columns, binary, rows: part });
        await t.dbh.db.insertInto('checkpoint_chunks')
          .values({ checkpoint_id: id, table_name: table, chunk_index: chunks, row_count: part.length, content }).execute();
      }
      stats.push({ table, rows: rows.length, chunks, bytes: 0 });
    }
    await t.dbh.db.updateTable('checkpoints').set({ table_stats: JSON.stringify(stats) }).where('id', '=', id).execute();
    return id;
  }

  it('restores a json checkpoint exactly', async () => {
    const state = await dumpCoveredTables(t.dbh.db);
    const id = await storeOlderCheckpoint('json');
    await changeDataset(t.dbh.db, data);
    expect(await dumpCoveredTables(t.dbh.db)).not.toEqual(state);
    const res = await t.app.inject({
      method: 'POST', url: `${API}/admin/checkpoints/${id}/restore`, payload: { create_auto_backup: false }, headers: { cookie: admin },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await dumpCoveredTables(t.dbh.db)).toEqual(state);
  });
});
