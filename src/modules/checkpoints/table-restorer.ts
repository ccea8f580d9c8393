import { CorruptChunkError, openChunk, ROW_SEPARATOR, type OpenedChunk } from './chunk-codec.js';
import { insertFromJsonQuery, isMalformedJson, type ColumnSource } from './chunk-sql.js';
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
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const SEPARATOR = Buffer.from(ROW_SEPARATOR);

/**
 * Feeds a table's stored row lines to the database in batches of `batchSize` rows, one JSON
 * array parameter per INSERT (so batch size × columns never meets a parameter limit).
 */
class BatchLoader {
  private parts: Buffer[] = [];
  private rows = 0;
  private bytes = 0;
  private statement = '';
  private columns: string[] = [];
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
    const sources: ColumnSource[] = this.live
      .map((column) => ({ column, from: this.selfRefs.refs.includes(column.name) ? null : chunk.columns.indexOf(column.name) }))
      .filter((s) => s.from !== -1 || s.column.name in {}) // columns the checkpoint lacks get their default
      .map((s) => (s.from === -1 ? { ...s, from: null } : s));
    this.statement = insertFromJsonQuery(this.conn.kind, this.table.name, sources.filter((s) => s.from !== null || this.selfRefs.refs.includes(s.column.name)), chunk.columns.length);
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
      if (isMalformedJson(err)) throw new CorruptChunkError((err as Error).message);
      throw err;
    }
    if (changed !== expected) throw new CorruptChunkError(`${expected - changed} rows do not have ${this.columns.length} values`);
    this.inserted += changed;
  }
}
