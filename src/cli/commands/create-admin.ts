import { stringOption } from '../args.js';
import type { CommandCall } from '../commands.js';
import { EXIT } from '../errors.js';
import { logged } from '../operator.js';
import { checkPasswordOptions, choosePassword, printGenerated } from '../password-input.js';
import { withSession } from '../session.js';
import { createAdministrator } from '../../modules/users/operator-accounts.js';

export async function run({ io, values, positionals }: CommandCall): Promise<number> {
  checkPasswordOptions(values);
  return withSession(io, {}, async (s) => {
    const chosen = await choosePassword(io, values);
    const displayName = stringOption(values, 'display-name')?.trim() || null;
    const mustChange = chosen.generated || values['must-change-password'] === true;
    const user = await logged(
      s.ctx,
      s.operator,
      {
        type: 'create',
        targetType: 'user',
        summary: '创建超级管理员',
        params: { command: 'create-admin', username: positionals[0], display_name: displayName, must_change_password: mustChange },
      },
      async (note) => {
        note.targetName = positionals[0].trim().toLowerCase();
        const created = await createAdministrator(s.ctx, { username: positionals[0], password: chosen.password, displayName, mustChangePassword: mustChange });
        note.targetId = created.id;
        note.summary = `创建超级管理员 ${created.username}`;
        return created;
      },
    );
    io.stdout.write(`created administrator "${user.username}" (id ${user.id})\n`);
    printGenerated(io, user.username, chosen);
    return EXIT.ok;
  });
}
