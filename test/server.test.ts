import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from './helpers/server-process.js';

const API = '/app/api/workflow/lawrisk';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'lawrisk-server-'));
  dirs.push(d);
  return d;
}

describe('the server process', () => {
  it('stops at start-up with one line naming a bad setting', async () => {
    const srv = await startServer({ PORT: '8080', LOG_LEVEL: 'loud', DATA_DIR: tempDir() }, { waitHealthy: false });
    expect(await srv.exited).toBe(1);
    const lines = srv.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('LOG_LEVEL');
  });

  it('serves health and login with a generated default administrator, and shuts down gracefully', async () => {
    const dir = tempDir();
    const env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'lawrisk.db')}`, DEMO_DATA: '0', ADMIN_PASSWORD: '' };
    const srv = await startServer(env);
    expect(await (await fetch(`${srv.base}/healthz`)).json()).toMatchObject({ status: 'ok' });

    const file = join(dir, 'initial-admin-password.txt');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const [username, password] = readFileSync(file, 'utf8').trim().split('\n');
    expect(username).toBe('admin');
    expect(srv.output()).toContain(password);

    const login = await fetch(`${srv.base}${API}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as { data: { user: Record<string, unknown> } };
    expect(body.data.user).toMatchObject({ username: 'admin', role: 'admin', must_change_password: true });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];

    expect(await srv.stop('SIGTERM')).toBe(0);

    // Restart on the same database: no second admin, no new password, and the session survives.
    const again = await startServer(env);
    const me = await fetch(`${again.base}${API}/auth/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(readFileSync(file, 'utf8').trim().split('\n')[1]).toBe(password);
    expect(await again.stop('SIGINT')).toBe(0);
  }, 90_000); // two server starts, each loading the search dictionaries
});
