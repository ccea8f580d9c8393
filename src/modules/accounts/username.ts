import { badRequest } from '../../http/errors.js';

// Letters (any script, so 张三 is fine), digits and . _ - @ — no spaces or symbols that break URLs or logs.
const USERNAME = /^[\p{L}\p{N}._@-]{2,64}$/u;

/** Trimmed and lower-cased, 2–64 letters, digits or . _ - @. */
export function normalizeUsername(raw: string): string {
  const username = raw.trim().toLowerCase();
  if (!USERNAME.test(username)) {
    throw badRequest('用户名须为 2 到 64 个字符，只能包含字母、数字、汉字及 . _ - @');
  }
  return username;
}
