import type { Readable } from 'node:stream';

/** Where a command writes: process.stdout / process.stderr, or a buffer in tests. */
export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export type InputStream = Readable & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };

/**
 * Everything a command touches outside the database, passed in explicitly so the tests can run
 * a command in-process with their own environment and capture what it prints.
 */
export interface CliIo {
  /** The settings (DATABASE_URL …), read by src/config.ts exactly as the service reads them. */
  env: Record<string, string | undefined>;
  /** Results: tables, created ids, a generated password. */
  stdout: OutputStream;
  /** Progress, warnings and the one line of a failure. */
  stderr: OutputStream;
  stdin: InputStream;
  /** Relative output paths (export) are resolved against this. */
  cwd: string;
}

export function processIo(): CliIo {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd() };
}
