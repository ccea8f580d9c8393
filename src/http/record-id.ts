/** Largest id both databases store in an `integer` column (PostgreSQL's int4). */
const MAX_ID = 2_147_483_647;

/**
 * A record id from request text: decimal digits within the integer range, else null. Anything
 * else (names, `1e3`, `-1`, huge numbers, SQL fragments) is not an id, so it can never reach
 * an integer comparison that PostgreSQL would reject with an error.
 */
export function parseRecordId(token: string | undefined | null): number | null {
  if (typeof token !== 'string') return null;
  const t = token.trim();
  if (!/^\d{1,10}$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= MAX_ID ? n : null;
}
