import { ReadAhead } from './in-flight.js';
import { CorruptChunkError, openChunk, ROW_SEPARATOR, type OpenedChunk } from './chunk-codec.js';
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER } from './copy-binary.js';
import { insertFromJsonQuery, isMalformedData, readChunkContent, type ColumnSource } from './chunk-sql.js';
import type { CoveredTable } from './checkpoint-tables.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent, type RawConnection } from '../../db/raw-connection.js';
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
const PREFETCH = 4;
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const SEPARATOR = Buffer.from(ROW_SEPARATOR);

/** What loading a table's chunks did. */
interface Loaded {
  /** The stored columns (of the first chunk). */
  columns: string[];
  inserted: number;
}

/** Every chunk of a table is in the layout of its first, with the same columns. */
function checkLayout(chunk: OpenedChunk, first: OpenedChunk): void {
  const same = (a: readonly string[], b: readonly string[]) => a.join('\n') === b.join('\n');
  if (chunk.format !== first.format || !same(chunk.columns, first.columns) || !same(chunk.types, first.types)) {
    throw new CorruptChunkError('layout differs from the first chunk');
  }
}

/**
 * `json` chunks: feeds a table's stored row lines to the database in batches of `batchSize`
 * rows, one JSON array parameter per INSERT (so batch size × columns never meets a parameter limit).
 */
class BatchLoader {
  private parts: Buffer[] = [];
  private rows = 0;
  private bytes = 0;
  private statement = '';
  inserted = 0;

  constructor(
    private readonly conn: RawConnection,
    private readonly table: CoveredTable,
    private readonly live: readonly LiveColumn[],
    private readonly batchSize: number,
    private readonly selfRefs: SelfReferences,
    private readonly first: OpenedChunk,
  ) {
    // Columns the table no longer has are dropped; columns the checkpoint lacks get their default.
    const sources: ColumnSource[] = [];
    for (const column of live) {
      const at = first.columns.indexOf(column.name);
      if (selfRefs.refs.includes(column.name)) sources.push({ column, from: null });
      else if (at >= 0) sources.push({ column, from: at });
    }
    this.statement = insertFromJsonQuery(conn.kind, table.name, sources, first.columns.length);
  }

  async add(chunk: OpenedChunk): Promise<void> {
    checkLayout(chunk, this.first);
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
    const { columns } = this.first;
    if (this.selfRefs.refs.length > 0) this.selfRefs.collect(columns, JSON.parse(json.toString('utf8')) as unknown[][]);
    let changed: number;
    try {
      changed = await this.conn.run(this.statement, [this.conn.kind === 'sqlite' ? json : json.toString('utf8')]);
    } catch (err) {
      if (isMalformedData(err)) throw new CorruptChunkError((err as Error).message);
      throw err;
    }
    if (changed !== expected) throw new CorruptChunkError(`${expected - changed} rows do not have ${columns.length} values`);
    this.inserted += changed;
  }
}

async function insertJsonChunks(
  conn: RawConnection,
  table: CoveredTable,
  live: readonly LiveColumn[],
  batchSize: number,
  selfRefs: SelfReferences,
  first: OpenedChunk,
  chunks: AsyncIterable<OpenedChunk>,
): Promise<Loaded> {
  const loader = new BatchLoader(conn, table, live, batchSize, selfRefs, first);
  for await (const chunk of chunks) await loader.add(chunk);
  await loader.flush();
  return { columns: first.columns, inserted: loader.inserted };
}

/** The statements of a table's COPY: optionally one before it, the COPY, and any after it. */
interface CopyPlan {
  before: string[];
  copy: string;
  after: string[];
}

/**
 * Where a table's COPY goes: straight into the table when it still has every stored column (of
 * the same type, in the binary layout, whose values are in their type's binary form). Otherwise
 * into a temporary table shaped like the checkpoint, from which the columns the table still has
 * are inserted, cast to their type now. Columns the checkpoint lacks get their default either way.
 */
function copyPlan(table: string, live: readonly LiveColumn[], first: OpenedChunk): CopyPlan {
  const binary = first.format === 'copy-binary';
  const liveType = new Map(live.map((c) => [c.name, c.type]));
  const stored = first.columns.map(quoteIdent).join(', ');
  const direct = first.columns.every((name, i) => liveType.has(name) && (!binary || liveType.get(name) === first.types[i]));
  if (direct) {
    // FREEZE: the restore emptied the table in this transaction, so the rows can be written
    // already frozen, sparing a later vacuum a pass over them.
    return { before: [], copy: `copy ${quoteIdent(table)} (${stored}) from stdin (freeze${binary ? ', format binary' : ''})`, after: [] };
  }
  const staging = quoteIdent(`restore_${table}`);
  const shape = first.columns.map((name, i) => `${quoteIdent(name)} ${binary ? quoteIdent(first.types[i]) : 'text'}`);
  const kept = first.columns.filter((name) => liveType.has(name));
  const values = kept.map((name) => `${quoteIdent(name)}::${quoteIdent(liveType.get(name)!)}`);
  return {
    before: [`create temporary table ${staging} (${shape.join(', ')}) on commit drop`],
    copy: `copy ${staging} (${stored}) from stdin${binary ? ' (format binary)' : ''}`,
    after: [
      `insert into ${quoteIdent(table)} (${kept.map(quoteIdent).join(', ')}) select ${values.join(', ')} from ${staging}`,
      `drop table ${staging}`,
    ],
  };
}

