import type { CommandCall } from './commands.js';
import { EXIT } from './errors.js';
import type { CliIo } from './io.js';
import { logged } from './operator.js';
import { checkPasswordOptions, choosePassword, printGenerated } from './password-input.js';
import { withSession, type CliSession } from './session.js';

interface Account {
  id: number;
  username: string;
}

/** What a command that sets an account's password does, beyond choosing the password and logging it. */
export interface PasswordWork<T extends Account> {
  type: 'create' | 'update';
  /** The log entry's summary should the work fail. */
  summary: string;
  /** Logged arguments besides the command, the username and whether the password must be changed. */
  params?: Record<string, unknown>;
  apply(s: CliSession, password: string, mustChange: boolean): Promise<T>;
  /** The log entry's summary once done. */
  done(account: T, mustChange: boolean): string;
  report(io: CliIo, account: T): void;
}

/**
 * Chooses the password (options, terminal or generated), sets it as one logged operation on the
 * named user, reports, and prints a generated password once.
 */
export async function runPasswordCommand<T extends Account>(command: string, { io, values, positionals }: CommandCall, work: PasswordWork<T>): Promise<number> {
  checkPasswordOptions(values);
  const [username] = positionals;
  return withSession(io, {}, async (s) => {
    const chosen = await choosePassword(io, values);
    const mustChange = chosen.generated || values['must-change-password'] === true;
    const params = { command, username, ...work.params, must_change_password: mustChange };
    const account = await logged(s.ctx, s.operator, { type: work.type, targetType: 'user', summary: work.summary, params }, async (note) => {
      note.targetName = username.trim().toLowerCase();
      const changed = await work.apply(s, chosen.password, mustChange);
      note.targetId = changed.id;
      note.summary = work.done(changed, mustChange);
      return changed;
    });
    work.report(io, account);
    printGenerated(io, account.username, chosen);
    return EXIT.ok;
  });
}
