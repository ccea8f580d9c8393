import { AppError, errorCode } from './errors.js';

const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const SQLITE_WRITE_FAILURES = new Set([
  'SQLITE_IOERR_WRITE',
  'SQLITE_IOERR_FSYNC',
  'SQLITE_IOERR_DIR_FSYNC',
  'SQLITE_IOERR_TRUNCATE',
  'SQLITE_IOERR_DELETE',
  'SQLITE_IOERR_SHMSIZE',
  'SQLITE_IOERR_SHMOPEN',
]);
const NET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * Maps a database failure to what a user can act on: constraint violations are the caller's
 * problem (400), an unreachable, full or unwritable database is an outage (503, docs/reliability.md).
 * Returns null for anything that is not a recognised database error.
 */
export function mapDatabaseError(err: unknown): AppError | null {
  if (!err || typeof err !== 'object') return null;
  const code = errorCode(err);
  const given = (err as { message?: unknown }).message;
  const message = typeof given === 'string' ? given : '';

  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505') {
    return new AppError(400, '数据已存在，违反唯一性约束');
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503') {
    return new AppError(400, '数据仍被其他记录引用，或引用的记录不存在');
  }
  // The disk: nothing of the change was kept (the transaction rolled back), reads still work, and
  // only an administrator can help (free space, repair the disk): 503 with what happened.
  if (code === 'SQLITE_FULL' || code === '53100') {
    return new AppError(503, '数据库磁盘空间已满，修改未保存，请联系管理员');
  }
  if (code.startsWith('SQLITE_READONLY') || code === '25006') {
    return new AppError(503, '数据库当前只读，修改未保存，请联系管理员');
  }
  // A write the operating system refused: a disk gone read-only after an error reports EROFS here.
  if (SQLITE_WRITE_FAILURES.has(code)) {
    return new AppError(503, '数据库无法写入磁盘（磁盘可能只读或已损坏），修改未保存，请联系管理员');
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') {
    return new AppError(503, '数据库读写失败，请稍后重试');
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new AppError(503, '数据库繁忙，请稍后重试');
  }
  if (
    PG_UNAVAILABLE.has(code) ||
    NET_UNAVAILABLE.has(code) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i.test(message)
  ) {
    return new AppError(503, '数据库暂时不可用，请稍后重试');
  }
  return null;
}
