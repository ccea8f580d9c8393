import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import type { AppContext } from '../../context.js';
import { processRuns } from '../../process-runs.js';
import { COVERED_TABLES } from './checkpoint-tables.js';
import { CheckpointStore, compressPiece, inOrder, readChunk, RestoreCheckFailed } from './checkpoint-store.js';
import type { CheckpointDraft, RestoreRequest, TableStat } from './checkpoint-store.js';
import { quoteIdent } from '../../db/dialect.js';

// A SQLite checkpoint is a database image: a fresh SQLite file holding a plain copy of every
// covered table, cut into pieces along each table's pages and compressed. SQLite copies the rows
// between the two attached files itself, so no row passes through JavaScript in either direction.
/** Schema name of the image while it is attached. */
const IMAGE = 'checkpoint_image';
/** Large pages: a smaller file, and fewer pages to write and read. */
const IMAGE_PAGE_SIZE = 65_536;
/** Page cache during an operation, in KiB: the default 2 MB rereads index pages from the OS over and over. */
const BULK_CACHE_SIZE = -256 * 1024;
/** Per table and referenced table, the rows whose reference finds no row. */
const BROKEN_KEYS = `select "table" || ': ' || count(*) || ' rows reference missing ' || parent || ' rows' from pragma_foreign_key_check group by "table", parent`;

// Image files: `<database file>.checkpoint-<pid>-<time>-<random>.tmp` beside the database. The
// writer's process id is in the name, so a file a dead process left can be told from one a running
// process writes; a name without the process (EARLIER_IMAGE_NAME) has no writer left.
const IMAGE_NAME = /^checkpoint-(\d+)-\d+-[0-9a-f]+\.tmp$/;
const EARLIER_IMAGE_NAME = /^checkpoint-\d+-[0-9a-z]*\.tmp$/;

/** Images this process is writing or reading now (several apps may share a process in tests). */
const inUse = new Set<string>();
/** `prefix`: of every image name there; `besideDatabase`: where leftovers are looked for (never the shared temp directory). */
type ImagePlace = { dir: string; prefix: string; besideDatabase: boolean };

/** Beside the database file (same disk, no copy of the database in a memory-backed temp directory); the temp directory for an in-memory database. */
function imagePlace(sqlite: SqliteDatabase.Database): ImagePlace {
  const file = sqlite.prepare("select file from pragma_database_list where name = 'main'").pluck().get() as string;
  return file ? { dir: dirname(file), prefix: `${basename(file)}.`, besideDatabase: true } : { dir: tmpdir(), prefix: 'lawrisk-', besideDatabase: false };
}

/**
 * Certainly what an unfinished operation left: a regular file named as an image of this database
 * whose writer no longer runs — a process that is gone, this process outside its own operations
 * (the id once belonged to a process before it), or a name without the writer.
 */
function isLeftover(place: ImagePlace, name: string): boolean {
  if (!name.startsWith(place.prefix)) return false;
  const rest = name.slice(place.prefix.length);
  const current = IMAGE_NAME.exec(rest);
  if (!current && !EARLIER_IMAGE_NAME.test(rest)) return false;
  const path = join(place.dir, name);
  if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) return false;
  if (!current) return true;
  const pid = Number(current[1]);
  return pid === process.pid ? !inUse.has(path) : !processRuns(pid);
}

function removeLeftovers(place: ImagePlace): string[] {
  if (!place.besideDatabase) return [];
  const removed = readdirSync(place.dir)
    .filter((name) => isLeftover(place, name))
    .map((name) => join(place.dir, name));
  for (const path of removed) rmSync(path, { force: true });
  return removed;
}

/** A path for a new image file, in use until `releaseImagePath`; leftovers beside the database are removed first. */
export function newImagePath(sqlite: SqliteDatabase.Database): string {
  const place = imagePlace(sqlite);
  removeLeftovers(place);
  const path = join(place.dir, `${place.prefix}checkpoint-${process.pid}-${Date.now()}-${randomBytes(6).toString('hex')}.tmp`);
  inUse.add(path);
  return path;
}

export function releaseImagePath(path: string): void {
  inUse.delete(path);
  rmSync(path, { force: true });
}

/**
 * Start-up: removes the images checkpoint operations cut short (a crash, a kill) left, each as
 * large as the covered tables. A failure is logged, not fatal: the service runs without the space.
 */
export async function removeCheckpointLeftovers(ctx: AppContext): Promise<void> {
  if (ctx.dbh.kind !== 'sqlite') return;
  try {
    const removed = removeLeftovers(imagePlace(ctx.dbh.sqlite!));
    if (removed.length > 0) ctx.log.warn({ files: removed }, 'removed the database images an unfinished checkpoint operation left');
  } catch (err) {
    ctx.log.error({ err }, 'could not remove the database images an unfinished checkpoint operation left');
  }
}

