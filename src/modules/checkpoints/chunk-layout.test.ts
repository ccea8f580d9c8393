import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../../../test/helpers/databases.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { ALL_BYTES, dumpCoveredTables, seedSmallDataset } from './checkpoint-test-data.js';
import { COVERED_TABLES } from './checkpoint-tables.js';
import { chunkHeader, compressChunk, copyValue, CorruptChunkError, decodeChunk, encodeChunk, openChunk, type ChunkData } from './chunk-codec.js';
import { compressChunkContent, decompressChunkContent } from './chunk-compression.js';
import { readChunkContent, readTablePages } from './chunk-sql.js';
import type { PageLimits } from './copy-out.js';
import { encodeTuples } from './copy-binary.js';
import { liveColumns } from './live-schema.js';
import { withRawConnection } from '../../db/raw-connection.js';

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
describe.each(testDialects().filter((d) => d === 'postgres'))('paging a table on %s', (dialect) => {
  let database: TestDatabase;
  let dbh: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dbh = await openMigrated(database);
    await seedSmallDataset(dbh.db);
    await dbh.db.insertInto('app_meta').values(AWKWARD.filter((k) => k !== '').map((key, i) => ({ key, value: String(i) }))).execute();
  });
  afterAll(async () => {
    await dbh?.close();
    await database?.drop();
  });

  /** Every row of the table, read in pages of `limits`, each page going through a stored chunk. */
  async function readPages(name: string, limits: PageLimits, slow = false) {
    const table = COVERED_TABLES.find((t) => t.name === name)!;
    return withRawConnection(dbh, async (conn) => {
      const columns = await liveColumns(conn, name);
      const header = chunkHeader('copy-binary', columns.map((c) => c.name), [], columns.map((c) => c.type));
      const pages: Record<string, unknown>[][] = [];
      const copied = await readTablePages(conn, table, columns, limits, async (page) => {
        // A page taken late holds the server back; nothing is lost or reordered meanwhile.
        if (slow) await new Promise((resolve) => setTimeout(resolve, 5));
        const { columns: names, rows } = await decodeChunk(await compressChunk(header, page.tuples));
        pages.push(rows.map((row) => Object.fromEntries(names.map((c, i) => [c, row[i]]))));
        page.release();
      });
      return { pages, copied };
    });
  }

  /** The table's rows as dumpCoveredTables gives them, sorted the same way whatever their order. */
  async function rowsOf(name: string): Promise<Record<string, unknown>[]> {
    return sortedByKey(name, (await dumpCoveredTables(dbh.db))[name]);
  }

  function sortedByKey(name: string, rows: Record<string, unknown>[]): Record<string, unknown>[] {
    const { key } = COVERED_TABLES.find((t) => t.name === name)!;
    const keyOf = (r: Record<string, unknown>) => JSON.stringify(key.map((k) => r[k]));
    return [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
  }

  it.each(['app_meta', 'permit_themes', 'risks'])('reads every row of %s exactly once across pages of two', async (name) => {
    const { pages, copied } = await readPages(name, { rows: 2, bytes: Infinity }, true);
    const expected = await rowsOf(name);
    // Pages are taken concurrently, so the short last one may finish before others.
    expect(pages.filter((p) => p.length !== 2).map((p) => p.length)).toEqual(expected.length % 2 ? [1] : []);
    expect(copied).toBe(expected.length);
    expect(sortedByKey(name, pages.flat())).toEqual(expected);
  });

  it('ends a page at its byte limit, so large rows make small pages', async () => {
    const { pages, copied } = await readPages('app_meta', { rows: 1000, bytes: 1 });
    expect(copied).toBe((await rowsOf('app_meta')).length);
    expect(pages.length).toBe(copied);
    expect(pages.every((p) => p.length === 1)).toBe(true);
  });

  it('stops at a page that cannot be taken, and the connection serves the next statement', async () => {
    const table = COVERED_TABLES.find((t) => t.name === 'risks')!;
    const after = await withRawConnection(dbh, async (conn) => {
      const columns = await liveColumns(conn, 'risks');
      let taken = 0;
      const copy = readTablePages(conn, table, columns, { rows: 1, bytes: Infinity }, async () => {
        if (++taken === 2) throw new Error('page refused');
      });
      await expect(copy).rejects.toThrow('page refused');
      return conn.rows('select count(*) from risks');
    });
    expect(Number(after[0][0])).toBe((await rowsOf('risks')).length);
  });
});

describe.each(testDialects())('reading a stored chunk on %s', (dialect) => {
  let database: TestDatabase;
  let dbh: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dbh = await openMigrated(database);
  });
  afterAll(async () => {
    await dbh?.close();
    await database?.drop();
  });

  it('gives a chunk back byte for byte, and calls one that is gone unreadable', async () => {
    const [checkpoint] = await dbh.db.insertInto('checkpoints')
      .values({ description: 'chunks', created_by: 'admin', kind: 'manual', table_stats: '[]', total_rows: 0, size_bytes: 0, created_at: new Date().toISOString() })
      .returning('id').execute();
    const content = await compressChunkContent([ALL_BYTES]);
    const [chunk] = await dbh.db.insertInto('checkpoint_chunks')
      .values({ checkpoint_id: checkpoint.id, table_name: 'risks', chunk_index: 0, row_count: 0, content })
      .returning('id').execute();
    await withRawConnection(dbh, async (conn) => {
      expect(Buffer.compare(await readChunkContent(conn, Number(chunk.id)), content)).toBe(0);
      const gone = readChunkContent(conn, Number(chunk.id) + 1);
      await expect(gone).rejects.toBeInstanceOf(CorruptChunkError);
      await expect(gone).rejects.toThrow('the chunk is gone');
    });
  });
});
