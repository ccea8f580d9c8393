import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, distPathOf, serverIsStale, shippedSources } from '../../scripts/build-server.mjs';
import { PROJECT_ROOT } from '../helpers/server-process.js';

const SRC = join(PROJECT_ROOT, 'src');
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));

/** What `npm start` and the `lawrisk` command run: dist/, as the global setup left it (rebuilt when stale). */
describe('the build in dist/', () => {
  it('is current', () => {
    expect(serverIsStale()).toBe(false);
  });

  it('holds every file the code reads next to itself at run time (search knowledge, common passwords, worker entries)', () => {
    const data = filesUnder(SRC).filter((path) => !path.endsWith('.ts'));
    expect(data.map((path) => relative(SRC, path))).toContain('modules/auth/common-passwords.txt');
    const missing = data.filter((path) => !existsSync(join(DIST, relative(SRC, path))));
    expect(missing.map((path) => relative(PROJECT_ROOT, path))).toEqual([]);
  });

  it('holds a compiled module for every source module except the tests', () => {
    const modules = shippedSources().filter((path) => path.endsWith('.ts'));
    expect(modules.map((path) => relative(SRC, path))).toEqual(expect.arrayContaining(['server.ts', 'cli/main.ts', 'db/migrations/index.ts']));
    expect(modules.filter((path) => /\.test\.ts$/.test(path))).toEqual([]);
    const missing = modules.filter((path) => !existsSync(distPathOf(path)));
    expect(missing.map((path) => relative(PROJECT_ROOT, path))).toEqual([]);
  });

  it('parses a workbook in its worker thread with plain node, from the compiled entry', () => {
    const script = `
      import { readFileSync } from 'node:fs';
      import { ParseWorkers } from './dist/modules/importer/parse-workers.js';
      import { DEFAULT_PARSE_LIMITS } from './dist/modules/importer/parser/parse-limits.js';
      const workers = new ParseWorkers(384);
      const parsed = await workers.parse(readFileSync('demo/workbooks/前锋区许可事项风险台账.xlsx'), DEFAULT_PARSE_LIMITS);
      await workers.close();
      console.log(JSON.stringify({ sheets: parsed.sheets.length }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } });
    const answer = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { sheets: number };
    expect(answer.sheets).toBeGreaterThan(0);
  }, 60_000);
});
