import { ConfigError, type DatabaseTarget } from '../config.js';
import { mapDatabaseError } from '../http/db-errors.js';
import { AppError, errorCode } from '../http/errors.js';

/** Exit statuses (docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The command ran and failed: refused input, unknown region, missing file, errors in a workbook. */
  failed: 1,
  /** Bad arguments or settings: nothing was attempted. */
  usage: 2,
  /** The database could not be reached or opened: worth retrying later. */
  unavailable: 3,
} as const;

/** A failure the command line explains itself, with its exit status. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'UsageError';
  }
}

/** A database URL fit to print: the password of a postgres:// URL replaced. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `sqlite:${target.path}`;
  const url = new URL(target.url);
  if (url.password) url.password = '***';
  return url.toString();
}

function causeOf(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return causeOf(err.errors[0]);
  if (err instanceof Error) return err.message || errorCode(err) || err.name;
  return String(err);
}

/** PostgreSQL refusing the connection itself: no such database, bad credentials. */
const PG_CONNECTION_REFUSED = new Set(['3D000', '28P01', '28000']);

/**
 * Any failure as the one line an operator reads, and the exit status. Messages of the services
 * (AppError) are passed on as they are: they are the ones the web pages show.
 */
export function explainFailure(err: unknown, target: DatabaseTarget | null): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof ConfigError) return { message: `invalid setting: ${err.message}`, exitCode: EXIT.usage };
  const db = mapDatabaseError(err);
  const code = errorCode(err);
  if (db?.status === 503 || (err instanceof AppError && err.status === 503) || PG_CONNECTION_REFUSED.has(code)) {
    const where = target ? ` (${describeTarget(target)})` : '';
    return { message: `database unavailable${where}: ${causeOf(err)}`, exitCode: EXIT.unavailable };
  }
  return { message: causeOf(db ?? err), exitCode: EXIT.failed };
}
