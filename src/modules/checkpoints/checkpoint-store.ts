import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants, crc32 } from 'node:zlib';
import { CompiledQuery, sql, type Selectable } from 'kysely';
import { crashPoint } from '../../crash-point.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { notFound } from '../../http/errors.js';
import { COVERED_TABLES } from './checkpoint-tables.js';
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

/** A statement run on an operation's own connection, answering its rows. */
export type Run = (query: CompiledQuery) => Promise<unknown[]>;

/** A store's own steps of a restore's transaction. */
export interface Replacement {
  empty(): Promise<unknown>;
  /** Fills one emptied table; answers the rows the database counted as it loaded them. */
  load(stat: TableStat): Promise<number>;
  /** The store's checks once every table is loaded. */
  finish(): Promise<void>;
}

/** A checkpoint whose stored data does not check out: answered as a failed restore, after the rollback. */
export class RestoreCheckFailed extends Error {
  override name = 'RestoreCheckFailed';
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
  }
}

/** Bytes of the database's own copy per stored chunk: a few in memory at once, large enough to compress well. */
const PIECE_BYTES = 1024 * 1024;
/** Chunks compressing or decompressing at the same time: the zlib thread pool busy without piling up memory. */
const IN_FLIGHT = 4;
/** Every session with its account's username (null when the account is gone). */
const SESSION_ACCOUNTS = CompiledQuery.raw('select s.id, u.username from sessions s left join users u on u.id = s.user_id');
type SessionAccount = { id: unknown; username: string | null };

/** One per database: each moves the rows its own fastest way and keeps its own layout. */
export abstract class CheckpointStore {
  /** The stored layout (`checkpoints.format`): a store restores only its own. */
  protected abstract readonly format: string;

  constructor(
    protected readonly dbh: DatabaseHandle,
    protected readonly pieceBytes = PIECE_BYTES,
  ) {}

  /** Copies every covered table into a new checkpoint as one consistent state; nothing is left of a failed one. Answers its id. */
  abstract create(draft: CheckpointDraft): Promise<number>;

  /** Replaces every covered table by the checkpoint's rows in one transaction: all or nothing. */
  abstract restore(id: number, request: RestoreRequest): Promise<RestoredTable[]>;

  protected abstract endSessions(ids: unknown[]): CompiledQuery;

