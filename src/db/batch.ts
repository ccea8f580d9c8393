/** Splits a list for multi-row statements, keeping each statement under both databases' parameter limits. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows per multi-row INSERT: ~8 columns × 400 rows stays far below SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
export const INSERT_CHUNK = 400;
/** Ids per `IN (…)` list. */
export const ID_CHUNK = 900;
