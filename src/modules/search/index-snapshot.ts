import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import type { Config } from '../../config.js';
import { processRuns } from '../../process-runs.js';
import { SearchIndex } from './engine/index.js';
import { align8, SnapshotReader, SnapshotWriter, type Pause } from './engine/snapshot-codec.js';

/**
 * The search index kept on disk between runs (docs/search-snapshot.md): a start-up loads it and
 * replays the change feed from the position it was taken at, instead of analysing the whole
 * catalogue again.
 *
 * File: 8 bytes of magic, the header's length (u32 LE) and the header as JSON, zero padding to an
 * 8-byte boundary, then the payload (SnapshotWriter). The header names the layout, the engine
 * that wrote it (a fingerprint of its code, knowledge files and analysis packages), the
 * database, the feed position, the payload's length and its CRC-32: a file that differs in any
 * of them is not loaded.
 */
const MAGIC = Buffer.from('LRSIDX\r\n', 'latin1');
const FORMAT = 1;
/** A header is a few hundred bytes: a larger one is not a header. */
const MAX_HEADER = 64 * 1024;

export interface SnapshotTag {
  /** The change-feed entry up to which the index holds every change. */
  feedPosition: number;
  /** When it was taken (ms since the epoch). */
  takenAt: number;
}

interface Header extends SnapshotTag {
  format: number;
  engine: string;
  database: string;
  documents: number;
  payloadBytes: number;
  crc32: number;
}

/** A snapshot that cannot be used, and why, in one line for the log. */
export class SnapshotUnusable extends Error {}

/** Where this instance keeps its snapshot: beside its SQLite file, or in DATA_DIR; null when snapshots are off or the database lives in memory. */
export function snapshotPath(config: Pick<Config, 'database' | 'dataDir' | 'searchSnapshotMinutes'>): string | null {
  if (config.searchSnapshotMinutes === 0) return null;
  if (config.database.kind === 'sqlite') return config.database.path === ':memory:' ? null : `${config.database.path}.search-index`;
  return join(config.dataDir, 'search-index.snapshot');
}

