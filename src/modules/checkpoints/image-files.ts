import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { AppContext } from '../../context.js';
import { withRawConnection, type RawConnection } from '../../db/raw-connection.js';
import { processRuns } from '../../process-runs.js';

// The files SQLite checkpoint operations write their database image to (sqlite-image.ts;
// docs/checkpoints.md, "SQLite: a database image"): `<database file>.checkpoint-<pid>-<time>-<random>.tmp`
// beside the database. The writer's process id is in the name, so a file a dead process left can
// be told from one a running process (another instance, the command line) is writing.

/** After `<database file>.`: the writing process, the time, a random part. */
const IMAGE_NAME = /^checkpoint-(\d+)-\d+-[0-9a-f]+\.tmp$/;
/** The same, as versions before named them: without the process. */
const EARLIER_IMAGE_NAME = /^checkpoint-\d+-[0-9a-z]*\.tmp$/;

/** Images this process is writing or reading now (one per operation; several apps may share a process in tests). */
const inUse = new Set<string>();

interface ImagePlace {
  dir: string;
  /** Of every image name here: `<database file>.`, or `lawrisk-` in the temp directory. */
  prefix: string;
  /** Beside a database file, where leftovers are looked for; not in the shared temp directory. */
  besideDatabase: boolean;
}

/** Beside the database file (same disk, and no copy of the database in a memory-backed temp directory), or the temp directory for an in-memory database. */
async function imagePlace(conn: RawConnection): Promise<ImagePlace> {
  const [[file]] = await conn.rows("select file from pragma_database_list where name = 'main'");
  return file
    ? { dir: dirname(String(file)), prefix: `${basename(String(file))}.`, besideDatabase: true }
    : { dir: tmpdir(), prefix: 'lawrisk-', besideDatabase: false };
}

/**
 * Certainly what an unfinished operation left: a regular file named as an image of this database
 * whose writer no longer runs — a process that is gone, this process outside any operation of its
 * own (the id once belonged to a process before it), or a version that did not name the writer.
 * A process running under the id of a dead writer only delays the removal.
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
  const removed = readdirSync(place.dir).filter((name) => isLeftover(place, name)).map((name) => join(place.dir, name));
  for (const path of removed) rmSync(path, { force: true });
  return removed;
}

/**
 * A path for a new image file, marked in use until `releaseImagePath`. Leftovers beside the
 * database are removed first.
 */
export async function newImagePath(conn: RawConnection): Promise<string> {
  const place = await imagePlace(conn);
  if (place.besideDatabase) removeLeftovers(place);
  const path = join(place.dir, `${place.prefix}checkpoint-${process.pid}-${Date.now()}-${randomBytes(6).toString('hex')}.tmp`);
  inUse.add(path);
  return path;
}

/** Removes the image file of an operation that is over. */
export function releaseImagePath(path: string): void {
  try {
    rmSync(path, { force: true });
  } finally {
    inUse.delete(path);
  }
}

/**
 * Start-up: removes what checkpoint operations cut short (a crash, a kill) left beside the SQLite
 * database — an image as large as the covered tables, kept otherwise until the next checkpoint
 * operation. A failure is logged, not fatal: the service runs without the space.
 */
export async function removeCheckpointLeftovers(ctx: AppContext): Promise<void> {
  if (ctx.dbh.kind !== 'sqlite') return;
  try {
    const place = await withRawConnection(ctx.dbh, imagePlace);
    const removed = place.besideDatabase ? removeLeftovers(place) : [];
    if (removed.length > 0) ctx.log.warn({ files: removed }, 'removed the database images an unfinished checkpoint operation left');
  } catch (err) {
    ctx.log.error({ err }, 'could not remove the database images an unfinished checkpoint operation left');
  }
}
