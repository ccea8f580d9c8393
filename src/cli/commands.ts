import type { OptionSpec, ParsedArgs } from './args.js';
import type { CliIo } from './io.js';

/** What a command's run function gets. */
export interface CommandCall extends ParsedArgs {
  io: CliIo;
}

/** A command's outcome: its exit status, or `serving` for a server that keeps the process alive. */
export type CommandResult = number | 'serving';

export interface CommandModule {
  run(call: CommandCall): Promise<CommandResult>;
}

/**
 * One command of the command line: its help and options here (so `--help` loads nothing else),
 * its work in `commands/<name>.ts`, loaded when it runs.
 */
export interface CommandSpec {
  name: string;
  /** The arguments as the top-level help lists them. */
  synopsis: string;
  summary: string;
  help: string;
  options: OptionSpec;
  positionals: { min: number; max: number };
  load(): Promise<CommandModule>;
}

const SETTINGS = `Settings come from the environment, as for the service: DATABASE_URL (default
sqlite:./data/lawrisk.db), DATA_DIR, LOG_LEVEL … (see README.md).`;

const PASSWORD_OPTIONS = `  --password <password>    the password (at least 8 characters; visible to other local users in
                           the process list: prefer --password-stdin in scripts)
  --password-stdin         read the password from the first line of standard input
  --must-change-password   make the user choose a new password at the next login
                           (always so for a generated password)
Without a password option the password is asked for on a terminal (twice; empty: generate one),
and generated otherwise. A generated password is printed once, on standard output.`;

const PASSWORD_OPTION_SPEC: OptionSpec = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' }, 'must-change-password': { type: 'boolean' } };

/** A command as the table writes it: no options and no arguments unless given; its help ends with the settings. */
type CommandEntry = Pick<CommandSpec, 'name' | 'synopsis' | 'summary' | 'load'> & { options?: OptionSpec; args?: [number, number]; usage: string };

function command({ options = {}, args: [min, max] = [0, 0], usage, ...entry }: CommandEntry): CommandSpec {
  return { ...entry, help: `${usage}\n\n${SETTINGS}`, options, positionals: { min, max } };
}

