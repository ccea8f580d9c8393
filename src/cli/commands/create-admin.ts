import { stringOption } from '../args.js';
import type { CommandCall } from '../commands.js';
import { runPasswordCommand } from '../password-command.js';
import { createAdministrator } from '../../modules/users/operator-accounts.js';

export function run(call: CommandCall): Promise<number> {
  const displayName = stringOption(call.values, 'display-name')?.trim() || null;
  return runPasswordCommand('create-admin', call, {
    type: 'create',
    summary: '创建超级管理员',
    params: { display_name: displayName },
    apply: (s, password, mustChangePassword) => createAdministrator(s.ctx, { username: call.positionals[0], password, displayName, mustChangePassword }),
    done: (user) => `创建超级管理员 ${user.username}`,
    report: (io, user) => io.stdout.write(`created administrator "${user.username}" (id ${user.id})\n`),
  });
}
