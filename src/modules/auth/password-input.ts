import { badRequest } from '../../http/errors.js';
import { isBlank, type Input } from '../../http/readers.js';

/** Login refuses longer passwords, so no longer password may be set either. */
export const MAX_PASSWORD_LENGTH = 256;

/** A password as typed (never trimmed: login compares it untrimmed); blank → undefined. */
export function readPassword(input: Input, name: string): string | undefined {
  const v = input?.[name];
  if (isBlank(v)) return undefined;
  if (typeof v !== 'string') throw badRequest(`参数 ${name} 应为字符串`);
  if (v.length > MAX_PASSWORD_LENGTH) throw badRequest(`密码不能超过 ${MAX_PASSWORD_LENGTH} 个字符`);
  return v;
}
