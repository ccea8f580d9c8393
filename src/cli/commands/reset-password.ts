import type { CommandCall } from '../commands.js';
import { EXIT } from '../errors.js';
import { logged } from '../operator.js';
import { checkPasswordOptions, choosePassword, printGenerated } from '../password-input.js';
import { withSession } from '../session.js';
import { resetPassword } from '../../modules/users/operator-accounts.js';
import { describeUserChanges } from '../../modules/users/users.service.js';

export async function run({ io, values, positionals }: CommandCall): Promise<number> {
  checkPasswordOptions(values);
  return withSession(io, {}, async (s) => {
    const chosen = await choosePassword(io, values);
    const mustChange = chosen.generated || values['must-change-password'] === true;
    const user = await logged(
      s.ctx,
      s.operator,
      {
        type: 'update',
        targetType: 'user',
        summary: '重置密码',
        params: { command: 'reset-password', username: positionals[0], must_change_password: mustChange },
      },
      async (note) => {
        note.targetName = positionals[0].trim().toLowerCase();
        const updated = await resetPassword(s.ctx, positionals[0], chosen.password, mustChange);
        note.targetId = updated.id;
        note.summary = `修改用户 ${updated.username}：${describeUserChanges({ password: '', must_change_password: mustChange })}`;
        return updated;
      },
    );
    io.stdout.write(`password of "${user.username}" reset; its sessions were ended\n`);
    if (!user.is_active) io.stderr.write(`note: "${user.username}" is inactive: it cannot log in until it is activated\n`);
    printGenerated(io, user.username, chosen);
    return EXIT.ok;
  });
}
