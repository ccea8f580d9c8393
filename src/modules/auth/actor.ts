import type { FastifyRequest } from 'fastify';
import type { CurrentUser } from './current-user.js';

/** Who is acting, and through which session (kept when the actor changes its own password). */
export interface Actor {
  user: CurrentUser;
  sessionToken: string | null;
}

/** The acting user (the route's guard has already made sure there is one). */
export const actorOf = (req: FastifyRequest): Actor => ({ user: req.user!, sessionToken: req.sessionToken });
