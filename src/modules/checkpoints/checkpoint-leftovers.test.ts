import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { newImagePath, releaseImagePath } from './sqlite-checkpoint-store.js';

/**
 * What a SQLite checkpoint operation cut short (a crash, a kill) leaves beside the database — its
 * image file — is removed when the service starts, and nothing else is: not the database and its
 * files, not another database's, not a file another running process is writing, not a file that
 * only looks alike. SQLite only: PostgreSQL checkpoints write no file (test/faults/crash.test.ts
 * kills a real process inside a restore and restarts it).
 */

/** An image's first bytes and a little more: the size does not matter to the rule. */
const IMAGE_BYTES = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(64 * 1024, 7)]);

describe('files an unfinished SQLite checkpoint left', () => {
  let t: TestApp;
  let dir = '';
  /** A process that ran and exited: its images can only be leftovers. */
  let deadPid = 0;
  /** A process that runs throughout: its image may be one it is writing. */
  let live: ReturnType<typeof spawn>;

  const file = (name: string) => join(dir, name);
  const plant = (name: string, content: Buffer | string = IMAGE_BYTES) => writeFileSync(file(name), content);
  const time = Date.now();

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    dir = dirname(t.config.database.kind === 'sqlite' ? t.config.database.path : '');
    deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  });
  afterAll(async () => {
    live?.kill('SIGKILL');
    await t?.close();
  });

  it('removes them at start-up, says so in the log, and leaves every other file as it was', async () => {
    const leftovers = [
      `test.db.checkpoint-${deadPid}-${time}-0123456789ab.tmp`,
      // This process's own id, in no operation of it: a process before it had the id (a restarted container).
      `test.db.checkpoint-${process.pid}-${time}-a1b2c3d4e5f6.tmp`,
      // Named as versions before the writer's id was in the name.
      `test.db.checkpoint-${time}-k3j5h2lq9x.tmp`,
    ];
    const kept: Record<string, Buffer | string> = {
      [`test.db.checkpoint-${live.pid}-${time}-00aa11bb22cc.tmp`]: IMAGE_BYTES, // another process is writing it
      [`other.db.checkpoint-${deadPid}-${time}-0123456789ab.tmp`]: IMAGE_BYTES, // another database's
      'test.db.checkpoint-before-upgrade.bak': 'a copy the operator made',
      'test.db.checkpoint-notes.tmp': 'notes',
      [`test.db.checkpoint-${deadPid}-${time}-0123456789ab.tmp.bak`]: 'a renamed copy',
      [`test.db.checkpoint-${deadPid}-${time}-0123456789ab.tmp-journal`]: 'not an image',
      [`backup-test.db.checkpoint-${deadPid}-${time}-0123456789ab.tmp`]: 'another name',
    };
    for (const name of leftovers) plant(name);
    for (const [name, content] of Object.entries(kept)) plant(name, content);
    mkdirSync(file(`test.db.checkpoint-${deadPid}-${time}-ffffffffffff.tmp`)); // a directory is never an image
    const database = ['test.db', 'test.db-wal', 'test.db-shm'].filter((f) => existsSync(file(f)));
    expect(database).toContain('test.db');

    const lines: string[] = [];
    const { app } = await t.reopen({ logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } });

    for (const name of leftovers) expect(existsSync(file(name)), name).toBe(false);
    for (const [name, content] of Object.entries(kept)) expect(readFileSync(file(name)).equals(Buffer.from(content)), name).toBe(true);
    expect(statSync(file(`test.db.checkpoint-${deadPid}-${time}-ffffffffffff.tmp`)).isDirectory()).toBe(true);
    for (const f of database) expect(existsSync(file(f)), f).toBe(true);
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);

    const said = lines.map((l) => JSON.parse(l)).filter((l) => /checkpoint/.test(l.msg));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, msg: 'removed the database images an unfinished checkpoint operation left' });
    expect([...said[0].files].sort()).toEqual(leftovers.map(file).sort());

    // A start with nothing left over says nothing.
    const quiet: string[] = [];
    await t.reopen({ logger: { level: 'info', stream: { write: (line: string) => void quiet.push(line) } } });
    expect(quiet.filter((l) => /checkpoint/.test(l))).toEqual([]);
  });

  it('keeps an image an operation of this process is writing, and removes it once the operation is over', async () => {
    const inUse = newImagePath(t.dbh.sqlite!);
    writeFileSync(inUse, IMAGE_BYTES);
    try {
      await t.reopen();
      expect(existsSync(inUse)).toBe(true);
    } finally {
      releaseImagePath(inUse);
    }
    expect(existsSync(inUse)).toBe(false);
  });

  it('removes by the same rule before each checkpoint operation, which leaves no image of its own', async () => {
    const before = readdirSync(dir).sort();
    const leftover = `test.db.checkpoint-${deadPid}-${time}-0123456789ab.tmp`;
    plant(leftover);
    const cookie = await t.login();
    const res = await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints`, payload: { description: '清理之后' }, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(before).toContain(`test.db.checkpoint-${live.pid}-${time}-00aa11bb22cc.tmp`);
  });
});
