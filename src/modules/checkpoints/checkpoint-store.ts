import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants, crc32 } from 'node:zlib';
import type { CompiledQuery, Selectable } from 'kysely';
import type { DatabaseHandle } from '../../db/connect.js';
import type { DB } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import type { CheckpointsTable } from './checkpoints.table.js';

export type CheckpointKind = 'manual' | 'auto_backup';
export type CheckpointRow = Selectable<CheckpointsTable>;

/** Per covered table: rows copied, chunks stored, compressed bytes. Stored as the checkpoint's `table_stats`. */
export interface TableStat {
  table: string;
  rows: number;
  chunks: number;
  bytes: number;
  /** PostgreSQL: the stored columns and their types, which its binary values are only readable as. */
  columns?: string[];
  types?: string[];
}

export type CheckpointDraft = { description: string; createdBy: string; kind: CheckpointKind; createdAt: string };

export interface RestoreRequest {
  batchSize: number;
  /** A checkpoint of the current state taken first, committed on its own: it stays if the restore fails. */
  backup: CheckpointDraft | null;
  /** Told the backup's id as soon as it is committed. */
  onBackup(id: number): void;
  /** Statements run last inside the restore's transaction (the change-feed entry that commits with the data). */
  beforeCommit(): CompiledQuery[];
}

export type RestoredTable = { table: string; rows: number };

/** One per database: each moves the rows its own fastest way and keeps its own layout. */
export interface CheckpointStore {
  /** Copies every covered table into a new checkpoint as one consistent state; nothing is left of a failed one. Answers its id. */
  create(draft: CheckpointDraft): Promise<number>;
  /** Replaces every covered table by the checkpoint's rows in one transaction: all or nothing. */
  restore(id: number, request: RestoreRequest): Promise<RestoredTable[]>;
  /** Every checkpoint, newest first. */
  list(): Promise<CheckpointRow[]>;
  /** Deletes a checkpoint with its chunks; answers whether it existed. */
  delete(id: number): Promise<boolean>;
  /** The statistics of a checkpoint this store can restore, every chunk present; otherwise RestoreCheckFailed. */
  verify(id: number): Promise<TableStat[]>;
}

/** What both stores do alike: the rows of `checkpoints` and the checks before a restore. */
export abstract class CheckpointRows {
  constructor(
    protected readonly dbh: DatabaseHandle,
    protected readonly format: string,
  ) {}

  list(): Promise<CheckpointRow[]> {
    return this.dbh.db.selectFrom('checkpoints').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  delete(id: number): Promise<boolean> {
    return this.dbh.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('checkpoint_chunks').where('checkpoint_id', '=', id).execute();
      return Number((await trx.deleteFrom('checkpoints').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
    });
  }

  verify(id: number): Promise<TableStat[]> {
    return verifyStored(this.dbh.db, id, this.format);
  }
}

/** A checkpoint whose stored data does not check out: answered as a failed restore, after the rollback. */
export class RestoreCheckFailed extends Error {
  override name = 'RestoreCheckFailed';
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
  }
}

/** Bytes of the database's own copy per stored chunk: a few in memory at once, large enough to compress well. */
export const PIECE_BYTES = 1024 * 1024;
/** Chunks compressing or decompressing at the same time: the zlib thread pool busy without piling up memory. */
export const IN_FLIGHT = 4;

/** A checkpoint's `table_stats`, or null when they are not readable. */
export function parseStats(text: string): TableStat[] | null {
  try {
    const stats = JSON.parse(text) as TableStat[];
    return Array.isArray(stats) && stats.every((s) => s && typeof s.table === 'string' && Number.isInteger(s.rows) && Number.isInteger(s.chunks))
      ? stats
      : null;
  } catch {
    return null;
  }
}

type Run = (query: CompiledQuery) => Promise<unknown[]>;

/**
 * The checkpoint's statistics, once its format is the store's and every table has its chunks
 * numbered from 0; throws RestoreCheckFailed otherwise, before anything is replaced. Read through
 * `run`: PostgreSQL reads them on the operation's own connection.
 */