export const COMMANDS: CommandSpec[] = [
  command({
    name: 'serve',
    synopsis: 'serve',
    summary: 'run the service (the same as npm start)',
    options: { port: { type: 'string' }, host: { type: 'string' } },
    load: () => import('./commands/serve.js'),
    usage: `Usage: lawrisk serve [--port <port>] [--host <address>]

Runs the service in the foreground, exactly as "npm start": rebuilds the server (dist/) and the
web pages when their sources are newer, creates or upgrades the schema, serves until SIGTERM or
SIGINT.

  --port <port>      listen on this port (overrides PORT)
  --host <address>   bind this address (overrides HOST)`,
  }),
  command({
    name: 'migrate',
    synopsis: 'migrate',
    summary: 'create the database schema or bring it up to date',
    load: () => import('./commands/migrate.js'),
    usage: `Usage: lawrisk migrate

Applies the migrations this version has and the database lacks (creating a new SQLite file when
DATABASE_URL names one that does not exist), then says which ran. Safe to run while instances are
running and from several places at once: each migration runs once. The other commands refuse a
database whose schema is not up to date.`,
  }),
  command({
    name: 'create-admin',
    synopsis: 'create-admin <username>',
    summary: 'add a super administrator account',
    options: { 'display-name': { type: 'string' }, ...PASSWORD_OPTION_SPEC },
    args: [1, 1],
    load: () => import('./commands/create-admin.js'),
    usage: `Usage: lawrisk create-admin <username> [options]

Adds an account with role admin and grade 100 (every region, every administration page).
The username is trimmed and lower-cased; a taken username is refused.

  --display-name <name>    the name shown in the pages and the log
${PASSWORD_OPTIONS}`,
  }),
  command({
    name: 'reset-password',
    synopsis: 'reset-password <username>',
    summary: 'set a new password for an account (ends its sessions, lifts a lockout)',
    options: PASSWORD_OPTION_SPEC,
    args: [1, 1],
    load: () => import('./commands/reset-password.js'),
    usage: `Usage: lawrisk reset-password <username> [options]

Sets a new password for any account, ends all of its sessions and lifts a login lockout of
its username, so the new password works at once. An inactive account stays inactive.

${PASSWORD_OPTIONS}`,
  }),
  command({
    name: 'import',
    synopsis: 'import <workbook…>',
    summary: 'preview workbooks; with --commit, import them',
    options: {
      commit: { type: 'boolean' },
      sheet: { type: 'string', multiple: true },
      'theme-binding': { type: 'string', multiple: true },
      department: { type: 'string' },
      'edited-by': { type: 'string' },
      'change-summary': { type: 'string' },
    },
    args: [1, 100],
    load: () => import('./commands/import.js'),
    usage: `Usage: lawrisk import <workbook.xlsx>… [options]

Goes through the same upload → preview → commit steps as the import pages. Prints each
workbook's findings (sheet, row, column, severity, message) and its per-sheet counts. Without
--commit nothing is written. With --commit every workbook is checked first and, when none would
be refused, each is committed in the order given (one transaction per workbook). Any error in
the sheets to import fails the command and imports nothing.

  --commit                         apply the workbooks
  --sheet <name>                   import only this sheet (repeatable; default: every sheet
                                   with a header row and data rows)
  --theme-binding <sheet>=<themes> bind every permit of a sheet to themes (ids or names,
                                   separated by ","; empty for none); repeatable
  --department <id>                rows without a region go to this service department's region
  --edited-by <name>               recorded on the snapshots of replaced permits (default: cli)
  --change-summary <text>          recorded on the snapshots (default: 导入 <file name>)`,
  }),
  command({
    name: 'checkpoint',
    synopsis: 'checkpoint create|list|restore <id>',
    summary: 'whole-database checkpoints',
    options: { description: { type: 'string' }, 'no-auto-backup': { type: 'boolean' }, 'batch-size': { type: 'string' }, yes: { type: 'boolean', short: 'y' } },
    args: [1, 2],
    load: () => import('./commands/checkpoint.js'),
    usage: `Usage: lawrisk checkpoint create [--description <text>]
       lawrisk checkpoint list
       lawrisk checkpoint restore <id> [--no-auto-backup] [--batch-size <n>] [--yes]

create    saves a complete copy of the data (docs/checkpoints.md says what is covered)
list      lists the checkpoints, newest first
restore   replaces all covered data with the checkpoint's. Asks for confirmation on a terminal;
          elsewhere --yes is required. Every running instance rebuilds its search index.

  --description <text>   what the checkpoint is for (at most 500 characters)
  --no-auto-backup       do not save a checkpoint of the current data before restoring
  --batch-size <n>       rows written per statement while restoring, 100 to 10000 (default 1000)
  --yes                  restore without asking`,
  }),
  command({
    name: 'reindex',
    synopsis: 'reindex',
    summary: 'rebuild the search index of every running instance',
    load: () => import('./commands/reindex.js'),
    usage: `Usage: lawrisk reindex

Each instance of the service keeps its search index in memory and follows the change feed in
the database. This command first builds an index from the database here, as an instance does
(so a catalogue that cannot be indexed fails now, with its reason), then puts a catalogue-wide
change into the feed: every running instance rebuilds its index from the database within about
a second. Use it after changing data directly in the database.`,
  }),
  command({
    name: 'export',
    synopsis: 'export <region>',
    summary: "write a region's catalogue as an import workbook",
    options: { output: { type: 'string', short: 'o' }, force: { type: 'boolean' } },
    args: [1, 1],
    load: () => import('./commands/export.js'),
    usage: `Usage: lawrisk export <region> [--output <file.xlsx>] [--force]

Writes every permit of the region (by id, code or name; hidden permits included) with its
risks, themes, approval departments and visibility, in the layout of the import template, one
row per risk. Importing the file gives the same data back. Text that a spreadsheet could take
for a formula (starting with = + - @) is written with a leading apostrophe, which the import
removes again.

  --output <file>   where to write (default: <region name>.xlsx in the current directory)
  --force           replace the file when it exists`,
  }),
];

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.synopsis.length)) + 2;
  const lines = COMMANDS.map((c) => `  ${c.synopsis.padEnd(width)}${c.summary}`);
  return `Usage: lawrisk <command> [options]

The command line of the permit legal-risk service, for the people who run it.

Commands:
${lines.join('\n')}

"lawrisk <command> --help" describes a command and its options.
${SETTINGS}

Exit status: 0 done, 1 failed, 2 bad arguments or settings, 3 database unavailable.
`;
}
