import { generatePassword } from '../modules/auth/password.js';
import { stringOption, type OptionValues } from './args.js';
import { CliError, UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { askHidden, interactive, readFirstLine } from './prompt.js';

export interface ChosenPassword {
  password: string;
  generated: boolean;
}

/** The password options make sense together (checked before the database is opened). */
export function checkPasswordOptions(values: OptionValues): void {
  const given = stringOption(values, 'password');
  if (given !== undefined && values['password-stdin']) throw new UsageError('give --password or --password-stdin, not both');
  if (given === '') throw new UsageError('--password is empty');
}

/** --password, --password-stdin, a question on a terminal (empty: generate), else a generated one. */
export async function choosePassword(io: CliIo, values: OptionValues): Promise<ChosenPassword> {
  checkPasswordOptions(values);
  const given = stringOption(values, 'password');
  if (given !== undefined) return { password: given, generated: false };
  if (values['password-stdin']) {
    const piped = await readFirstLine(io.stdin);
    if (piped === '') throw new UsageError('no password on standard input');
    return { password: piped, generated: false };
  }
  if (interactive(io)) {
    const typed = await askHidden(io, 'New password (empty: generate one): ');
    if (typed !== '') {
      if ((await askHidden(io, 'Repeat the password: ')) !== typed) throw new CliError('the two passwords differ; nothing was changed');
      return { password: typed, generated: false };
    }
  }
  return { password: generatePassword(), generated: true };
}

/** The one time a generated password is shown. */
export function printGenerated(io: CliIo, username: string, chosen: ChosenPassword): void {
  if (!chosen.generated) return;
  io.stdout.write(`password for "${username}": ${chosen.password}\n`);
  io.stderr.write('(shown this once and stored only hashed; it must be changed at the first login)\n');
}
