import { closeSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { COVERED_TABLES } from './checkpoint-tables.js';
import { compressChunkContent, decompressChunkContent } from './chunk-compression.js';
import { INSERT_CHUNK_SQL, readChunkContent } from './chunk-sql.js';
import type { TableStat } from './checkpoint-writer.js';
import { newImagePath, releaseImagePath } from './image-files.js';
import { InFlight, ReadAhead } from './in-flight.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent as q, type RawConnection } from '../../db/raw-connection.js';
import { checkRestoredCount, RestoreCheckFailed, type Expected } from './table-restorer.js';

// SQLite checkpoints are stored as a database image (docs/checkpoints.md, "Storage format"): a
// fresh SQLite file holding a plain copy of every covered table, cut into pieces and compressed
// (chunk-compression.ts). SQLite copies the rows between the two attached files itself: no row
// passes through JavaScript or a text format in either direction, so nothing is formatted or parsed.

/** Schema name of the image file while it is attached. */
const IMAGE = 'checkpoint_image';
/** Large pages: a smaller file, and fewer pages to write and read. */
const IMAGE_PAGE_SIZE = 65_536;
/** Bytes of the image per stored chunk (16 pages). */
const PIECE_BYTES = 1024 * 1024;
/** Pieces compressing or being stored, or read and decompressing ahead, at the same time. */
const IN_FLIGHT = 4;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** Does this decompressed chunk start an image? */
export const isImageStart = (piece: Buffer) => piece.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC);

/** A path for a new image file (image-files.ts), for `fn`; the file is removed afterwards. */
async function withImageFile<T>(conn: RawConnection, fn: (file: string) => Promise<T>): Promise<T> {
  const file = await newImagePath(conn);
  try {
    return await fn(file);
  } finally {
    releaseImagePath(file);
  }
}

/** Attaches the image file for `fn`: outside any transaction, since SQLite cannot attach inside one. */
async function attached<T>(conn: RawConnection, file: string, fn: () => Promise<T>): Promise<T> {
  await conn.run(`attach database ? as ${IMAGE}`, [file]);
  try {
    return await fn();
  } finally {
    await conn.run(`detach database ${IMAGE}`);
  }
}

interface ImageTable {
  table: string;
  rows: number;
  /** Byte range of the table's pages in the image (the first table's also holds the header page). */
  start: number;
  end: number;
}

/**
 * Copies every covered table into the image inside one snapshot transaction (the write lock:
 * a consistent state). Each table is written whole before the next, so its pages are one range.
 */
async function copyToImage(conn: RawConnection, file: string): Promise<ImageTable[]> {
  return attached(conn, file, async () => {
    // A scratch file: no journal, no syncs; a crash leaves only a file the next start or operation removes.
    for (const pragma of [`page_size = ${IMAGE_PAGE_SIZE}`, 'journal_mode = off', 'synchronous = off']) {
      await conn.run(`pragma ${IMAGE}.${pragma}`);
    }
    return conn.transaction('snapshot', async () => {
      const tables: ImageTable[] = [];
      let end = 0;
      for (const { name } of COVERED_TABLES) {
        // The table's columns with their type affinity and nothing else: no keys, no constraints.
        await conn.run(`create table ${IMAGE}.${q(name)} as select * from main.${q(name)} where false`);
        const rows = await conn.run(`insert into ${IMAGE}.${q(name)} select * from main.${q(name)}`);
        const [[pages]] = await conn.rows(`pragma ${IMAGE}.page_count`);
        tables.push({ table: name, rows, start: end, end: Number(pages) * IMAGE_PAGE_SIZE });
        end = Number(pages) * IMAGE_PAGE_SIZE;
      }
      return tables;
    });
  });
}

/** Stores the image as compressed pieces, each under the table whose pages it holds; answers the statistics. */
async function storeImage(conn: RawConnection, checkpointId: number, file: string, tables: ImageTable[]): Promise<TableStat[]> {
  const fd = openSync(file, 'r');
  const pending = new InFlight(IN_FLIGHT);
  const stats: TableStat[] = [];
  try {
    for (const { table, rows, start, end } of tables) {
      const stat: TableStat = { table, rows, chunks: 0, bytes: 0 };
      stats.push(stat);
      for (let at = start; at < end; at += PIECE_BYTES) {
        const piece = Buffer.allocUnsafe(Math.min(PIECE_BYTES, end - at));
        if (readSync(fd, piece, 0, piece.length, at) !== piece.length) throw new Error('checkpoint image file is shorter than its pages');
        const index = stat.chunks++;
        await pending.add(
          compressChunkContent([piece]).then(async (content) => {
            stat.bytes += content.length;
            await conn.run(INSERT_CHUNK_SQL, [checkpointId, table, index, index === 0 ? rows : 0, content]);
          }),
        );
      }
    }
    await pending.drain();
  } catch (err) {
    await pending.settle();
    throw err;
  } finally {
    closeSync(fd);
  }
  return stats;
}

/**
 * SQLite: copies the covered tables into a new image (one snapshot transaction) and hands `fn` a
 * function that stores the image as a checkpoint's chunks, answering its statistics; `fn` runs
 * the transaction that stores them. Nothing else runs on the connection in between.
 */
