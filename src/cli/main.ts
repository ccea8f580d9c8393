import { readFileSync } from 'node:fs';
import { loadConfig, type DatabaseTarget } from '../config.js';
import { parseCommandLine } from './args.js';
import { findCommand, mainHelp, type CommandResult } from './commands.js';
import { CliError, EXIT, explainFailure, UsageError } from './errors.js';
import { processIo, type CliIo } from './io.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function databaseTarget(io: CliIo): DatabaseTarget | null {
  try {
    return loadConfig(io.env).database;
  } catch {
    return null;
  }
}

/**
 * Runs one command line (`argv` without node and the script) and answers its exit status; every
 * failure is reported as one line on stderr, `lawrisk[ <command>]: <message>`.
 */
export async function runCli(argv: string[], io: CliIo): Promise<CommandResult> {
  const [name, ...rest] = argv;
  let prefix = 'lawrisk';
  try {
    if (name === undefined) {
      io.stderr.write(mainHelp());
      return EXIT.usage;
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      const topic = name === 'help' && rest[0] ? findCommand(rest[0]) : undefined;
      if (name === 'help' && rest[0] && !topic) throw new UsageError(`unknown command "${rest[0]}" (see lawrisk --help)`);
      io.stdout.write(topic ? `${topic.help}\n` : mainHelp());
      return EXIT.ok;
    }
    if (name === '--version' || name === '-v') {
      io.stdout.write(`lawrisk ${version()}\n`);
      return EXIT.ok;
    }
    const command = findCommand(name);
    if (!command) throw new UsageError(`unknown command "${name}" (see lawrisk --help)`);
    prefix = `lawrisk ${command.name}`;
    const args = parseCommandLine(rest, command.options);
    if (args.values.help) {
      io.stdout.write(`${command.help}\n`);
      return EXIT.ok;
    }
    const { min, max } = command.positionals;
    if (args.positionals.length < min) throw new UsageError(`missing argument: ${command.synopsis} (see ${prefix} --help)`);
    if (args.positionals.length > max) throw new UsageError(`unexpected argument "${args.positionals[max]}" (see ${prefix} --help)`);
    const mod = await command.load();
    return await mod.run({ ...args, io });
  } catch (err) {
    const { message, exitCode } = explainFailure(err, databaseTarget(io));
    io.stderr.write(`${prefix}: ${message}\n`);
    // An unexpected failure's stack, for whoever asks for details.
    if (!(err instanceof CliError) && err instanceof Error && ['debug', 'trace'].includes(io.env.LOG_LEVEL ?? '')) {
      io.stderr.write(`${err.stack}\n`);
    }
    return exitCode;
  }
}

/** The `lawrisk` bin: runs the command line of this process and exits with its status. */
export async function main(): Promise<void> {
  const io = processIo();
  const result = await runCli(process.argv.slice(2), io);
  if (result === 'serving') return;
  // Let what was written reach a pipe before exiting; exiting at once drops any stray handle.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
  process.exit(result);
}
