import { badRequest } from '../../http/errors.js';
import { isBlank, readStrictInt, type Input } from '../../http/readers.js';
import { checkGradeRange, GRADE_MESSAGE } from '../accounts/grade.js';

/** The roles the service knows; anything else is refused, naming these. */
export const ROLES = ['admin', 'department_admin'] as const;
export const DEFAULT_ROLE = 'department_admin';
export const DEFAULT_USER_GRADE = 50;

export function checkRole(role: string): string {
  if (!(ROLES as readonly string[]).includes(role)) {
    throw badRequest(`角色无效，可选值为：${ROLES.join('、')}`);
  }
  return role;
}

/** A user grade: blank → undefined; an integer (or integer text, as forms send) 0–100, else 400. */
export function readGrade(input: Input): number | undefined {
  const grade = readStrictInt(input, 'grade', GRADE_MESSAGE);
  return grade === undefined ? undefined : checkGradeRange(grade);
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