export async function withTablesImage<T>(
  conn: RawConnection,
  fn: (store: (checkpointId: number) => Promise<TableStat[]>) => Promise<T>,
): Promise<T> {
  return withImageFile(conn, async (file) => {
    const tables = await copyToImage(conn, file);
    return fn((checkpointId) => storeImage(conn, checkpointId, file, tables));
  });
}

/** Is this checkpoint an image? Its first chunk says so (the row layouts start with a JSON header). */
export async function isImageCheckpoint(conn: RawConnection, checkpointId: number, stats: readonly TableStat[]): Promise<boolean> {
  const first = stats.find((s) => s.chunks > 0);
  if (!first) return false;
  const found = await conn.rows('select content from checkpoint_chunks where checkpoint_id = ? and table_name = ? and chunk_index = 0', [
    checkpointId,
    first.table,
  ]);
  if (found.length === 0) return false;
  try {
    return isImageStart(await decompressChunkContent(found[0][0] as Buffer));
  } catch {
    return false; // reported by the restore that reads it
  }
}

/** Expected image size from its header: page size × page count. */
function headerSize(fd: number): number {
  const header = Buffer.alloc(32);
  readSync(fd, header, 0, 32, 0);
  const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16);
  return pageSize * header.readUInt32BE(28);
}

/**
 * Writes the stored pieces back into one image file, in the statistics' table order. Throws
 * RestoreCheckFailed when a piece is missing, cannot be decompressed, or the file comes out of
 * another size than its header says.
 */
async function materializeImage(conn: RawConnection, checkpointId: number, stats: readonly TableStat[], file: string): Promise<void> {
  const stored = await conn.rows('select id, table_name, chunk_index from checkpoint_chunks where checkpoint_id = ?', [checkpointId]);
  const pieces: Array<{ id: unknown; label: string }> = [];
  for (const { table, chunks } of stats) {
    const mine = stored.filter(([, name]) => name === table).sort((a, b) => Number(a[2]) - Number(b[2]));
    if (mine.length !== chunks || mine.some(([, , index], i) => Number(index) !== i)) {
      throw new RestoreCheckFailed([`${table}: ${mine.length} chunks stored, ${chunks} expected`]);
    }
    pieces.push(...mine.map(([id], i) => ({ id, label: `${table}: chunk ${i}` })));
  }
  const fd = openSync(file, 'w+');
  const ahead = new ReadAhead(pieces.length, IN_FLIGHT, async (i) =>
    decompressChunkContent(await readChunkContent(conn, Number(pieces[i].id))),
  );
  try {
    for (let i = 0; i < pieces.length; i++) {
      let piece: Buffer;
      try {
        piece = await ahead.take();
      } catch (err) {
        throw new RestoreCheckFailed([`${pieces[i].label} cannot be read (${(err as Error).message})`]);
      }
      if (i === 0 && !isImageStart(piece)) throw new RestoreCheckFailed([`${pieces[i].label} cannot be read (not a database image)`]);
      writeSync(fd, piece);
    }
    const size = statSync(file).size;
    const expected = pieces.length > 0 ? headerSize(fd) : 0;
    if (size !== expected) throw new RestoreCheckFailed([`the checkpoint image holds ${size} bytes, ${expected} expected`]);
  } finally {
    await ahead.settle();
    closeSync(fd);
  }
}

/** Fills one (empty) table from the image in batches of `batchSize` rows; answers the rows inserted. */
type ImageLoader = (table: string, live: readonly LiveColumn[], expected: Expected, batchSize: number) => Promise<number>;

const loadFromImage =
  (conn: RawConnection): ImageLoader =>
  async (table, live, expected, batchSize) => {
    const stored = new Set((await conn.rows(`select name from pragma_table_info(?, '${IMAGE}')`, [table])).map(([n]) => String(n)));
    let inserted = 0;
    if (stored.size > 0) {
      // Columns the table no longer has are dropped; columns the checkpoint lacks get their default.
      const columns = live.filter((c) => stored.has(c.name)).map((c) => q(c.name)).join(', ');
      const [[max]] = await conn.rows(`select coalesce(max(rowid), 0) from ${IMAGE}.${q(table)}`);
      // The copy numbered the rows 1..n: a batch is a rowid range.
      if (Number(max) > expected.rows) throw new RestoreCheckFailed([`${table}: stored rows are numbered up to ${max}, ${expected.rows} expected`]);
      const statement = `insert into main.${q(table)} (${columns}) select ${columns} from ${IMAGE}.${q(table)} where rowid between ? and ?`;
      for (let from = 1; from <= Number(max); from += batchSize) inserted += await conn.run(statement, [from, from + batchSize - 1]);
    }
    checkRestoredCount(table, inserted, expected);
    return inserted;
  };

/**
 * Writes the checkpoint's image to a file and attaches it for `fn`, which fills the tables with
 * the loader it is given; the file is detached and removed afterwards.
 */
export async function withStoredImage<T>(
  conn: RawConnection,
  checkpointId: number,
  stats: readonly TableStat[],
  fn: (load: ImageLoader) => Promise<T>,
): Promise<T> {
  return withImageFile(conn, async (file) => {
    await materializeImage(conn, checkpointId, stats, file);
    return attached(conn, file, () => fn(loadFromImage(conn)));
  });
}
