import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output(): string;
  /** Resolves once the process has printed `text` (stdout or stderr); fails if it exits first or after `ms`. */
  waitForOutput(text: string, ms?: number): Promise<void>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How the server is started: from the source (`npm start` runs the same code compiled to dist/), unless a test runs another entry (`bin/lawrisk.js serve`). */
const SERVER_ENTRY = ['--import', 'tsx', 'src/server.ts'];

/**
 * Starts the real server (`src/server.ts`, what `npm start` runs compiled) with the given environment and
 * waits until `/readyz` answers 200 — it listens first, then loads its search index (for
 * `healthyWithinMs`, default 60 s: a large catalogue's index build takes longer).
 */
export async function startServer(
  env: Record<string, string>,
  opts: { waitHealthy?: boolean; healthyWithinMs?: number; args?: string[] } = {},
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, opts.args ?? SERVER_ENTRY, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const proc: ServerProcess = {
    child,
    port,
    base,
    exited,
    output: () => out,
    async waitForOutput(text, ms = 30_000) {
      const deadline = Date.now() + ms;
      while (!out.includes(text)) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited before printing "${text}": ${out}`);
        if (Date.now() > deadline) throw new Error(`server did not print "${text}" within ${ms} ms: ${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
  if (opts.waitHealthy === false) return proc;
  const deadline = Date.now() + (opts.healthyWithinMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}): ${out}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.status === 200) return proc;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy: ${out}`);
}
