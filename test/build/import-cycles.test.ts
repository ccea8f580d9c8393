import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/server-process.js';

const SCRIPT = join(PROJECT_ROOT, 'scripts/check-import-cycles.mjs');
const trees = mkdtempSync(join(tmpdir(), 'lawrisk-import-cycles-'));
afterAll(() => rmSync(trees, { recursive: true, force: true }));

/** A source tree of the given files (path under the root → text), written under a fresh folder. */
function sourceTree(name: string, files: Record<string, string>): string {
  const root = join(trees, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** What `npm test` runs (`npm run check:imports`), on the given source root or on src/. */
function checkImports(root?: string, ...options: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, ...(root ? [root] : []), ...options], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/** Two modules that need each other through their services; everything else depends one way. */
const LOOP = {
  'app.ts': "import { registerUsers } from './modules/users/users.routes.js';\nexport const app = registerUsers;\n",
  'http/errors.ts': 'export const fail = () => 400;\n',
  'modules/users/users.routes.ts':
    "import { fail } from '../../http/errors.js';\nimport { createUser } from './users.service.js';\nexport const registerUsers = [fail, createUser];\n",
  'modules/users/users.service.ts':
    "import type { Row } from './users.repository.js';\nimport {\n  findDepartment,\n} from '../departments/departments.repository.js';\nexport const createUser = (r: Row) => findDepartment(r);\n",
  'modules/users/users.repository.ts': 'export type Row = { id: number };\n',
  'modules/departments/departments.repository.ts': 'export const findDepartment = (r: unknown) => r;\n',
  'modules/departments/departments.service.ts':
    "// import { nothing } from '../users/users.routes.js' (a comment imports nothing)\nexport const accounts = () => import('../users/users.repository.js');\n",
};

describe('the import cycle check', () => {
  it('fails on a loop between two modules, naming it and the import that makes each step', () => {
    const root = sourceTree('loop', LOOP);
    const { status, err } = checkImports(root);
    expect(status).toBe(1);
    const at = (path: string, line: number) => `${relative(PROJECT_ROOT, join(root, path))}:${line}`;
    expect(err).toContain('import cycle: departments → users → departments');
    expect(err).toContain(`departments → users: ${at('modules/departments/departments.service.ts', 2)}`);
    expect(err).toContain(`users → departments: ${at('modules/users/users.service.ts', 4)}`);
    expect(err.match(/^import cycle:/gm)).toHaveLength(1);
  });

  it('passes when only test code, or files outside the modules, close the loop', () => {
    const root = sourceTree('one-way', {
      ...LOOP,
      'modules/departments/departments.service.ts': "import { fail } from '../../http/errors.js';\nexport const accounts = fail;\n",
      'modules/departments/departments.test.ts': "import { createUser } from '../users/users.service.js';\nexport const t = createUser;\n",
      'modules/departments/departments.test-helpers.ts': "import '../users/users.routes.js';\n",
      'modules/departments/department-test-data.ts': "export * from '../users/users.repository.js';\n",
      'modules/departments/departments.fixture.ts': "import '../users/users.routes.js';\n",
      'http/guards.ts': "import { registerUsers } from '../modules/users/users.routes.js';\nexport const guard = registerUsers;\n",
    });
    const { status, out } = checkImports(root);
    expect(status).toBe(0);
    expect(out).toMatch(/^no import cycles among the 2 modules of .+: 1 dependency between them, from 7 relative imports in 8 files$/m);
  });

  it('fails on an import it cannot place, rather than reading past it', () => {
    const root = sourceTree('unresolved', {
      ...LOOP,
      'modules/users/users.service.ts': "import { gone } from '../departments/gone.js';\nexport const createUser = gone;\n",
    });
    const { status, err } = checkImports(root);
    expect(status).toBe(1);
    expect(err).toContain(`unresolved import: ${relative(PROJECT_ROOT, join(root, 'modules/users/users.service.ts'))}:1 imports '../departments/gone.js'`);
  });

  it('finds no loop between the modules of src/', () => {
    const { status, out, err } = checkImports();
    expect(err).toBe('');
    expect(status).toBe(0);
    expect(out).toMatch(/^no import cycles among the \d+ modules of src: /m);
  });

  it('agrees with the table of docs/architecture.md: each module with what it imports, below all of it', () => {
    const { status, out } = checkImports(undefined, '--order');
    expect(status).toBe(0);
    const inCode = new Map(
      out
        .split('\n')
        .filter((line) => /^[a-z-]+: /.test(line))
        .map((line) => {
          const [name, imports] = line.split(': ');
          return [name, imports === '—' ? [] : imports.split(', ')];
        }),
    );
    const architecture = readFileSync(join(PROJECT_ROOT, 'docs/architecture.md'), 'utf8');
    const section = architecture.slice(architecture.indexOf('\n## Modules\n'), architecture.indexOf('\n## Build\n'));
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| ([^|]+) \|/gm)].map(([, name, imports]) => ({
      name,
      imports: imports.trim() === '—' ? [] : imports.trim().split(', '),
    }));
    expect(new Map(rows.map((row) => [row.name, row.imports]))).toEqual(inCode);
    const listed = rows.map((row) => row.name);
    for (const [at, row] of rows.entries()) {
      expect(
        row.imports.filter((name) => !listed.slice(0, at).includes(name)),
        `${row.name} imports a module listed below it`,
      ).toEqual([]);
    }
  });
});
