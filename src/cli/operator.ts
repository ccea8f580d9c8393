import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { inspect } from 'node:util';
import type { AppContext } from '../context.js';
import { nowIso } from '../db/dialect.js';
import type { CurrentUser } from '../modules/auth/current-user.js';
import { insertOperationLog } from '../modules/operation-log/operation-log.repository.js';
import type { OperationNote } from '../modules/operation-log/operation-recorder.js';
import { sanitizeParams } from '../modules/operation-log/sanitize-params.js';
import { MAX_GRADE } from '../modules/accounts/grade.js';

/** The username every command-line change is recorded under (no account has it: operator_id is null). */
export const CLI_USERNAME = 'cli';

/**
 * Who acts from the command line: the people who run the service, with every right (grade 100,
 * all regions), recorded as `cli` with the operating-system user in the display name.
 */
export interface CliOperator {
  /** What the services need: uploader, data scope, default `edited_by` (`cli`). */
  user: CurrentUser;
  /** `命令行（<os user>）`: uploader and operator name in the log. */
  name: string;
  /** One id per invocation, stored as the request id of every log entry it writes. */
  runId: string;
}

function osUser(env: Record<string, string | undefined>): string {
  try {
    return userInfo().username;
  } catch {
    // A container user without a passwd entry.
    return env.USER || env.LOGNAME || 'unknown';
  }
}

export function cliOperator(env: Record<string, string | undefined>): CliOperator {
  const name = `命令行（${osUser(env)}）`;
  return {
    user: {
      id: 0,
      username: CLI_USERNAME,
      display_name: name,
      role: 'admin',
      grade: MAX_GRADE,
      department: null,
      region_id: null,
      must_change_password: false,
    },
    name,
    runId: `cli-${randomUUID()}`,
  };
}

export interface OperationSpec {
  type: string;
  targetType: string;
  /** Default summary; the work can set a precise one on the note. */
  summary: string;
  /** The command's arguments (secrets are removed before storing, as for a request). */
  params: Record<string, unknown>;
}

/**
 * Runs a data-changing piece of work and writes its operation-log entry, success or failure, the
 * way the HTTP hook does for a route (same table, same fields; client IP empty).
 */
export async function logged<T>(ctx: AppContext, op: CliOperator, spec: OperationSpec, work: (note: OperationNote) => Promise<T>): Promise<T> {
  const note: OperationNote = {};
  const started = performance.now();
  let failure: unknown = null;
  try {
    return await work(note);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    try {
      await insertOperationLog(ctx.db, {
        created_at: nowIso(ctx.now),
        operator_id: null,
        operator_username: CLI_USERNAME,
        operator_name: op.name,
        operation_type: spec.type,
        target_type: note.targetType ?? spec.targetType,
        target_id: note.targetId === undefined || note.targetId === null ? null : String(note.targetId),
        target_name: note.targetName ?? null,
        summary: note.summary ?? spec.summary,
        params: JSON.stringify(sanitizeParams(spec.params)),
        outcome: failure === null ? 'success' : 'failure',
        error_message: failure === null ? null : failure instanceof Error ? failure.message : inspect(failure),
        duration_ms: Math.round(performance.now() - started),
        client_ip: null,
        request_id: op.runId,
      });
    } catch (err) {
      ctx.log.error({ err }, 'operation log write failed');
    }
  }
}
