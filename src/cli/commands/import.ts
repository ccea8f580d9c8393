import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { AppError } from '../../http/errors.js';
import { readCommitRequest, type CommitRequest } from '../../modules/importer/commit-input.js';
import { checkCommit, commitImport, describeCommit, type CommitCheck } from '../../modules/importer/commit.service.js';
import type { SessionDescription } from '../../modules/importer/preview.service.js';
import { uploadBinding } from '../../modules/importer/session-binding.js';
import { createImportSession, discardImportSession } from '../../modules/importer/upload.service.js';
import { listOption, stringOption, type OptionValues } from '../args.js';
import type { CommandCall } from '../commands.js';
import { CliError, EXIT, explainFailure, UsageError } from '../errors.js';
import { committedLine, countsTable, findingsTable, previewCounts, sessionFindings, workbookHeading } from '../import-report.js';
import { logged } from '../operator.js';
import { Progress } from '../progress.js';
import { withSession, type CliSession } from '../session.js';

/** `--theme-binding <sheet>=<theme>[,<theme>…]`, repeatable: the commit's theme_bindings. */
function themeBindings(values: OptionValues): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const raw of listOption(values, 'theme-binding')) {
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new UsageError(`--theme-binding must be <sheet>=<themes> (got "${raw}")`);
    const sheet = raw.slice(0, eq).trim();
    const themes = raw
      .slice(eq + 1)
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    out[sheet] = [...(out[sheet] ?? []), ...themes];
  }
  return out;
}

/** The commit body the import pages would send, minus the session. */
interface CommitBody {
  sheet_names: string[];
  theme_bindings: Record<string, string[]>;
  edited_by: string | undefined;
  change_summary: string | undefined;
}

function commitBody(values: OptionValues): CommitBody {
  return {
    sheet_names: listOption(values, 'sheet'),
    theme_bindings: themeBindings(values),
    edited_by: stringOption(values, 'edited-by'),
    change_summary: stringOption(values, 'change-summary'),
  };
}

/** One workbook on its way: uploaded (a session), checked (what the commit would apply), refused or skipped. */
interface Staged {
  file: string;
  name: string;
  session: SessionDescription | null;
  request: CommitRequest | null;
  check: CommitCheck | null;
  refusal: AppError | null;
  /** --sheet names none of its sheets. */
  skipped: boolean;
  committed: boolean;
}

/** A refusal the import pages would show (400 and the like); anything else stops the command. */
function asRefusal(err: unknown): AppError {
  if (err instanceof AppError && err.status < 500) return err;
  throw err;
}

type Binding = Awaited<ReturnType<typeof uploadBinding>>;

async function upload(s: CliSession, file: string, binding: Binding): Promise<Staged> {
  const name = basename(file);
  const staged: Staged = { file, name, session: null, request: null, check: null, refusal: null, skipped: false, committed: false };
  try {
    const content = await readFile(file);
    staged.session = await createImportSession(s.ctx, s.operator.user, { filename: name, content }, binding);
  } catch (err) {
    staged.refusal = asRefusal(err);
  }
  return staged;
}

/**
 * The options name sheets; with several workbooks each gets the ones it has. A name no workbook
 * has is a mistake (a typo would otherwise import every sheet, or nothing).
 */
function sheetOptionsFor(staged: Staged[], body: CommitBody): Map<Staged, CommitBody> {
  const all = new Set(staged.flatMap((st) => st.session?.sheets.map((sh) => sh.name) ?? []));
  const named = [...body.sheet_names, ...Object.keys(body.theme_bindings)];
  const unknown = [...new Set(named.filter((n) => !all.has(n)))];
  if (unknown.length > 0 && staged.some((st) => st.session)) {
    throw new CliError(`no workbook has a sheet named ${unknown.map((n) => `"${n}"`).join(', ')}`);
  }
  const out = new Map<Staged, CommitBody>();
  for (const st of staged) {
    const has = new Set(st.session?.sheets.map((sh) => sh.name) ?? []);
    out.set(st, {
      ...body,
      sheet_names: body.sheet_names.filter((n) => has.has(n)),
      theme_bindings: Object.fromEntries(Object.entries(body.theme_bindings).filter(([n]) => has.has(n))),
    });
    st.skipped = body.sheet_names.length > 0 && !body.sheet_names.some((n) => has.has(n));
  }
  return out;
}

