import { badRequest } from '../../http/errors.js';
import { isBlank, readStrictInt, type Input } from '../../http/readers.js';

/** The roles the service knows (interface 2.2); anything else is refused, naming these. */
export const ROLES = ['admin', 'department_admin'] as const;
export const DEFAULT_ROLE = 'department_admin';
export const DEFAULT_USER_GRADE = 50;
export const MIN_GRADE = 0;
export const MAX_GRADE = 100;
/** Login refuses longer passwords, so no longer password may be set either. */
export const MAX_PASSWORD_LENGTH = 256;

// Letters (any script, so 张三 is fine), digits and . _ - @ — no spaces or symbols that break URLs or logs.
const USERNAME = /^[\p{L}\p{N}._@-]{2,64}$/u;

/** Trimmed and lower-cased (interface 2.2), 2–64 letters, digits or . _ - @. */
export function normalizeUsername(raw: string): string {
  const username = raw.trim().toLowerCase();
  if (!USERNAME.test(username)) {
    throw badRequest('用户名须为 2 到 64 个字符，只能包含字母、数字、汉字及 . _ - @');
  }
  return username;
}

export function checkRole(role: string): string {
  if (!(ROLES as readonly string[]).includes(role)) {
    throw badRequest(`角色无效，可选值为：${ROLES.join('、')}`);
  }
  return role;
}

const GRADE_MESSAGE = `权限等级必须是 ${MIN_GRADE} 到 ${MAX_GRADE} 之间的整数`;

export function checkGradeRange(grade: number, message = GRADE_MESSAGE): number {
  if (grade < MIN_GRADE || grade > MAX_GRADE) throw badRequest(message);
  return grade;
}

/** A user grade: blank → undefined; an integer (or integer text, as forms send) 0–100, else 400. */
export function readGrade(input: Input): number | undefined {
  const grade = readStrictInt(input, 'grade', GRADE_MESSAGE);
  return grade === undefined ? undefined : checkGradeRange(grade);
}

/** A password as typed (never trimmed: login compares it untrimmed); blank → undefined. */
export function readPassword(input: Input, name: string): string | undefined {
  const v = input?.[name];
  if (isBlank(v)) return undefined;
  if (typeof v !== 'string') throw badRequest(`参数 ${name} 应为字符串`);
  if (v.length > MAX_PASSWORD_LENGTH) throw badRequest(`密码不能超过 ${MAX_PASSWORD_LENGTH} 个字符`);
  return v;
}

const FLAG_TRUE = new Set(['1', 'true', 'yes', 'on']);
const FLAG_FALSE = new Set(['0', 'false', 'no', 'off']);

/** A yes/no field that must say one or the other (JSON boolean, 0/1 or the usual words); blank → undefined. */
export function readStrictFlag(input: Input, name: string): boolean | undefined {
  const v = input?.[name];
  if (isBlank(v)) return undefined;
  if (typeof v === 'boolean') return v;
  const text = String(v).trim().toLowerCase();
  if (FLAG_TRUE.has(text)) return true;
  if (FLAG_FALSE.has(text)) return false;
  throw badRequest(`参数 ${name} 应为 true 或 false`);
}
