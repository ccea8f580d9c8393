import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { insertOperationLog } from './operation-log.repository.js';
import { sanitizeParams } from './sanitize-params.js';

/** What a state-changing route declares: its operation type and a default summary. */
export interface OperationSpec {
  type: string;
  summary: string;
  targetType?: string;
}

/** What the handler learns while working (the target, a better summary), for the log entry. */
export interface OperationNote {
  targetId?: string | number | null;
  targetName?: string | null;
  targetType?: string | null;
  summary?: string;
  /** Operator for requests without a session (login: the username tried). */
  operatorUsername?: string;
  /** Marks a failure answered with a non-error status (a form login redirected back). */
  failed?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    operation?: OperationSpec;
  }
  interface FastifyRequest {
    operation: OperationNote;
  }
}

function clientIp(req: FastifyRequest): string {
  return req.ip;
}

function requestParams(req: FastifyRequest): unknown {
  const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? req.body : undefined;
  const merged = { ...(req.params as object), ...(req.query as object), ...(body as object) };
  return sanitizeParams(merged);
}

/**
 * Every route with `config.operation` gets one operation-log entry, success or failure, written
 * before the response leaves (so a client that sees the answer also sees the entry).
 */
export function registerOperationRecorder(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('operation', null as unknown as OperationNote);
  app.addHook('onRequest', async (req) => {
    req.operation = {};
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const spec = req.routeOptions.config?.operation;
    if (!spec) return payload;
    const note = req.operation ?? {};
    const ok = reply.statusCode < 400 && !note.failed;
    let errorMessage: string | null = null;
    if (!ok && typeof payload === 'string') {
      try {
        const { message } = JSON.parse(payload) as { message?: unknown };
        errorMessage = typeof message === 'string' && message ? message : null;
      } catch {
        errorMessage = null;
      }
    }
    const user = req.user;
    try {
      await insertOperationLog(ctx.db, {
        created_at: nowIso(ctx.now),
        operator_id: user?.id ?? null,
        operator_username: user?.username ?? note.operatorUsername ?? null,
        operator_name: user?.display_name ?? null,
        operation_type: spec.type,
        target_type: note.targetType ?? spec.targetType ?? null,
        target_id: note.targetId === undefined || note.targetId === null ? null : String(note.targetId),
        target_name: note.targetName ?? null,
        summary: note.summary ?? spec.summary,
        params: JSON.stringify(requestParams(req)),
        outcome: ok ? 'success' : 'failure',
        error_message: errorMessage,
        duration_ms: Math.round(reply.elapsedTime),
        client_ip: clientIp(req),
        request_id: req.id,
      });
    } catch (err) {
      req.log.error({ err }, 'operation log write failed');
    }
    return payload;
  });
}
