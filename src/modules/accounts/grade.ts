import { badRequest } from '../../http/errors.js';

/** Permission grades of accounts and departments: 100 super administrator, 90 and above see all regions. */
export const MIN_GRADE = 0;
export const MAX_GRADE = 100;

export const GRADE_MESSAGE = `权限等级必须是 ${MIN_GRADE} 到 ${MAX_GRADE} 之间的整数`;

/** A grade within 0–100, else 400 with the given message. */
export function checkGradeRange(grade: number, message = GRADE_MESSAGE): number {
  if (grade < MIN_GRADE || grade > MAX_GRADE) throw badRequest(message);
  return grade;
}
