/** Keys whose values never reach the operation log (credentials and file contents). */
const SECRET_KEY = /pass(word)?|pwd|secret|token|cookie|session_?id|content|file|buffer/i;
const MAX_TEXT = 500;
const MAX_DEPTH = 4;

/** True for a parameter name whose value must never be stored or logged (the access log uses it too). */
export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** A copy of request parameters safe to store: secrets replaced, long text cut, depth bounded. */
export function sanitizeParams(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value !== 'object') return value;
  if (Buffer.isBuffer(value)) return '[binary]';
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => sanitizeParams(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, 50)) {
    out[k] = isSecretKey(k) ? '[已隐藏]' : sanitizeParams(v, depth + 1);
  }
  return out;
}
