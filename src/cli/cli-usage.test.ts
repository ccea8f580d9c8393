import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CHILD_PROCESSES, runBin, runInProcess } from '../../test/helpers/cli.js';
import { COMMANDS } from './commands.js';
import { Progress } from './progress.js';
import { displayWidth, renderTable } from './table.js';

/** A port nothing listens on: a database there is unreachable. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Every failure is one line on stderr, prefixed with the command. */
function expectOneLine(stderr: string, line: string) {
  expect(stderr).toBe(`${line}\n`);
}

describe('the lawrisk command line: help and arguments', () => {
  it(
    'lists every command with --help, through the real bin',
    async () => {
      const run = await runBin(['--help']);
      expect(run.code).toBe(0);
      for (const c of COMMANDS) expect(run.stdout).toContain(`  ${c.synopsis}`);
      expect(run.stdout).toContain('Exit status: 0 done, 1 failed, 2 bad arguments or settings, 3 database unavailable.');
      expect(run.stderr).toBe('');
    },
    CHILD_PROCESSES,
  );

  it('describes each command and its options with <command> --help and help <command>', async () => {
    for (const c of COMMANDS) {
      for (const args of [
        [c.name, '--help'],
        [c.name, '-h'],
        ['help', c.name],
      ]) {
        const run = await runInProcess(args);
        expect(run.code, args.join(' ')).toBe(0);
        expect(run.stdout.startsWith(`Usage: lawrisk ${c.name}`), args.join(' ')).toBe(true);
        for (const option of Object.keys(c.options)) expect(run.stdout, `${c.name} --${option}`).toContain(`--${option}`);
      }
    }
  });

  it('refuses bad arguments with exit status 2 and one line naming the mistake, before touching a database', async () => {
    // No DATABASE_URL at all: none of these gets as far as opening the default database.
    const cases: Array<[string[], string]> = [
      [['bogus'], 'lawrisk: unknown command "bogus" (see lawrisk --help)'],
      [['help', 'bogus'], 'lawrisk: unknown command "bogus" (see lawrisk --help)'],
      [['import'], 'lawrisk import: missing argument: import <workbook…> (see lawrisk import --help)'],
      [['import', 'a.xlsx', '--bogus'], 'lawrisk import: unknown option --bogus'],
      [['import', 'a.xlsx', '--commit=yes'], 'lawrisk import: option --commit takes no value'],
      [['import', 'a.xlsx', '--theme-binding', '开办餐饮店'], 'lawrisk import: --theme-binding must be <sheet>=<themes> (got "开办餐饮店")'],
      [['export'], 'lawrisk export: missing argument: export <region> (see lawrisk export --help)'],
      [['export', '广安区', '广安市'], 'lawrisk export: unexpected argument "广安市" (see lawrisk export --help)'],
      [['create-admin', 'ops', '--password'], 'lawrisk create-admin: option --password needs a value'],
      [['create-admin', 'ops', '--password', 'x', '--password-stdin'], 'lawrisk create-admin: give --password or --password-stdin, not both'],
      [['reset-password'], 'lawrisk reset-password: missing argument: reset-password <username> (see lawrisk reset-password --help)'],
      [['checkpoint'], 'lawrisk checkpoint: missing argument: checkpoint create|list|restore <id> (see lawrisk checkpoint --help)'],
      [['checkpoint', 'frob'], 'lawrisk checkpoint: unknown action "frob": create, list or restore (see lawrisk checkpoint --help)'],
      [['checkpoint', 'restore'], 'lawrisk checkpoint: missing argument: checkpoint restore <id>'],
      [['checkpoint', 'list', '7'], 'lawrisk checkpoint: unexpected argument "7"'],
      [['checkpoint', 'list', '--yes'], 'lawrisk checkpoint: --yes only applies to checkpoint restore'],
      [['checkpoint', 'restore', '1', '--yes', '--batch-size', '50'], 'lawrisk checkpoint: --batch-size must be an integer from 100 to 10000 (got "50")'],
      [['checkpoint', 'restore', '1'], 'lawrisk checkpoint: restoring replaces all data: add --yes to confirm'],
      [['migrate', 'now'], 'lawrisk migrate: unexpected argument "now" (see lawrisk migrate --help)'],
      [['serve', '--port'], 'lawrisk serve: option --port needs a value'],
    ];
    for (const [args, line] of cases) {
      const run = await runInProcess(args);
      expect(run.code, args.join(' ')).toBe(2);
      expectOneLine(run.stderr, line);
      expect(run.stdout).toBe('');
    }
    const none = await runInProcess([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: lawrisk <command>');
  });

  it('refuses a bad setting with status 2, naming the setting', async () => {
    const run = await runInProcess(['checkpoint', 'list'], { env: { DATABASE_URL: 'mysql://db/lawrisk' } });
    expect(run.code).toBe(2);
    expectOneLine(run.stderr, 'lawrisk checkpoint: invalid setting: DATABASE_URL must start with "sqlite:" or "postgres://" (got "mysql:…")');
  });

  it('fails with status 1 on a workbook that does not exist', async () => {
    const run = await runInProcess(['import', 'no-such-workbook.xlsx'], { env: { DATABASE_URL: 'sqlite:/nonexistent/x.db' } });
    expect(run.code).toBe(1);
    expectOneLine(run.stderr, 'lawrisk import: file not found: no-such-workbook.xlsx');
  });

  it(
    'fails with status 3 when the database cannot be reached or does not exist, never showing the password',
    async () => {
      const port = await closedPort();
      const run = await runBin(['checkpoint', 'list'], { env: { DATABASE_URL: `postgres://lawrisk:s3cret@127.0.0.1:${port}/lawrisk` } });
      expect(run.code).toBe(3);
      expectOneLine(
        run.stderr,
        `lawrisk checkpoint: database unavailable (postgres://lawrisk:***@127.0.0.1:${port}/lawrisk): connect ECONNREFUSED 127.0.0.1:${port}`,
      );
      const missing = await runInProcess(['reindex'], { env: { DATABASE_URL: 'sqlite:/nonexistent/dir/lawrisk.db' } });
      expect(missing.code).toBe(3);
      expectOneLine(missing.stderr, 'lawrisk reindex: no database file at /nonexistent/dir/lawrisk.db (set DATABASE_URL, or create it with "lawrisk migrate")');
    },
    CHILD_PROCESSES,
  );

  it('prints its version', async () => {
    const run = await runInProcess(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: expect.stringMatching(/^lawrisk \d+\.\d+\.\d+\n$/) });
  });
});

describe('tables', () => {
  it('align Chinese text by its width on a terminal', () => {
    expect(displayWidth('风险点 K')).toBe(8);
    expect(
      renderTable(
        ['sheet', 'n'],
        [
          ['市级许可事项', '159'],
          ['Sheet1', '7'],
        ],
        { right: [1] },
      ),
    ).toBe('sheet           n\n------------  ---\n市级许可事项  159\nSheet1          7\n');
  });
});

describe('progress', () => {
  const capture = (isTTY: boolean) => {
    const out = { text: '', isTTY, columns: 60, write: (t: string) => (out.text += t) };
    return out;
  };

  it('draws a bar in place on a terminal and clears it before other output', () => {
    const out = capture(true);
    const p = new Progress(out, 4);
    p.step('reading a.xlsx');
    p.step('reading b.xlsx');
    p.clear();
    expect(out.text).toBe(`\r\x1b[K[${'░'.repeat(24)}] 1/4 reading a.xlsx` + `\r\x1b[K[${'█'.repeat(6)}${'░'.repeat(18)}] 2/4 reading b.xlsx` + '\r\x1b[K');
  });

  it('writes one plain line per step elsewhere', () => {
    const out = capture(false);
    const p = new Progress(out, 2);
    p.step('reading a.xlsx');
    p.clear();
    p.step('committing a.xlsx');
    expect(out.text).toBe('[1/2] reading a.xlsx\n[2/2] committing a.xlsx\n');
  });
});
