/**
 * What a durable commit costs on SQLite: single-row commits on a database opened as the service
 * opens it (WAL, synchronous = FULL: each commit is on the disk before it is acknowledged), next
 * to the same commits with synchronous = NORMAL (durable against a process crash only).
 * docs/reliability.md explains the choice.
 *
 *   npx tsx bench/sqlite-commit.ts [commits] [directory]   (default 500 commits in the system temp directory)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../src/db/connect.js';

const commits = Number(process.argv[2] ?? 500);
const dir = mkdtempSync(join(process.argv[3] ?? tmpdir(), 'lawrisk-bench-commit-'));
try {
  const sqlite = openSqlite(join(dir, 'bench.db'));
  sqlite.exec('create table t (id integer primary key, v text not null)');
  const insert = sqlite.prepare('insert into t (v) values (?)');
  const row = '许可事项'.repeat(50);
  for (const mode of ['FULL', 'NORMAL']) {
    sqlite.pragma(`synchronous = ${mode}`);
    for (let i = 0; i < 20; i++) insert.run(row); // warm up
    const started = performance.now();
    for (let i = 0; i < commits; i++) insert.run(row);
    const perCommit = (performance.now() - started) / commits;
    console.log(`synchronous = ${mode.padEnd(6)} ${perCommit.toFixed(3)} ms per commit (${commits} commits)`);
  }
  sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
