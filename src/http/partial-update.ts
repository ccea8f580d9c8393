import { badRequest } from './errors.js';

/** The fields of a partial update that were given; none at all is a 400 (没有需要更新的字段). */
export function givenFields<T extends object>(input: T): T {
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;
  if (Object.keys(given).length === 0) throw badRequest('没有需要更新的字段');
  return given;
}
