import { ReadAhead } from './in-flight.js';
import { CorruptChunkError, openChunk, ROW_SEPARATOR, type OpenedChunk } from './chunk-codec.js';
import { insertFromJsonQuery, isMalformedData, type ColumnSource } from './chunk-sql.js';
import type { CoveredTable } from './checkpoint-tables.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent, type RawConnection } from './raw-connection.js';
import { SelfReferences } from './row-inserter.js';

/** A restore that found the checkpoint's data unusable: answered as a failed restore, after the rollback. */
export class RestoreCheckFailed extends Error {
  override name = 'RestoreCheckFailed';
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
  }
}

/**
 * Most bytes of row text in one INSERT besides the batch size: a batch of stored workbooks stays
 * far below SQLite's 1 GB string limit and PostgreSQL's 255 MB jsonb limit.
 */
const MAX_BATCH_BYTES = 32 * 1024 * 1024;
/** Chunks read and decompressing ahead of the one being inserted. */
const PREFETCH = 2;
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const SEPARATOR = Buffer.from(ROW_SEPARATOR);

/** Puts a table's chunks into the (empty) table, in the way their layout calls for. */
interface Loader {
  /** The stored columns (of the first chunk). */
  columns: string[];
  inserted: number;
  add(chunk: OpenedChunk): Promise<void>;
  flush(): Promise<void>;
}

/**
 * `json` chunks: feeds a table's stored row lines to the database in batches of `batchSize`
 * rows, one JSON array parameter per INSERT (so batch size × columns never meets a parameter limit).
 */
class BatchLoader implements Loader {
  private parts: Buffer[] = [];
  private rows = 0;
  private bytes = 0;
  private statement = '';
  columns: string[] = [];
  inserted = 0;

  constructor(
    private readonly conn: RawConnection,
    private readonly table: CoveredTable,
    private readonly live: readonly LiveColumn[],
    private readonly batchSize: number,
    private readonly selfRefs: SelfReferences,
  ) {}

  /** Every chunk of a table has the same columns; the statement is built from the first. */
  private prepare(chunk: OpenedChunk): void {
    if (this.statement) {
      if (chunk.columns.join('\n') !== this.columns.join('\n')) throw new CorruptChunkError('columns differ from the first chunk');
      return;
    }
    this.columns = chunk.columns;
    // Columns the table no longer has are dropped; columns the checkpoint lacks get their default.
    const sources: ColumnSource[] = [];
    for (const column of this.live) {
      const at = chunk.columns.indexOf(column.name);
      if (this.selfRefs.refs.includes(column.name)) sources.push({ column, from: null });
      else if (at >= 0) sources.push({ column, from: at });
    }
    this.statement = insertFromJsonQuery(this.conn.kind, this.table.name, sources, chunk.columns.length);
  }

  async add(chunk: OpenedChunk): Promise<void> {
    this.prepare(chunk);
    for (let from = 0; from < chunk.rowCount; ) {
      const take = Math.min(this.batchSize - this.rows, chunk.rowCount - from);
      const slice = chunk.rows(from, from + take);
      if (this.parts.length > 0) this.parts.push(SEPARATOR);
      this.parts.push(slice);
      this.rows += take;
      this.bytes += slice.length;
      from += take;
      if (this.rows >= this.batchSize || this.bytes >= MAX_BATCH_BYTES) await this.flush();
    }
  }

  async flush(): Promise<void> {
    if (this.rows === 0) return;
    const json = Buffer.concat([OPEN, ...this.parts, CLOSE]);
    const expected = this.rows;
    this.parts = [];
    this.rows = 0;
    this.bytes = 0;
    if (this.selfRefs.refs.length > 0) this.selfRefs.collect(this.columns, JSON.parse(json.toString('utf8')) as unknown[][]);
    let changed: number;
    try {
      changed = await this.conn.run(this.statement, [this.conn.kind === 'sqlite' ? json : json.toString('utf8')]);
    } catch (err) {
      if (isMalformedData(err)) throw new CorruptChunkError((err as Error).message);
      throw err;
    }
    if (changed !== expected) throw new CorruptChunkError(`${expected - changed} rows do not have ${this.columns.length} values`);
    this.inserted += changed;
  }
}

/** The rows of a COPY text with only the fields at `keep`: a checkpoint column the table no longer has is dropped. */
function keepFields(rows: Buffer, keep: readonly number[]): Buffer {
  const lines = rows.toString('utf8').slice(0, -1).split('\n');
  const kept = lines.map((line) => {
    const fields = line.split('\t');
    return keep.map((i) => fields[i]).join('\t');
  });
  return Buffer.from(`${kept.join('\n')}\n`);
}

/**
 * `copy` chunks (PostgreSQL): each chunk's rows go to the table as they are, through one
 * `COPY … FROM STDIN` — PostgreSQL's fastest way in, with no statement or parameter per batch.
 * Self-references need no second pass: the restore runs with the foreign keys dropped.
 */
