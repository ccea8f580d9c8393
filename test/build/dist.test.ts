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
});