async function check(s: CliSession, st: Staged, body: CommitBody): Promise<void> {
  if (!st.session || st.skipped) return;
  try {
    st.request = readCommitRequest({ ...body, session_id: st.session.session_id }, s.operator.user);
    st.check = await checkCommit(s.ctx, s.operator.user, st.request);
  } catch (err) {
    st.refusal = asRefusal(err);
  }
}

function report(st: Staged): string {
  if (!st.session) return `== ${st.name}: refused: ${st.refusal!.message}\n\n`;
  if (st.skipped) return `== ${st.name}: skipped (none of the --sheet names is one of its sheets)\n\n`;
  const counts = st.check ? countsTable(st.check.sheets, st.check.totals) : previewCounts(st.session);
  const verdict = st.refusal ? `refused: ${st.refusal.message}\n` : '';
  return `${workbookHeading(st.name, st.session)}${findingsTable(sessionFindings(st.session))}\n${counts}${verdict}\n`;
}

function checkFiles(io: CommandCall['io'], paths: string[]): string[] {
  return paths.map((p) => {
    const file = resolve(io.cwd, p);
    if (!existsSync(file)) throw new CliError(`file not found: ${p}`);
    if (!statSync(file).isFile()) throw new CliError(`not a file: ${p}`);
    return file;
  });
}

export async function run({ io, values, positionals }: CommandCall): Promise<number> {
  const body = commitBody(values);
  const files = checkFiles(io, positionals);
  const commit = values.commit === true;
  const department = stringOption(values, 'department');
  return withSession(io, {}, async (s) => {
    const binding = await uploadBinding(s.ctx.db, s.operator.user, department ? { binding_mode: 'department', department_id: department } : {});
    const progress = new Progress(io.stderr, files.length * (commit ? 2 : 1));
    const print = (text: string) => {
      progress.clear();
      io.stdout.write(text);
    };
    const staged: Staged[] = [];
    try {
      for (const file of files) {
        progress.step(`reading and checking ${basename(file)}`);
        staged.push(await upload(s, file, binding));
      }
      const bodies = sheetOptionsFor(staged, body);
      for (const st of staged) {
        await check(s, st, bodies.get(st)!);
        print(report(st));
      }
      const refused = staged.filter((st) => st.refusal);
      if (refused.length > 0) {
        // Like a refused commit of the import pages, a refused --commit is in the operation log.
        if (commit) for (const st of refused) await logRefusal(s, st, st.refusal!, bodies.get(st)!);
        throw new CliError(`${refused.length} of ${staged.length} workbooks would be refused (see above): nothing was imported`);
      }
      if (!commit) {
        print('preview only: nothing was written (add --commit to import)\n');
        return EXIT.ok;
      }
      for (const st of staged.filter((x) => !x.skipped)) {
        progress.step(`committing ${st.name}`);
        const result = await logged(s.ctx, s.operator, importSpec(st, bodies.get(st)!), async (note) => {
          const r = await commitImport(s.ctx, s.operator.user, st.request!);
          st.committed = true;
          note.targetId = r.file_id;
          note.targetName = r.filename;
          note.summary = describeCommit(r);
          return r;
        }).catch((err) => {
          throw commitFailure(err, st, staged, s);
        });
        print(committedLine(st.name, result));
      }
      return EXIT.ok;
    } finally {
      progress.clear();
      // Sessions that will not be committed are dropped: looking at a workbook leaves nothing behind.
      // (Housekeeping only: one that cannot be dropped now expires within a day.)
      for (const st of staged) {
        if (st.session && !st.committed) {
          await discardImportSession(s.ctx, st.session.session_id).catch((err) => s.ctx.log.warn({ err }, 'import session not dropped'));
        }
      }
    }
  });
}

/** A commit that failed midway: which workbook, why, and which ones before it stay imported. */
function commitFailure(err: unknown, st: Staged, staged: Staged[], s: CliSession): CliError {
  const { message, exitCode } = explainFailure(err, s.config.database);
  const done = staged.filter((x) => x.committed).map((x) => x.name);
  const kept = done.length > 0 ? `; already imported: ${done.join(', ')}` : '';
  return new CliError(`committing ${st.name} failed: ${message}${kept}`, exitCode);
}

function importSpec(st: Staged, body: CommitBody) {
  return { type: 'import', targetType: 'file', summary: '导入工作簿', params: { command: 'import', workbook: st.name, ...body } };
}

async function logRefusal(s: CliSession, st: Staged, refusal: AppError, body: CommitBody): Promise<void> {
  await logged(s.ctx, s.operator, importSpec(st, body), async (note) => {
    note.targetName = st.name;
    throw refusal;
  }).catch(() => {});
}
