/** Largest id both databases store in an `integer` column (PostgreSQL's int4). */
const MAX_ID = 2_147_483_647;

/**
 * A record id from a request (path, query or body; text or a JSON number): decimal digits
 * within the integer range, else null. Anything else (names, `1e3`, `-1`, `1.5`, huge numbers,
 * SQL fragments) is not an id, so it can never reach an integer comparison that PostgreSQL
 * would reject with an error (a 500 where the route answers 404 or 400). Every route reads its
 * ids here and answers null as it answers an unknown id.
 */
export function parseRecordId(raw: unknown): number | null {
  const t = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,10}$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= MAX_ID ? n : null;
}

/** A record id as responses write it: decimal text, so it survives any JSON reader; no id stays null. */
export function recordIdText(id: number): string;
export function recordIdText(id: number | null): string | null;
export function recordIdText(id: number | null): string | null {
  return id === null ? null : String(id);
}
