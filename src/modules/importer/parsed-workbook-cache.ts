import type { ParsedWorkbook } from './parser/types.js';

/** A kept workbook nobody asked for in this long is dropped. */
const IDLE_MS = 15 * 60 * 1000;

/**
 * The parsed workbook of the import session this process worked with last. An administrator
 * uploads, previews and commits one workbook within minutes, and decoding a session's stored
 * form (gunzip and JSON of tens of megabytes for a large workbook) would be a good part of each
 * later step. One workbook at most, so the memory kept is that of one import; a session's
 * workbook never changes once stored, so what is kept is never stale. Any other session, or
 * the same one on another instance, is decoded from the database.
 */
export class ParsedWorkbookCache {
  private kept: { sessionId: string; workbook: ParsedWorkbook } | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** The session's workbook: the one kept, else `decode()`'s, which is then kept. */
  get(sessionId: string, decode: () => ParsedWorkbook): ParsedWorkbook {
    const workbook = this.kept?.sessionId === sessionId ? this.kept.workbook : decode();
    this.keep(sessionId, workbook);
    return workbook;
  }

  keep(sessionId: string, workbook: ParsedWorkbook): void {
    this.kept = { sessionId, workbook };
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), IDLE_MS).unref();
  }

  clear(): void {
    this.kept = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