  list(): Promise<CheckpointRow[]> {
    return this.dbh.db.selectFrom('checkpoints').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** Deletes a checkpoint with its chunks; answers whether it existed. */
  delete(id: number): Promise<boolean> {
    return this.dbh.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('checkpoint_chunks').where('checkpoint_id', '=', id).execute();
      return Number((await trx.deleteFrom('checkpoints').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
    });
  }

  /**
   * The checkpoint's statistics, once its format is the store's and every table has its chunks
   * numbered from 0; throws RestoreCheckFailed otherwise, before anything is replaced. A restore
   * reads them through `run`, on the connection it holds.
   */
  async verify(id: number, run: Run = async (q) => (await this.dbh.db.executeQuery(q)).rows): Promise<TableStat[]> {
    const { db } = this.dbh;
    const [row] = (await run(db.selectFrom('checkpoints').select(['format', 'table_stats']).where('id', '=', id).compile())) as CheckpointRow[];
    if (!row) throw notFound('Checkpoint not found');
    if (row.format !== this.format) throw new RestoreCheckFailed([`checkpoint format "${row.format}" cannot be restored here`]);
    const stats = parseStats(row.table_stats);
    if (!stats) throw new RestoreCheckFailed(['checkpoint table statistics are unreadable']);
    const chunks = sql`select table_name, count(*) as n, max(chunk_index) as last from checkpoint_chunks where checkpoint_id = ${id} group by table_name`;
    const stored = (await run(chunks.compile(db))) as Array<{ table_name: string; n: unknown; last: unknown }>;
    const found = new Map(stored.map((s) => [s.table_name, s]));
    const errors = stats.flatMap(({ table, chunks }) => {
      const n = Number(found.get(table)?.n ?? 0);
      return n === chunks && (n === 0 || Number(found.get(table)!.last) === n - 1) ? [] : [`${table}: ${n} chunks stored, ${chunks} expected`];
    });
    if (errors.length > 0) throw new RestoreCheckFailed(errors);
    return stats;
  }

  /** A new checkpoint's row, written through `run` in the transaction that stores its chunks, then given the statistics `store` answers. */
  protected async addCheckpoint(run: Run, draft: CheckpointDraft, store: (id: number) => Promise<TableStat[]>): Promise<number> {
    const { db } = this.dbh;
    const row = { description: draft.description, created_by: draft.createdBy, kind: draft.kind, format: this.format, created_at: draft.createdAt };
    const insert = db.insertInto('checkpoints').values({ ...row, table_stats: '[]', total_rows: 0, size_bytes: 0 });
    const [{ id }] = (await run(insert.returning('id').compile())) as Array<{ id: number }>;
    const stats = await store(Number(id));
    const sum = (key: 'rows' | 'bytes') => stats.reduce((n, s) => n + s[key], 0);
    const totals = { table_stats: JSON.stringify(stats), total_rows: sum('rows'), size_bytes: sum('bytes') };
    await run(db.updateTable('checkpoints').set(totals).where('id', '=', id).compile());
    return Number(id);
  }

  /**
   * The body of a restore's transaction: every covered table emptied and loaded in order, its rows
   * counted against the statistics; then the sessions ended, the store's checks and the statements
   * that commit with the data. Sessions are not part of a checkpoint: only those whose account is
   * back under the same id and username remain, so a session never passes to another account reusing an id.
   */
  protected async replace(run: Run, stats: readonly TableStat[], request: RestoreRequest, steps: Replacement): Promise<RestoredTable[]> {
    const before = (await run(SESSION_ACCOUNTS)) as SessionAccount[];
    await steps.empty();
    const restored: RestoredTable[] = [];
    for (const { name } of COVERED_TABLES) {
      const stat = stats.find((s) => s.table === name);
      const [rows, expected] = [stat ? await steps.load(stat) : 0, stat?.rows ?? 0];
      if (rows !== expected) throw new RestoreCheckFailed([`${name}: ${rows} rows restored, ${expected} expected`]);
      restored.push({ table: name, rows });
    }
    await crashPoint('checkpoint-restore');
    const was = new Map(before.map((s) => [s.id, s.username]));
    const after = (await run(SESSION_ACCOUNTS)) as SessionAccount[];
    await run(this.endSessions(after.filter((s) => s.username === null || was.get(s.id) !== s.username).map((s) => s.id)));
    await steps.finish();
    for (const statement of request.beforeCommit()) await run(statement);
    return restored;
  }
}

/** A checkpoint's `table_stats`, or null when they are not readable. */
export function parseStats(text: string): TableStat[] | null {
  try {
    const stats = JSON.parse(text) as TableStat[];
    const valid = Array.isArray(stats) && stats.every((s) => s && typeof s.table === 'string' && Number.isInteger(s.rows) && Number.isInteger(s.chunks));
    return valid ? stats : null;
  } catch {
    return null;
  }
}

/**
 * `fn` applied to each item with up to IN_FLIGHT running at once, the results yielded in order.
 * Whatever ends the iteration, every task started has settled by then: none touches a
 * connection after its transaction is over.
 */
export async function* inOrder<T, R>(items: Iterable<T> | AsyncIterable<T>, fn: (item: T, i: number) => Promise<R>): AsyncGenerator<R> {
  const running: Promise<R>[] = [];
  let index = 0;
  try {
    for await (const item of items) {
      const task = fn(item, index++);
      task.catch(() => {}); // observed when its turn comes, or settled below
      running.push(task);
      if (running.length >= IN_FLIGHT) yield await running.shift()!;
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

/** Chunk `index` of `table` decompressed; one that cannot be read fails the restore's check. */
export function readChunk(table: string, index: number, stored: Buffer): Promise<Buffer> {
  return decompressPiece(stored).catch((err: Error) => {
    throw new RestoreCheckFailed([`${table}: chunk ${index} cannot be read (${err.message})`]);
  });
}
