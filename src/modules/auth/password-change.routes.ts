import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { asInput } from '../../http/readers.js';
import { actorOf } from './actor.js';
import { authDocs } from './auth.openapi.js';
import { OwnPasswordBody } from './auth.schema.js';
import { changeOwnPassword } from './own-password.js';
import { readPassword } from './password-input.js';

/** POST {api_root}/auth/password: a logged-in user replaces its own password (also the way out of must-change). */
export function registerPasswordChangeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    `${ctx.config.apiRoot}/auth/password`,
    {
      schema: { body: OwnPasswordBody },
      config: { guard: 'login', operation: { type: 'update', summary: '修改本人密码', targetType: 'user' }, doc: authDocs.password },
    },
    async (req) => {
      const user = req.user!;
      req.operation.targetId = user.id;
      req.operation.targetName = user.username;
      const body = asInput(req.body);
      await changeOwnPassword(ctx, actorOf(req), req.ip ?? null, readPassword(body, 'old_password'), readPassword(body, 'new_password'));
      req.operation.summary = `用户 ${user.username} 修改了本人密码`;
      return { success: true, message: '密码已修改' };
    },
  );
}