/** The database a snapshot belongs to: the SQLite file, or PostgreSQL's host, port and database (no credentials). */
export function databaseIdentity(database: Config['database']): string {
  if (database.kind === 'sqlite') return `sqlite:${database.path}`;
  try {
    const url = new URL(database.url);
    return `postgres://${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'postgres';
  }
}

let fingerprint: string | null = null;

/**
 * What the index's content depends on besides the catalogue: the engine's code and the knowledge
 * files (as this process runs them: the source or dist/), and the versions of the packages that
 * segment words and read pinyin. Any change makes snapshots of other versions unusable.
 */
export function engineFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  for (const dir of ['./engine/', './knowledge/']) {
    const path = fileURLToPath(new URL(dir, import.meta.url));
    for (const name of readdirSync(path)
      .filter((n) => !n.includes('.test.'))
      .sort()) {
      hash.update(name).update(readFileSync(join(path, name)));
    }
  }
  const require = createRequire(import.meta.url);
  for (const pkg of ['@node-rs/jieba', 'pinyin-pro']) {
    try {
      hash.update(`${pkg}@${(require(`${pkg}/package.json`) as { version: string }).version}`);
    } catch {
      hash.update(`${pkg}@?`);
    }
  }
  fingerprint = hash.digest('hex').slice(0, 32);
  return fingerprint;
}

/**
 * Writes the index's snapshot: to a temporary file in the same folder, synced, then renamed over
 * the previous one, so a crash at any moment leaves either the previous snapshot or the new one.
 */
export async function writeSnapshot(path: string, database: string, index: SearchIndex, tag: SnapshotTag, pause: Pause): Promise<number> {
  const writer = new SnapshotWriter();
  const documents = index.size;
  await index.save(writer, pause);
  const payload = await writer.finish(pause);
  let crc = 0;
  let payloadBytes = 0;
  for (const part of payload) {
    crc = crc32(part, crc);
    payloadBytes += part.byteLength;
  }
  const header: Header = { format: FORMAT, engine: engineFingerprint(), database, ...tag, documents, payloadBytes, crc32: crc };
  const json = Buffer.from(JSON.stringify(header));
  const lead = Buffer.alloc(align8(MAGIC.length + 4 + json.length));
  MAGIC.copy(lead);
  lead.writeUInt32LE(json.length, MAGIC.length);
  json.copy(lead, MAGIC.length + 4);

  mkdirSync(dirname(path), { recursive: true });
  // Its own name: instances sharing the folder, or two holders of one process, never write into one file.
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writev([lead, ...payload]);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
  await syncFolder(dirname(path));
  return lead.length + payloadBytes;
}

/**
 * Temporary files of snapshot writes whose process no longer runs (killed while writing), removed;
 * answers their paths. A file of a running process — this one's, or another instance's on this
 * host — is left alone.
 */
export async function removeLeftoverTemporaries(path: string): Promise<string[]> {
  const folder = dirname(path);
  const pattern = new RegExp(`^${escapeRegExp(basename(path))}\\.(\\d+)-[0-9a-f]{8}\\.tmp$`);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid || processRuns(pid)) continue;
    await rm(join(folder, name), { force: true });
    removed.push(join(folder, name));
  }
  return removed;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The rename itself made durable. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems do not sync a folder: the rename is then as durable as they make it.
  } finally {
    await handle.close();
  }
}

/**
 * Reads a snapshot of this engine and database. Null when there is none; SnapshotUnusable when
 * it is truncated, corrupted, of another layout or engine, or of another database. The payload
 * is read a part at a time straight into the buffers the index keeps, its checksum computed on
 * the way and compared before anything is decoded.
 */
export async function readSnapshot(path: string, database: string): Promise<{ index: SearchIndex; tag: SnapshotTag; documents: number } | null> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SnapshotUnusable(`cannot be read (${(err as Error).message})`);
  }
  try {
    const size = fstatSync(fd).size;
    const { header, start } = readHeader(fd, size);
    if (header.format !== FORMAT) throw new SnapshotUnusable(`of another layout (${header.format}, this version reads ${FORMAT})`);
    if (header.engine !== engineFingerprint()) throw new SnapshotUnusable('written by another version of the search engine');
    if (header.database !== database) throw new SnapshotUnusable(`of another database (${header.database})`);
    if (size - start !== header.payloadBytes)
      throw new SnapshotUnusable(`of the wrong size (${size - start} bytes of payload, the header says ${header.payloadBytes})`);
    let at = start;
    let crc = 0;
    const readPart = (bytes: number): Buffer => {
      const part = Buffer.allocUnsafeSlow(bytes);
      if (bytes > 0 && readSync(fd, part, 0, bytes, at) !== bytes) throw new Error('snapshot payload ends early');
      crc = crc32(part, crc);
      at += bytes;
      return part;
    };
    let reader: SnapshotReader;
    try {
      reader = new SnapshotReader((bytes) => {
        if (at + align8(bytes) > size) throw new Error('snapshot payload ends early');
        const part = readPart(bytes);
        readPart(align8(bytes) - bytes);
        return new Uint8Array(part.buffer as ArrayBuffer, part.byteOffset, bytes);
      });
    } catch (err) {
      throw new SnapshotUnusable(`unreadable (${(err as Error).message})`);
    }
    if (at !== size || crc !== header.crc32) throw new SnapshotUnusable('corrupted (checksum mismatch)');
    let index: SearchIndex;
    try {
      index = SearchIndex.load(reader);
    } catch (err) {
      throw new SnapshotUnusable(`unreadable (${(err as Error).message})`);
    }
    if (index.size !== header.documents) throw new SnapshotUnusable(`holds ${index.size} permits where its header says ${header.documents}`);
    return { index, tag: { feedPosition: header.feedPosition, takenAt: header.takenAt }, documents: header.documents };
  } finally {
    closeSync(fd);
  }
}

/** The header and where the payload starts. */
function readHeader(fd: number, size: number): { header: Header; start: number } {
  const lead = Buffer.alloc(Math.min(size, MAGIC.length + 4 + MAX_HEADER));
  readSync(fd, lead, 0, lead.length, 0);
  if (lead.length < MAGIC.length + 4 || !lead.subarray(0, MAGIC.length).equals(MAGIC)) throw new SnapshotUnusable('not a search index snapshot');
  const length = lead.readUInt32LE(MAGIC.length);
  if (length > MAX_HEADER || MAGIC.length + 4 + length > lead.length) throw new SnapshotUnusable('truncated (header)');
  let header: Partial<Header>;
  try {
    header = JSON.parse(lead.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + length)) as Partial<Header>;
  } catch {
    throw new SnapshotUnusable('corrupted (header)');
  }
  const numbers = ['format', 'feedPosition', 'takenAt', 'documents', 'payloadBytes', 'crc32'] as const;
  if (numbers.some((k) => typeof header[k] !== 'number') || typeof header.engine !== 'string' || typeof header.database !== 'string') {
    throw new SnapshotUnusable('corrupted (header)');
  }
  return { header: header as Header, start: align8(MAGIC.length + 4 + length) };
}