/** `start`..`end`: the byte range of the table's pages in the image (the first table's also holds the header page). */
type ImageTable = { table: string; rows: number; start: number; end: number };

/** BEGIN IMMEDIATE takes the write lock up front: a consistent copy, and its own writes never fail to upgrade a read lock. */
async function inTransaction<T>(sqlite: SqliteDatabase.Database, fn: () => Promise<T> | T): Promise<T> {
  sqlite.exec('begin immediate');
  try {
    const result = await fn();
    sqlite.exec('commit');
    return result;
  } catch (err) {
    if (sqlite.inTransaction) sqlite.exec('rollback');
    throw err;
  }
}

/** `fn` with the image file attached: outside any transaction, since SQLite cannot attach inside one. */
async function attached<T>(sqlite: SqliteDatabase.Database, file: string, fn: () => Promise<T>): Promise<T> {
  sqlite.prepare(`attach database ? as ${IMAGE}`).run(file);
  try {
    return await fn();
  } finally {
    sqlite.exec(`detach database ${IMAGE}`);
  }
}

async function withImageFile<T>(sqlite: SqliteDatabase.Database, fn: (file: string) => Promise<T>): Promise<T> {
  const file = newImagePath(sqlite);
  try {
    return await fn(file);
  } finally {
    releaseImagePath(file);
  }
}

/** Copies every covered table into the image in one transaction, each whole before the next, so its pages are one range. */
function copyToImage(sqlite: SqliteDatabase.Database, file: string): Promise<ImageTable[]> {
  return attached(sqlite, file, () => {
    // A scratch file: no journal, no syncs; a crash leaves only a file the next start removes.
    for (const pragma of [`page_size = ${IMAGE_PAGE_SIZE}`, 'journal_mode = off', 'synchronous = off']) sqlite.pragma(`${IMAGE}.${pragma}`);
    return inTransaction(sqlite, () => {
      let end = 0;
      return COVERED_TABLES.map(({ name }) => {
        // The columns with their type affinity and nothing else: no keys, no constraints.
        sqlite.exec(`create table ${IMAGE}.${quoteIdent(name)} as select * from main.${quoteIdent(name)} where false`);
        const rows = sqlite.prepare(`insert into ${IMAGE}.${quoteIdent(name)} select * from main.${quoteIdent(name)}`).run().changes;
        const start = end;
        end = (sqlite.pragma(`${IMAGE}.page_count`, { simple: true }) as number) * IMAGE_PAGE_SIZE;
        return { table: name, rows, start, end };
      });
    });
  });
}

export class SqliteCheckpointStore extends CheckpointStore {
  protected readonly format = 'sqlite-image';
  private readonly sqlite = this.dbh.sqlite!;

  /** Statements on the one connection, which the operation holds. */
  private readonly run = async ({ sql, parameters }: CompiledQuery) => {
    const statement = this.sqlite.prepare(sql);
    if (statement.reader) return statement.all(...parameters);
    statement.run(...parameters);
    return [];
  };

  protected endSessions(ids: unknown[]) {
    return CompiledQuery.raw('delete from sessions where id in (select value from json_each(?))', [JSON.stringify(ids)]);
  }

  create(draft: CheckpointDraft) {
    return this.exclusive(() => this.write(draft));
  }

  /**
   * The backup and the restore run on the one connection with nothing in between. The image is
   * written to a file and attached before the transaction begins.
   */
  restore(id: number, request: RestoreRequest) {
    return this.exclusive(async () => {
      const stats = await this.verify(id, this.run);
      if (request.backup) request.onBackup(await this.write(request.backup));
      return withImageFile(this.sqlite, async (file) => {
        await this.materialize(id, stats, file);
        return attached(this.sqlite, file, () => this.replaceTables(stats, request));
      });
    });
  }

