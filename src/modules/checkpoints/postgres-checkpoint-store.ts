import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { COVERED_TABLES } from './checkpoint-tables.js';
import { CheckpointStore, compressPiece, inOrder, readChunk, RestoreCheckFailed } from './checkpoint-store.js';
import type { CheckpointDraft, RestoreRequest, Run, TableStat } from './checkpoint-store.js';
import { quoteIdent } from '../../db/dialect.js';
import { errorCode } from '../../http/errors.js';

// A PostgreSQL checkpoint holds each table as the server writes it with `COPY … TO STDOUT (FORMAT
// binary)`, its fastest way out, cut into byte pieces and compressed; a restore feeds the same bytes
// to `COPY … FROM STDIN (FORMAT binary)`, its fastest way in. The server produces and reads every
// row itself and counts them: no row becomes a JavaScript object, and the counts are COPY's own.
/** Advisory lock of checkpoint operations (the change feed and the catalogue have their own keys). */
const CHECKPOINT_LOCK = 0x1a3c_4b01;
/** The binary COPY file header: signature, flags, header extension length. */
const COPY_HEADER_BYTES = 19;
const INSERT_CHUNK = 'insert into checkpoint_chunks (checkpoint_id, table_name, chunk_index, row_count, content) values ($1, $2, $3, 0, $4)';

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const covered = COVERED_TABLES.map((t) => t.name);

/** Statements on `client`, a connection the operation holds. */
function runOn(client: pg.ClientBase): Run {
  return async ({ sql, parameters }) => (await client.query<Record<string, unknown>>(sql, parameters as unknown[])).rows;
}

/** A table's columns and their types (udt names, as casts spell them), from the catalogue. */
export async function liveColumns(client: pg.ClientBase, table: string): Promise<{ names: string[]; types: string[] }> {
  const { rows } = await client.query<{ name: string; type: string }>(
    `select a.attname as name, t.typname as type from pg_attribute a join pg_type t on t.oid = a.atttypid
     where a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident($1)) and a.attnum > 0 and not a.attisdropped
     order by a.attnum`,
    [table],
  );
  return { names: rows.map((r) => r.name), types: rows.map((r) => r.type) };
}

/** A foreign key, key constraint or index dropped for a load, with what builds it again. */
type Dropped = { step: number; table: string; name: string; constraint: boolean; definition: string };

/**
 * Drops the foreign keys touching covered tables, then every index of the covered tables (keys
 * included), and answers what to build again, in order: the load goes into bare tables and each
 * index is built once afterwards, one sort instead of an insertion per row. Transactional DDL: a
 * rollback brings everything back, and the locks keep other transactions from seeing the tables meanwhile.
 */
export async function dropKeys(client: pg.ClientBase): Promise<Dropped[]> {
  const { rows } = await client.query<Dropped>(
    `select 0 as step, conrelid::regclass::text as table, conname as name, true as constraint, pg_get_constraintdef(oid) as definition
     from pg_constraint where contype = 'f' and (conrelid = any($1::regclass[]) or confrelid = any($1::regclass[]))
     union all
     select 1, i.indrelid::regclass::text, coalesce(con.conname, c.relname), con.oid is not null,
            coalesce(pg_get_constraintdef(con.oid), pg_get_indexdef(i.indexrelid))
     from pg_index i join pg_class c on c.oid = i.indexrelid
     left join pg_constraint con on con.conindid = i.indexrelid and con.contype in ('p', 'u')
     where i.indrelid = any($1::regclass[]) order by 1, 2, 3`,
    [covered],
  );
  // The foreign keys first, which need the keys they reference; built again last.
  for (const d of rows) await client.query(d.constraint ? `alter table ${d.table} drop constraint ${quoteIdent(d.name)}` : `drop index ${quoteIdent(d.name)}`);
  return rows.sort((a, b) => b.step - a.step);
}

/** Builds everything again as it was; rows a key refuses (a duplicate, a reference to a missing row) fail the restore's check. */
export async function buildKeys(client: pg.ClientBase, dropped: readonly Dropped[]): Promise<void> {
  for (const d of dropped) {
    try {
      await client.query(d.constraint ? `alter table ${d.table} add constraint ${quoteIdent(d.name)} ${d.definition}` : d.definition);
    } catch (err) {
      if (['23505', '23503'].includes(errorCode(err))) throw new RestoreCheckFailed([`${d.table}: ${(err as Error).message}`]);
      throw err;
    }
  }
}

export const TRUNCATE_COVERED = `truncate table ${covered.map(quoteIdent).join(', ')}`;

