import { sql, type RawBuilder } from 'kysely';

/** The current time as stored everywhere: ISO-8601 UTC text, which sorts correctly on both databases. */
export function nowIso(clock: () => number = Date.now): string {
  return new Date(clock()).toISOString();
}

/** Case-insensitive equality that works the same on SQLite and PostgreSQL. */
export function lowerEquals(column: string, value: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) = ${value.toLowerCase()}`;
}

/** Escapes LIKE wildcards so user text matches literally (with `escape '\\'`). */
export function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

export function likePrefix(value: string): string {
  return `${value.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

/** Count results come back as number on SQLite and (via the int8 parser) on PostgreSQL. */
export function toCount(v: unknown): number {
  return typeof v === 'number' ? v : Number(v ?? 0);
}

/** A name (table, column, index, type) quoted for SQL on either database. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