class CopyLoader implements Loader {
  columns: string[] = [];
  inserted = 0;
  private statement = '';
  /** Indexes of the stored fields the table still has, when some are gone (null: all). */
  private keep: number[] | null = null;

  constructor(
    private readonly conn: RawConnection,
    private readonly table: CoveredTable,
    private readonly live: readonly LiveColumn[],
  ) {}

  private prepare(chunk: OpenedChunk): void {
    if (this.statement) {
      if (chunk.columns.join('\n') !== this.columns.join('\n')) throw new CorruptChunkError('columns differ from the first chunk');
      return;
    }
    this.columns = chunk.columns;
    // Columns the table no longer has are dropped; columns the checkpoint lacks get their default.
    const names = new Set(this.live.map((c) => c.name));
    const kept = chunk.columns.flatMap((name, i) => (names.has(name) ? [i] : []));
    this.keep = kept.length === chunk.columns.length ? null : kept;
    // FREEZE: the restore emptied the table in this transaction, so the rows can be written
    // already frozen, sparing a later vacuum a pass over them.
    this.statement = `copy ${quoteIdent(this.table.name)} (${kept.map((i) => quoteIdent(chunk.columns[i])).join(', ')}) from stdin (freeze)`;
  }

  async add(chunk: OpenedChunk): Promise<void> {
    if (!this.conn.copy) throw new CorruptChunkError('a PostgreSQL chunk cannot be restored into SQLite');
    this.prepare(chunk);
    if (chunk.rowCount === 0) return;
    const rows = chunk.rows(0, chunk.rowCount);
    let copied: number;
    try {
      copied = await this.conn.copy.in(this.statement, this.keep ? keepFields(rows, this.keep) : rows);
    } catch (err) {
      if (isMalformedData(err)) throw new CorruptChunkError((err as Error).message);
      throw err;
    }
    if (copied !== chunk.rowCount) throw new CorruptChunkError(`${chunk.rowCount - copied} of ${chunk.rowCount} rows not copied`);
    this.inserted += copied;
  }

  async flush(): Promise<void> {}
}

export interface Expected {
  rows: number;
  chunks: number;
}

/**
 * Inserts one table's rows from its chunks (the table is empty). The next chunks are read and
 * decompressed while the current one is inserted. Throws RestoreCheckFailed when a chunk cannot
 * be read or the counts do not match the checkpoint's statistics.
 */
export async function restoreTable(
  conn: RawConnection,
  checkpointId: number,
  table: CoveredTable,
  live: readonly LiveColumn[],
  expected: Expected,
  batchSize: number,
): Promise<number> {
  const fail = (problem: string): never => {
    throw new RestoreCheckFailed([`${table.name}: ${problem}`]);
  };
  const chunks = await conn.rows(
    'select id, row_count from checkpoint_chunks where checkpoint_id = ? and table_name = ? order by chunk_index',
    [checkpointId, table.name],
  );
  if (chunks.length !== expected.chunks) fail(`${chunks.length} chunks stored, ${expected.chunks} expected`);
  const selfRefs = new SelfReferences(table.name, table.key, table.selfRefs ?? []);
  let loader: Loader | null = null;
  const ahead = new ReadAhead(chunks.length, PREFETCH, (i) =>
    conn.rows('select content from checkpoint_chunks where id = ?', [chunks[i][0]]).then(([[c]]) => openChunk(c as Buffer)),
  );
  for (let i = 0; i < chunks.length; i++) {
    try {
      const chunk = await ahead.take();
      if (chunk.rowCount !== Number(chunks[i][1])) fail(`chunk ${i} holds ${chunk.rowCount} rows, ${chunks[i][1]} recorded`);
      loader ??= chunk.format === 'copy' ? new CopyLoader(conn, table, live) : new BatchLoader(conn, table, live, batchSize, selfRefs);
      if ((loader instanceof CopyLoader) !== (chunk.format === 'copy')) throw new CorruptChunkError('layout differs from the first chunk');
      await loader.add(chunk);
      if (i === chunks.length - 1) await loader.flush();
    } catch (err) {
      await ahead.settle();
      if (err instanceof CorruptChunkError) fail(`chunk ${i} cannot be read (${err.message})`);
      throw err;
    }
  }
  await selfRefs.apply(conn, loader?.columns ?? []);
  const inserted = loader?.inserted ?? 0;
  await checkRestoredCount(conn, table.name, inserted, expected);
  return inserted;
}

/** Throws RestoreCheckFailed unless the table now holds exactly the rows the statistics expect, all of them inserted. */
export async function checkRestoredCount(conn: RawConnection, table: string, inserted: number, expected: Expected): Promise<void> {
  const [[count]] = await conn.rows(`select count(*) from ${quoteIdent(table)}`);
  if (inserted !== expected.rows || Number(count) !== expected.rows) {
    throw new RestoreCheckFailed([`${table}: ${Number(count)} rows restored, ${expected.rows} expected`]);
  }
}