/** The stream's bytes in pieces of `size`, the last one shorter. */
async function* piecesOf(stream: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let filled = 0;
  for await (const data of stream) {
    parts.push(data);
    if ((filled += data.length) < size) continue;
    const all = Buffer.concat(parts, filled);
    let at = 0;
    for (; filled - at >= size; at += size) yield all.subarray(at, at + size);
    [parts, filled] = [[all.subarray(at)], filled - at];
  }
  if (filled > 0) yield Buffer.concat(parts, filled);
}

/**
 * The values of a binary COPY of one bytea column, whole and in order: each tuple is a field
 * count, a 32-bit length and the bytes. Bytes are joined only once a value is complete.
 */
async function* copiedValues(stream: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let [parts, size, at, need] = [[] as Buffer[], 0, COPY_HEADER_BYTES, COPY_HEADER_BYTES + 6];
  for await (const data of stream) {
    parts.push(data);
    size += data.length;
    while (size >= need) {
      const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
      const end = at + 6 + buf.readInt32BE(at + 2);
      parts = [buf];
      if (need < end) {
        need = end;
        continue;
      }
      yield buf.subarray(at + 6, end);
      [parts, size, at, need] = [[buf.subarray(end)], size - end, 0, 6];
    }
  }
}

export class PostgresCheckpointStore extends CheckpointStore {
  protected readonly format = 'pg-binary-copy';
  private readonly pool = this.dbh.pool!;

  protected endSessions(ids: unknown[]) {
    return CompiledQuery.raw('delete from sessions where id = any($1)', [ids]);
  }

  create(draft: CheckpointDraft) {
    return this.operation((main, second) => this.write(main, second, draft));
  }

  /**
   * One transaction: the keys and indexes dropped, the tables emptied, each filled by one COPY
   * whose chunks `second` reads meanwhile, then the keys built again and the sequences moved on.
   */
  restore(id: number, request: RestoreRequest) {
    return this.operation(async (main, second) => {
      const run = runOn(main);
      const stats = await this.verify(id, run);
      if (request.backup) request.onBackup(await this.write(main, second, request.backup));
      await main.query('begin');
      // Sessions keep their key to users dropped, so emptying users leaves them in place.
      const dropped = await dropKeys(main);
      const restored = await this.replace(run, stats, request, {
        empty: () => main.query(TRUNCATE_COVERED),
        load: async (stat) => (stat.chunks > 0 ? this.loadTable(main, second, id, stat) : 0),
        finish: () => buildKeys(main, dropped).then(() => advanceSequences(main)),
      });
      await main.query('commit');
      return restored;
    });
  }

  /**
   * One operation at a time across every instance, the lock taken before any snapshot: a copy
   * never starts from a state a running restore is about to replace (TRUNCATE empties the tables
   * for older snapshots too). The second connection reads or writes chunks while the first copies
   * rows. After a failure both are closed, not reused: one may be inside a COPY, and the server
   * rolls back and unlocks what a closed connection held.
   */
  private async operation<T>(fn: (main: pg.PoolClient, second: pg.PoolClient) => Promise<T>): Promise<T> {
    const main = await this.pool.connect();
    let second: pg.PoolClient | undefined;
    let done = false;
    try {
      await main.query('select pg_advisory_lock($1)', [CHECKPOINT_LOCK]);
      const result = await fn(main, (second = await this.pool.connect()));
      await main.query('select pg_advisory_unlock($1)', [CHECKPOINT_LOCK]);
      done = true;
      return result;
    } finally {
      main.release(!done);
      second?.release(!done);
    }
  }

  /**
   * Every covered table copied out in one REPEATABLE READ transaction on `reader`, stored by
   * `writer` in a transaction of its own committed once everything is read: the server reads and
   * writes at the same time, and a failure stores nothing.
   */
  private async write(reader: pg.PoolClient, writer: pg.PoolClient, draft: CheckpointDraft): Promise<number> {
    await reader.query('begin isolation level repeatable read read only');
    await writer.query('begin');
    const id = await this.addCheckpoint(runOn(writer), draft, async (id) => {
      const copies: Array<{ stat: TableStat; copy: { rowCount: number } }> = [];
      let writes: Promise<unknown> = Promise.resolve(); // one statement at a time on the writer, as compressions finish
      for (const { name } of COVERED_TABLES) {
        const { names, types } = await liveColumns(reader, name);
        const copy = reader.query(copyTo(`copy ${quoteIdent(name)} (${names.map(quoteIdent).join(', ')}) to stdout (format binary)`));
        copy.on('error', () => {}); // reported through the iteration; none may go unhandled once it has stopped
        const stat: TableStat = { table: name, rows: 0, chunks: 0, bytes: 0, columns: names, types };
        const stored = inOrder(piecesOf(copy, this.pieceBytes), async (piece, index) => {
          const content = await compressPiece(piece);
          await (writes = writes.then(() => writer.query(INSERT_CHUNK, [id, name, index, content])));
          return content.length;
        });
        for await (const bytes of stored) [stat.chunks, stat.bytes] = [stat.chunks + 1, stat.bytes + bytes];
        copies.push({ stat, copy });
      }
      await reader.query('commit'); // after it, every COPY has completed and counted its rows
      return copies.map(({ stat, copy }) => ({ ...stat, rows: copy.rowCount }));
    });
    await writer.query('commit');
    return id;
  }