export async function verifyStored(db: DB, id: number, format: string, run: Run = async (q) => (await db.executeQuery(q)).rows): Promise<TableStat[]> {
  const checkpoint = db.selectFrom('checkpoints').select(['format', 'table_stats']).where('id', '=', id);
  const [row] = (await run(checkpoint.compile())) as Array<{ format: string; table_stats: string }>;
  if (!row) throw notFound('Checkpoint not found');
  if (row.format !== format) throw new RestoreCheckFailed([`checkpoint format "${row.format}" cannot be restored here`]);
  const stats = parseStats(row.table_stats);
  if (!stats) throw new RestoreCheckFailed(['checkpoint table statistics are unreadable']);
  const chunks = db
    .selectFrom('checkpoint_chunks')
    .where('checkpoint_id', '=', id)
    .groupBy('table_name')
    .select((eb) => ['table_name', eb.fn.countAll().as('n'), eb.fn.max('chunk_index').as('last')]);
  const stored = (await run(chunks.compile())) as Array<{ table_name: string; n: unknown; last: unknown }>;
  const found = new Map(stored.map((s) => [s.table_name, s]));
  const errors = stats.flatMap(({ table, chunks }) => {
    const n = Number(found.get(table)?.n ?? 0);
    return n === chunks && (n === 0 || Number(found.get(table)!.last) === n - 1) ? [] : [`${table}: ${n} chunks stored, ${chunks} expected`];
  });
  if (errors.length > 0) throw new RestoreCheckFailed(errors);
  return stats;
}

/** The restored table's rows, counted by the database as it loaded them into the emptied table. */
export function checkRestoredCount(table: string, restored: number, expected: number): void {
  if (restored !== expected) throw new RestoreCheckFailed([`${table}: ${restored} rows restored, ${expected} expected`]);
}

export type SessionAccount = { id: unknown; username: string | null };

/** Every session with its account's username (null when the account is gone). */
export const SESSION_ACCOUNTS = 'select s.id, u.username from sessions s left join users u on u.id = s.user_id';

/**
 * Sessions are not part of a checkpoint: after a restore only those whose account is back under
 * the same id and username remain, so a session never passes to another account reusing an id.
 */
export function sessionsToEnd(before: readonly SessionAccount[], after: readonly SessionAccount[]): unknown[] {
  const was = new Map(before.map((s) => [s.id, s.username]));
  return after.filter((s) => s.username === null || was.get(s.id) !== s.username).map((s) => s.id);
}

/**
 * `fn` applied to each item with up to `depth` running at once, the results yielded in order.
 * Whatever ends the iteration, every task started has settled by then: none touches a
 * connection after its transaction is over.
 */
export async function* inOrder<T, R>(items: Iterable<T> | AsyncIterable<T>, depth: number, fn: (item: T, i: number) => Promise<R>): AsyncGenerator<R> {
  const running: Promise<R>[] = [];
  let index = 0;
  try {
    for await (const item of items) {
      const task = fn(item, index++);
      task.catch(() => {}); // observed when its turn comes, or settled below
      running.push(task);
      if (running.length >= depth) yield await running.shift()!;
    }
    while (running.length > 0) yield await running.shift()!;
  } finally {
    await Promise.allSettled(running);
  }
}

// A stored chunk: the mark, the content's size, the content in brotli at quality 0, and a CRC-32 of
// the size and the brotli bytes. Brotli's fastest setting compresses the rows faster than gzip's,
// to nearly the same size; it has no checksum of its own, and the CRC finds a damaged chunk before
// it is decompressed. Knowing the size, the decompression writes into one buffer.
const MARK = Buffer.from('LRB1', 'latin1');
const HEAD = MARK.length + 4;
const compressAsync = promisify(brotliCompress);
const decompressAsync = promisify(brotliDecompress);
/** zlib output piece size: a few per chunk instead of dozens of 16 KiB ones. */
const OUTPUT_PIECE = 256 * 1024;

export async function compressPiece(piece: Buffer): Promise<Buffer> {
  const params = { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_SIZE_HINT]: piece.length };
  const body = await compressAsync(piece, { chunkSize: OUTPUT_PIECE, params });
  const stored = Buffer.allocUnsafe(HEAD + body.length + 4);
  MARK.copy(stored);
  stored.writeUInt32BE(piece.length, MARK.length);
  body.copy(stored, HEAD);
  stored.writeUInt32BE(crc32(stored.subarray(MARK.length, HEAD + body.length)), HEAD + body.length);
  return stored;
}

export async function decompressPiece(stored: Buffer): Promise<Buffer> {
  if (stored.length < HEAD + 4 || !stored.subarray(0, MARK.length).equals(MARK)) throw new Error('not a compressed checkpoint chunk');
  if (crc32(stored.subarray(MARK.length, stored.length - 4)) !== stored.readUInt32BE(stored.length - 4)) throw new Error('checksum mismatch');
  const size = stored.readUInt32BE(MARK.length);
  // One byte more than the content: zlib starts a fresh output buffer whenever one fills up.
  const chunkSize = Math.min(Math.max(size + 1, constants.Z_MIN_CHUNK), 64 * 1024 * 1024);
  const content = await decompressAsync(stored.subarray(HEAD, stored.length - 4), { chunkSize });
  if (content.length !== size) throw new Error(`${content.length} bytes decompressed, ${size} expected`);
  return content;
}
