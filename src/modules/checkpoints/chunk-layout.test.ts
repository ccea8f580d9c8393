import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../../../test/helpers/databases.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { ALL_BYTES, seedSmallDataset } from './checkpoint-test-data.js';
import { COVERED_TABLES } from './checkpoint-tables.js';
import { chunkHeader, compressChunk, copyValue, decodeChunk, encodeChunk, openChunk, type ChunkData } from './chunk-codec.js';
import { compressChunkContent, decompressChunkContent } from './chunk-compression.js';
import { pageReader } from './chunk-sql.js';
import { encodeTuples } from './copy-binary.js';
import { liveColumns } from './live-schema.js';
import { withRawConnection } from './raw-connection.js';

const AWKWARD = ['tab\there', 'line\nbreak', 'back\\slash \\N', 'cr\r', "quote ' \"", '中文 🚀', '', '\\x41'];

describe('chunk layouts', () => {
  it.each(['json', 'copy', 'copy-binary'] as const)('round-trips awkward values and blobs in the %s layout', async (format) => {
    const binary = format === 'copy-binary';
    const data: ChunkData = {
      format,
      columns: ['key', 'text', 'blob'],
      ...(binary ? { types: ['int4', 'text', 'bytea'] } : {}),
      binary: ['blob'],
      rows: AWKWARD.map((text, i) => [binary ? i - 3 : String(i), text, i % 2 ? ALL_BYTES : null]),
    };
    const decoded = await decodeChunk(await encodeChunk(data));
    expect(decoded).toEqual(data);
    const opened = await openChunk(await encodeChunk(data));
    expect(opened).toMatchObject({ format, rowCount: AWKWARD.length, columns: data.columns });
  });

  it('compresses with a checksum, finds damage, and still reads gzip', async () => {
    const content = Buffer.from(AWKWARD.join('\n').repeat(200));
    const stored = await compressChunkContent([content.subarray(0, 100), content.subarray(100)]);
    expect(stored.length).toBeLessThan(content.length / 4);
    expect(await decompressChunkContent(stored)).toEqual(content);
    expect(await decompressChunkContent(gzipSync(content))).toEqual(content);
    const badSum = Buffer.from(stored);
    badSum[badSum.length - 1] ^= 1;
    await expect(decompressChunkContent(badSum)).rejects.toThrow('checksum mismatch');
    const badBody = Buffer.from(stored);
    badBody[Math.floor(badBody.length / 2)] ^= 0x55;
    await expect(decompressChunkContent(badBody)).rejects.toThrow('checksum mismatch');
    await expect(decompressChunkContent(Buffer.from('not compressed'))).rejects.toThrow('not a compressed checkpoint chunk');
  });

  it('reads the COPY escapes PostgreSQL writes', () => {
    expect(['\\N', 'a\\tb', 'a\\nb', 'a\\\\b', '\\\\N', 'x\\ry'].map(copyValue)).toEqual([null, 'a\tb', 'a\nb', 'a\\b', '\\N', 'x\ry']);
  });

  it('opens empty chunks of every layout, and refuses a chunk cut inside a row', async () => {
    for (const format of ['json', 'copy', 'copy-binary'] as const) {
      const empty = await openChunk(await compressChunk(chunkHeader(format, ['a'], [], ['int4']), ''));
      expect(empty.rowCount).toBe(0);
    }
    await expect(openChunk(await compressChunk(chunkHeader('copy', ['a'], []), '1\n2'))).rejects.toThrow('unexpected chunk layout');
    const tuples = encodeTuples([[1, 'a'], [2, 'b']], ['int4', 'text']);
    const binaryHeader = chunkHeader('copy-binary', ['a', 'b'], [], ['int4', 'text']);
    expect((await openChunk(await compressChunk(binaryHeader, tuples))).rowCount).toBe(2);
    await expect(openChunk(await compressChunk(binaryHeader, tuples.subarray(0, -1)))).rejects.toThrow('tuple 1 is cut short');
    const narrow = chunkHeader('copy-binary', ['a'], [], ['int4']);
    await expect(openChunk(await compressChunk(narrow, tuples))).rejects.toThrow('tuple 0 is not 1 fields');
    const untyped = chunkHeader('copy-binary', ['a', 'b'], [], ['int4']);
    await expect(openChunk(await compressChunk(untyped, tuples))).rejects.toThrow('unexpected chunk header');
  });
});

// Only PostgreSQL copies rows page by page: SQLite stores an image (sqlite-image.ts).
describe.each(testDialects().filter((d) => d === 'postgres'))('paging a table in key order on %s', (dialect) => {
  let database: TestDatabase;
  let dbh: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dbh = await openMigrated(database);
    await seedSmallDataset(dbh.db);
    // Text keys that need quoting when a page's last key goes back into the next statement.
    await dbh.db.insertInto('app_meta').values(AWKWARD.filter((k) => k !== '').map((key, i) => ({ key, value: String(i) }))).execute();
  });
  afterAll(async () => {
    await dbh?.close();
    await database?.drop();
  });

  it.each(['app_meta', 'permit_themes', 'risks'])('reads every row of %s exactly once across pages of two', async (name) => {
    const table = COVERED_TABLES.find((t) => t.name === name)!;
    const stored = await withRawConnection(dbh, async (conn) => {
      const columns = await liveColumns(conn, name);
      const header = chunkHeader('copy-binary', columns.map((c) => c.name), [], columns.map((c) => c.type));
      const reader = pageReader(conn, table, columns, 2);
      const rows: unknown[][] = [];
      for (let page = await reader.read(null); page; page = page.count < 2 ? null : await reader.read(page.lastKey)) {
        expect(page.count).toBeLessThanOrEqual(2);
        rows.push(...(await decodeChunk(await compressChunk(header, page.tuples))).rows);
      }
      return { rows, keyAt: table.key.map((k) => columns.findIndex((c) => c.name === k)) };
    });
    let q = dbh.db.selectFrom(name as 'app_meta').selectAll();
    for (const k of table.key) q = q.orderBy(k as 'key');
    const expected = (await q.execute()).map((r) => table.key.map((k) => (r as Record<string, unknown>)[k]));
    // Rows come in key order, each once.
    expect(stored.rows.map((r) => stored.keyAt.map((i) => r[i]))).toEqual(expected);
  });
});
