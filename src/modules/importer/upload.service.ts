import { createHash, randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest } from '../../http/errors.js';
import { operatorName, type CurrentUser } from '../auth/current-user.js';
import { storedFileType } from '../../http/attachment.js';
import { SESSION_TTL_MS } from './import-session.js';
import { deleteExpiredSessions, deleteImportSession, insertImportSession } from './import-sessions.repository.js';
import { encodeParsed } from './parsed-codec.js';
import { WorkbookRejected } from './parser/errors.js';
import { DEFAULT_PARSE_LIMITS } from './parser/parse-limits.js';
import type { ParseLimits, ParsedWorkbook } from './parser/types.js';
import { describeSession, type SessionDescription } from './preview.service.js';
import type { Binding } from './session-binding.js';

/** A workbook to import: its name and bytes. What the uploader said its type was does not come in. */
export interface WorkbookUpload {
  filename: string;
  content: Buffer;
}

/** A stored file name: the last path segment, no control characters, at most 200 characters. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(-200);
  return clean === '' ? 'workbook.xlsx' : clean;
}

/** What one uploaded workbook may hold: the settings, and the parser's own limits for the rest. */
export function uploadParseLimits(config: Config): ParseLimits {
  return {
    ...DEFAULT_PARSE_LIMITS,
    maxCells: config.importMaxCells,
    maxSharedStrings: config.importMaxSharedStrings,
    maxUncompressedBytes: config.importMaxUncompressedBytes,
  };
}

/**
 * Parses an uploaded workbook (upload, re-import, template, demo data, the command line): in a
 * parse slot of this instance (429 when none frees up in time) and in a worker thread whose memory
 * is capped, turning a refused file, one that fills that memory included, into the 400 the clerk
 * sees (never a 500).
 */
export async function parseUploadedWorkbook(ctx: AppContext, content: Buffer): Promise<ParsedWorkbook> {
  try {
    return await ctx.parseSlots.run(() => ctx.metrics.time('import_parse', () => ctx.parseWorkers.parse(content, uploadParseLimits(ctx.config))));
  } catch (err) {
    if (err instanceof WorkbookRejected) throw badRequest(err.message);
    throw err;
  }
}

/**
 * Upload step (also re-import and demo data): parse, store the session with the workbook and its
 * parsed form (so any instance can preview and commit it), and answer with its preview.
 */
export async function createImportSession(ctx: AppContext, user: CurrentUser, upload: WorkbookUpload, binding: Binding): Promise<SessionDescription> {
  if (upload.content.length === 0) throw badRequest('上传的文件为空');
  const parsed = await parseUploadedWorkbook(ctx, upload.content);
  const now = ctx.now();
  await deleteExpiredSessions(
    ctx.db,
    nowIso(() => now),
  );
  const session = {
    id: randomUUID(),
    uploader_id: user.id,
    uploader_name: operatorName(user),
    filename: cleanFilename(upload.filename),
    content_type: storedFileType(upload.content),
    size: upload.content.length,
    sha256: createHash('sha256').update(upload.content).digest('hex'),
    content: upload.content,
    binding_mode: binding.mode,
    department_id: binding.departmentId,
    parsed: await encodeParsed(parsed),
    created_at: nowIso(() => now),
    expires_at: nowIso(() => now + SESSION_TTL_MS),
    committed_at: null,
  };
  await insertImportSession(ctx.db, session);
  ctx.parsedWorkbooks.keep(session.id, parsed);
  const { content: _stored, ...head } = session;
  return describeSession(ctx.db, user, head, parsed);
}

/**
 * Drops a session nobody will commit (the command line's dry run and refused imports), so
 * looking at a workbook leaves nothing behind in the database.
 */
export async function discardImportSession(ctx: AppContext, sessionId: string): Promise<void> {
  await deleteImportSession(ctx.db, sessionId);
}
