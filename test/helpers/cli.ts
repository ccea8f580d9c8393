import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import type { TestDatabase } from './databases.js';
import { PROJECT_ROOT } from './server-process.js';

/** Time allowed to a test that runs child processes (each one a node start) on a busy 2-core machine. */
export const CHILD_PROCESSES = 120_000;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  env?: Record<string, string>;
  /** What standard input holds (a piped password); empty when not given. */
  input?: string;
  cwd?: string;
}

/** The settings the command line gets for a test database (no demo data, warnings only). */
export function cliEnv(db: TestDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return { DATABASE_URL: db.url, DATA_DIR: db.dataDir, DEMO_DATA: '0', ...extra };
}

/** Runs the real bin (`node bin/lawrisk.js …`, the compiled code in dist/) as a child process, as an operator's shell would. */
export function runBin(args: string[], opts: CliRunOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, ['bin/lawrisk.js', ...args], {
    cwd: opts.cwd ?? PROJECT_ROOT,
    // Outside the test run's own settings: only what the test gives, plus what node needs.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(opts.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the same command line in this process (no bin, no child): for the many cheaper cases. */
export async function runInProcess(args: string[], opts: CliRunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { ...opts.env },
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    stdin: Readable.from(opts.input === undefined ? [] : [opts.input]),
    cwd: opts.cwd ?? PROJECT_ROOT,
  });
  return { code: code === 'serving' ? null : code, stdout, stderr };
}

/** The rows (cells split on the gaps of two or more spaces) of each table whose header matches, header and rule left out. */
function tablesUnder(output: string, header: RegExp): string[][][] {
  const lines = output.split('\n');
  const tables: string[][][] = [];
  lines.forEach((line, i) => {
    if (!header.test(line)) return;
    const rows: string[][] = [];
    for (let j = i + 2; j < lines.length && /^\S/.test(lines[j]) && !/^(refused|committed|preview only)/.test(lines[j]); j++) {
      rows.push(lines[j].trim().split(/ {2,}/));
    }
    tables.push(rows);
  });
  return tables;
}

/** The per-sheet count tables `lawrisk import` printed, one per workbook. */
export const countTables = (output: string) => tablesUnder(output, /^sheet +permits +risks +new/);

/** The findings tables `lawrisk import` printed (sheet, row, column, severity, message), one per workbook. */
export const findingTables = (output: string) => tablesUnder(output, /^sheet +row +column +severity +message/);
