/**
 * The service's days: midnight to midnight at UTC_OFFSET (docs/query-log.md). The query log's
 * salts live for one, and the search analytics count by them. A day is handled as the
 * milliseconds of its date's UTC midnight, and shown as YYYY-MM-DD.
 */
export const DAY_MS = 86_400_000;

/** The service's day a time falls in. */
export function serviceDay(ms: number, offsetMinutes: number): number {
  return Math.floor((ms + offsetMinutes * 60_000) / DAY_MS) * DAY_MS;
}

/** A day as YYYY-MM-DD. */
export function dayText(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}
