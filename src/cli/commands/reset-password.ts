import type { CommandCall } from '../commands.js';
import { runPasswordCommand } from '../password-command.js';
import { resetPassword } from '../../modules/users/operator-accounts.js';
import { describeUserChanges } from '../../modules/users/users.service.js';

export function run(call: CommandCall): Promise<number> {
  return runPasswordCommand('reset-password', call, {
    type: 'update',
    summary: '重置密码',
    apply: (s, password, mustChange) => resetPassword(s.ctx, call.positionals[0], password, mustChange),
    done: (user, mustChange) => `修改用户 ${user.username}：${describeUserChanges({ password: '', must_change_password: mustChange })}`,
    report: (io, user) => {
      io.stdout.write(`password of "${user.username}" reset; its sessions were ended\n`);
      if (!user.is_active) io.stderr.write(`note: "${user.username}" is inactive: it cannot log in until it is activated\n`);
    },
  });
}