/**
 * `copy` and `copy-binary` chunks (PostgreSQL): all of a table's chunks go through one
 * `COPY … FROM STDIN`, PostgreSQL's fastest way in, with no statement per batch; the binary
 * layout gets its file framing around them. Self-references need no second pass: the restore
 * runs with the foreign keys dropped.
 */
async function copyChunks(
  conn: RawConnection,
  table: CoveredTable,
  live: readonly LiveColumn[],
  first: OpenedChunk,
  chunks: AsyncIterable<OpenedChunk>,
): Promise<Loaded> {
  if (!conn.copy) throw new CorruptChunkError('a PostgreSQL chunk cannot be restored into SQLite');
  const binary = first.format === 'copy-binary';
  const plan = copyPlan(table.name, live, first);
  let sent = 0;
  async function* pieces(): AsyncGenerator<Buffer> {
    if (binary) yield BINARY_COPY_HEADER;
    for await (const chunk of chunks) {
      checkLayout(chunk, first);
      sent += chunk.rowCount;
      yield chunk.rows(0, chunk.rowCount);
    }
    if (binary) yield BINARY_COPY_TRAILER;
  }
  let copied: number;
  try {
    for (const statement of plan.before) await conn.run(statement);
    copied = await conn.copy.in(plan.copy, pieces());
    for (const statement of plan.after) await conn.run(statement);
  } catch (err) {
    if (isMalformedData(err)) throw new CorruptChunkError((err as Error).message);
    throw err;
  }
  if (copied !== sent) throw new CorruptChunkError(`${sent - copied} of ${sent} rows not copied`);
  return { columns: first.columns, inserted: copied };
}

export interface Expected {
  rows: number;
  chunks: number;
}

/**
 * Inserts one table's rows from its chunks (the table is empty), in the way their layout calls
 * for. The next chunks are read and decompressed while the current one is inserted; on
 * PostgreSQL they are read on the operation's second connection, since a COPY in progress holds
 * this one. Throws RestoreCheckFailed when a chunk cannot be read or the counts do not match the
 * checkpoint's statistics.
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
  const reader = conn.second ? await conn.second() : conn;
  const ahead = new ReadAhead(chunks.length, PREFETCH, async (i) =>
    openChunk(await readChunkContent(reader, Number(chunks[i][0]))),
  );
  // The chunk being loaded: the one a problem is reported against.
  let current = 0;
  async function* inOrder(): AsyncGenerator<OpenedChunk> {
    for (current = 0; current < chunks.length; current++) {
      const chunk = await ahead.take();
      if (chunk.rowCount !== Number(chunks[current][1])) fail(`chunk ${current} holds ${chunk.rowCount} rows, ${chunks[current][1]} recorded`);
      yield chunk;
    }
  }
  const selfRefs = new SelfReferences(table.name, table.key, table.selfRefs ?? []);
  let loaded: Loaded = { columns: [], inserted: 0 };
  try {
    const all = inOrder();
    const first = await all.next();
    if (!first.done) {
      const chunk = first.value;
      const rest = (async function* () {
        yield chunk;
        yield* all;
      })();
      loaded =
        chunk.format === 'json'
          ? await insertJsonChunks(conn, table, live, batchSize, selfRefs, chunk, rest)
          : await copyChunks(conn, table, live, chunk, rest);
    }
  } catch (err) {
    await ahead.settle();
    if (err instanceof CorruptChunkError) fail(`chunk ${Math.min(current, chunks.length - 1)} cannot be read (${err.message})`);
    throw err;
  }
  await selfRefs.apply(conn, loaded.columns);
  checkRestoredCount(table.name, loaded.inserted, expected);
  return loaded.inserted;
}

/**
 * Throws RestoreCheckFailed unless the rows inserted are the rows the statistics expect. The
 * count is the database's own (rows changed, rows copied), into a table emptied in the same
 * transaction: it is what the table now holds, without counting it again.
 */
export function checkRestoredCount(table: string, inserted: number, expected: Expected): void {
  if (inserted !== expected.rows) throw new RestoreCheckFailed([`${table}: ${inserted} rows restored, ${expected.rows} expected`]);
}
