import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../../../test/helpers/databases.js';
import { ALL_BYTES, dumpCoveredTables, seedSmallDataset, storedChunks } from '../../../test/helpers/checkpoint-data.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { compressPiece, decompressPiece, type CheckpointStore, type TableStat } from './checkpoint-store.js';
import { COVERED_TABLES } from './checkpoint-tables.js';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

const AWKWARD = ['tab\there', 'line\nbreak', 'back\\slash \\N', 'cr\r', 'quote \' "', '中文 🚀', '', '\\x41'];

describe('chunk compression', () => {
  it('compresses with a checksum and finds damage', async () => {
    const content = Buffer.from(AWKWARD.join('\n').repeat(200));
    const stored = await compressPiece(content);
    expect(stored.length).toBeLessThan(content.length / 4);
    expect(await decompressPiece(stored)).toEqual(content);
    const badSum = Buffer.from(stored);
    badSum[badSum.length - 1] ^= 1;
    await expect(decompressPiece(badSum)).rejects.toThrow('checksum mismatch');
    const badBody = Buffer.from(stored);
    badBody[Math.floor(badBody.length / 2)] ^= 0x55;
    await expect(decompressPiece(badBody)).rejects.toThrow('checksum mismatch');
    await expect(decompressPiece(Buffer.from('not compressed'))).rejects.toThrow('not a compressed checkpoint chunk');
  });
});

// Tiny pieces: every table is cut into many chunks, rows and values split across them anywhere.
describe.each(testDialects())('chunks of a few bytes on %s', (dialect) => {
  const PIECE = 97;
  let database: TestDatabase;
  let dbh: DatabaseHandle;
  let store: CheckpointStore;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dbh = await openMigrated(database);
    await seedSmallDataset(dbh.db);
    await dbh.db
      .insertInto('app_meta')
      .values(AWKWARD.filter((k) => k !== '').map((key, i) => ({ key, value: `${key}${i}` })))
      .execute();
    store = dialect === 'sqlite' ? new SqliteCheckpointStore(dbh, PIECE) : new PostgresCheckpointStore(dbh, PIECE);
  });
  afterAll(async () => {
    await dbh?.close();
    await database?.drop();
  });

  const draft = { description: 'pieces', createdBy: 'admin', kind: 'manual' as const, createdAt: new Date().toISOString() };
  const request = { batchSize: 2, backup: null, onBackup: () => {}, beforeCommit: () => [] };

  it('stores each table in pieces of exactly the piece size but its last, and restores every row exactly once', async () => {
    const state = await dumpCoveredTables(dbh.db);
    expect(state.permit_files[0].content).toEqual(ALL_BYTES);
    const id = await store.create(draft);
    const stats = await store.verify(id);
    expect(stats.map((s) => [s.table, s.rows])).toEqual(COVERED_TABLES.map((t) => [t.name, state[t.name].length]));
    for (const { table, chunks } of stats) {
      const stored = await storedChunks(dbh.db, id, table);
      const sizes = await Promise.all(stored.map(async (c) => (await decompressPiece(c.content)).length));
      expect(sizes.length, table).toBe(chunks);
      expect(
        sizes.slice(0, -1).every((n) => n === PIECE),
        table,
      ).toBe(true);
      expect(sizes[sizes.length - 1], table).toBeLessThanOrEqual(PIECE);
    }
    expect(stats.find((s) => s.table === 'risks')!.chunks).toBeGreaterThan(10);

    await dbh.db.deleteFrom('risks').execute();
    await dbh.db.deleteFrom('app_meta').where('key', 'like', '%\\%').execute();
    await dbh.db
      .updateTable('permit_files')
      .set({ content: Buffer.from('changed') })
      .execute();
    const restored = await store.restore(id, request);
    expect(restored).toEqual(stats.map((s: TableStat) => ({ table: s.table, rows: s.rows })));
    expect(await dumpCoveredTables(dbh.db)).toEqual(state);
  });

  it('refuses a checkpoint of another format before changing anything', async () => {
    const id = await store.create(draft);
    await dbh.db.updateTable('checkpoints').set({ format: 'json' }).where('id', '=', id).execute();
    await dbh.db.deleteFrom('risks').where('position', '=', 0).execute();
    const state = await dumpCoveredTables(dbh.db);
    await expect(store.restore(id, request)).rejects.toMatchObject({ errors: ['checkpoint format "json" cannot be restored here'] });
    expect(await dumpCoveredTables(dbh.db)).toEqual(state);
  });
});