  /** One table's chunks, read on `reader` and decompressed a few ahead, through one COPY; answers the rows COPY counted. */
  private async loadTable(main: pg.PoolClient, reader: pg.PoolClient, id: number, stat: TableStat): Promise<number> {
    const { table } = stat;
    const plan = await copyPlan(main, table, stat.columns ?? [], stat.types ?? []);
    const select = `select content from checkpoint_chunks where checkpoint_id = ${Number(id)} and table_name = ${literal(table)} order by chunk_index`;
    const chunks = reader.query(copyTo(`copy (${select}) to stdout (format binary)`));
    chunks.on('error', () => {}); // reported through the iteration; none may go unhandled once it has stopped
    const pieces = inOrder(copiedValues(chunks), (content, index) => readChunk(table, index, content));
    for (const statement of plan.before) await main.query(statement);
    const copy = main.query(copyFrom(plan.copy));
    copy.on('error', () => {}); // reported by the pipeline
    try {
      await pipeline(Readable.from(pieces), copy);
    } catch (err) {
      // A data exception (SQLSTATE class 22): the stored bytes are not rows of the stored columns.
      if (errorCode(err).startsWith('22')) throw new RestoreCheckFailed([`${table}: the stored rows cannot be read (${(err as Error).message})`]);
      throw err;
    }
    for (const statement of plan.after) await main.query(statement);
    return copy.rowCount;
  }
}

/**
 * Where a table's COPY goes: straight into it when it still has every stored column with the same
 * type (binary values are only readable as their own type), FREEZE writing the rows already frozen
 * since the table was emptied in this transaction. Otherwise into a temporary table shaped like the
 * checkpoint, from which the columns the table still has are inserted, cast to their type now.
 * Columns the checkpoint lacks get their default either way.
 */
async function copyPlan(client: pg.ClientBase, table: string, columns: string[], types: string[]) {
  const live = await liveColumns(client, table);
  const liveType = new Map(live.names.map((n, i) => [n, live.types[i]]));
  const stored = columns.map(quoteIdent).join(', ');
  if (columns.every((c, i) => liveType.get(c) === types[i])) {
    return { before: [], copy: `copy ${quoteIdent(table)} (${stored}) from stdin (freeze, format binary)`, after: [] };
  }
  const staging = quoteIdent(`restore_${table}`);
  const kept = columns.filter((c) => liveType.has(c));
  return {
    before: [`create temporary table ${staging} (${columns.map((c, i) => `${quoteIdent(c)} ${quoteIdent(types[i])}`).join(', ')}) on commit drop`],
    copy: `copy ${staging} (${stored}) from stdin (format binary)`,
    after: [
      `insert into ${quoteIdent(table)} (${kept.map(quoteIdent).join(', ')}) select ${kept.map((c) => `${quoteIdent(c)}::${quoteIdent(liveType.get(c)!)}`).join(', ')} from ${staging}`,
      `drop table ${staging}`,
    ],
  };
}

/**
 * Ids never go backwards: each serial sequence continues after the larger of its current value and
 * the restored rows' highest id, as SQLite's AUTOINCREMENT does, so no id is given to a second record.
 */
async function advanceSequences(client: pg.ClientBase): Promise<void> {
  for (const table of COVERED_TABLES) {
    if (table.key.length !== 1 || table.key[0] !== 'id') continue;
    const [{ seq }] = (await client.query<{ seq: string | null }>('select pg_get_serial_sequence($1, $2) as seq', [table.name, 'id'])).rows;
    if (!seq) continue;
    await client.query(
      `select setval($1::regclass, greatest((select coalesce(max(id), 0) from ${quoteIdent(table.name)}), (select last_value from ${seq}), 1))`,
      [seq],
    );
  }
}