  /**
   * The one connection, taken through Kysely: every other query of the process waits for the
   * operation instead of slipping into its transactions.
   */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.dbh.db.connection().execute(async () => {
      const cacheSize = this.sqlite.pragma('cache_size', { simple: true }) as number;
      this.sqlite.pragma(`cache_size = ${BULK_CACHE_SIZE}`);
      try {
        return await fn();
      } finally {
        this.sqlite.pragma(`cache_size = ${cacheSize}`);
      }
    });
  }

  /** The image copied in one transaction, then stored with the checkpoint's row in a second. */
  private write(draft: CheckpointDraft): Promise<number> {
    return withImageFile(this.sqlite, async (file) => {
      const tables = await copyToImage(this.sqlite, file);
      return inTransaction(this.sqlite, () => this.addCheckpoint(this.run, draft, (id) => this.storeImage(id, file, tables)));
    });
  }

  /** Stores the image as compressed pieces, each under the table whose pages it holds. */
  private async storeImage(id: number, file: string, tables: ImageTable[]): Promise<TableStat[]> {
    const fd = openSync(file, 'r');
    const insert = this.sqlite.prepare('insert into checkpoint_chunks (checkpoint_id, table_name, chunk_index, row_count, content) values (?, ?, ?, 0, ?)');
    const pieces = tables.flatMap((t) =>
      Array.from({ length: Math.ceil((t.end - t.start) / this.pieceBytes) }, (_, index) => ({
        table: t.table,
        index,
        at: t.start + index * this.pieceBytes,
        length: Math.min(this.pieceBytes, t.end - t.start - index * this.pieceBytes),
      })),
    );
    const stats = new Map(tables.map((t) => [t.table, { table: t.table, rows: t.rows, chunks: 0, bytes: 0 }]));
    try {
      const compressed = inOrder(pieces, ({ at, length }) => {
        const piece = Buffer.allocUnsafe(length);
        if (readSync(fd, piece, 0, length, at) !== length) throw new Error('checkpoint image file is shorter than its pages');
        return compressPiece(piece);
      });
      let i = 0;
      for await (const content of compressed) {
        const { table, index } = pieces[i++];
        insert.run(id, table, index, content);
        const stat = stats.get(table)!;
        [stat.chunks, stat.bytes] = [stat.chunks + 1, stat.bytes + content.length];
      }
    } finally {
      closeSync(fd);
    }
    return [...stats.values()];
  }

  /**
   * Writes the stored pieces back into one image file, in the statistics' table order. Throws
   * RestoreCheckFailed when a piece cannot be read or the file comes out of another size than its header says.
   */
  private async materialize(id: number, stats: readonly TableStat[], file: string): Promise<void> {
    const chunks = this.sqlite.prepare('select id, chunk_index from checkpoint_chunks where checkpoint_id = ? and table_name = ? order by chunk_index');
    const pieces = stats.flatMap(({ table }) => (chunks.all(id, table) as Array<{ id: number; chunk_index: number }>).map((c) => ({ table, ...c })));
    const content = this.sqlite.prepare('select content from checkpoint_chunks where id = ?').pluck();
    const fd = openSync(file, 'w+');
    try {
      for await (const piece of inOrder(pieces, (p) => readChunk(p.table, p.chunk_index, content.get(p.id) as Buffer))) writeSync(fd, piece);
      // The size the header gives: page size × page count.
      const header = Buffer.alloc(32);
      readSync(fd, header, 0, 32, 0);
      const [size, expected] = [statSync(file).size, (header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16)) * header.readUInt32BE(28)];
      if (size !== expected) throw new RestoreCheckFailed([`the checkpoint image holds ${size} bytes, ${expected} expected`]);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * One transaction with foreign keys off (switched outside it: SQLite cannot inside one), so the
   * DELETEs become truncations and the keys are checked once for the whole database at the end.
   */
  private async replaceTables(stats: readonly TableStat[], request: RestoreRequest) {
    const { sqlite } = this;
    sqlite.pragma('foreign_keys = off');
    try {
      return await inTransaction(sqlite, () =>
        this.replace(this.run, stats, request, {
          empty: async () => {
            for (const table of [...COVERED_TABLES].reverse()) sqlite.exec(`delete from main.${quoteIdent(table.name)}`);
          },
          load: async (stat) => this.loadTable(stat.table, request.batchSize, stat.rows),
          finish: async () => {
            const broken = sqlite.prepare(BROKEN_KEYS).pluck().all() as string[];
            if (broken.length > 0) throw new RestoreCheckFailed(broken);
          },
        }),
      );
    } finally {
      sqlite.pragma('foreign_keys = on');
    }
  }

  /**
   * Fills one emptied table from the image in batches of `batchSize` rows (the copy numbered the
   * rows 1..n: a batch is a rowid range). Columns the table no longer has are left out; columns
   * the checkpoint lacks get their default.
   */
  private loadTable(table: string, batchSize: number, expected: number): number {
    const stored = new Set(this.sqlite.prepare(`select name from pragma_table_info(?, '${IMAGE}')`).pluck().all(table) as string[]);
    if (stored.size === 0) return 0;
    const live = this.sqlite.prepare("select name from pragma_table_info(?, 'main') order by cid").pluck().all(table) as string[];
    const columns = live
      .filter((c) => stored.has(c))
      .map(quoteIdent)
      .join(', ');
    const max = Number(
      this.sqlite
        .prepare(`select coalesce(max(rowid), 0) from ${IMAGE}.${quoteIdent(table)}`)
        .pluck()
        .get(),
    );
    if (max > expected) throw new RestoreCheckFailed([`${table}: stored rows are numbered up to ${max}, ${expected} expected`]);
    const insert = this.sqlite.prepare(
      `insert into main.${quoteIdent(table)} (${columns}) select ${columns} from ${IMAGE}.${quoteIdent(table)} where rowid between ? and ?`,
    );
    let inserted = 0;
    for (let from = 1; from <= max; from += batchSize) inserted += insert.run(from, from + batchSize - 1).changes;
    return inserted;
  }
}
