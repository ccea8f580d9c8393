import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { CurrentUser } from '../auth/current-user.js';
import { inScope, regionScope } from '../auth/data-scope.js';
import { reimportBinding } from '../importer/session-binding.js';
import type { SessionDescription } from '../importer/preview.service.js';
import { createImportSession } from '../importer/upload.service.js';
import { findPermitByToken, PERMIT_NOT_FOUND } from '../permits/permit-lookup.js';
import { parseRecordId } from '../../http/record-id.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import {
  deletePermitFile,
  fileContent,
  findFileOfPermit,
  findPermitFile,
  linkedRegionIds,
  listPermitFiles,
  type FileListQuery,
} from './permit-files.repository.js';
import type { PermitFileListing } from './files.openapi.js';
import { presentPermitFile } from './files.presenter.js';

const FILE_NOT_FOUND = '文件不存在';

export async function listFiles(db: Executor, user: CurrentUser, q: Omit<FileListQuery, 'scope'>): Promise<Static<typeof PermitFileListing>> {
  const { rows, total } = await listPermitFiles(db, { ...q, scope: regionScope(user) });
  return { files: rows.map(presentPermitFile), total, limit: q.limit, offset: q.offset };
}

/** A file the user may see (outside the scope it does not exist), or 404. */
async function visibleFile(db: Executor, user: CurrentUser, fileIdText: string | undefined) {
  if (!fileIdText) throw badRequest('file_id 不能为空');
  const id = parseRecordId(fileIdText);
  const file = id === null ? undefined : await findPermitFile(db, id, regionScope(user));
  if (!file) throw notFound(FILE_NOT_FOUND);
  return file;
}

/**
 * Below grade 90 a workbook's content is handed out (download, re-import) or deleted only when
 * the whole workbook belongs to the user's region: its recorded region (set when every table
 * sheet of one region was committed) and every permit still linked to it. A city-wide workbook is
 * listed to a district user whose permits came from it, but its other regions' rows stay out of reach.
 */
async function assertContentInScope(db: Executor, user: CurrentUser, file: { id: number; region_id: number | null }, action: string) {
  const scope = regionScope(user);
  if (scope === 'all') return;
  const linked = await linkedRegionIds(db, file.id);
  if (file.region_id === null || !inScope(scope, file.region_id) || linked.some((r) => !inScope(scope, r))) {
    throw forbidden(`该文件包含其他区域的数据，无权${action}`);
  }
}

/** A new import session from an archived workbook, bound as the import binds one (admin: auto, others: their department). */
export async function reimportFile(ctx: AppContext, user: CurrentUser, fileIdText: string | undefined): Promise<SessionDescription> {
  const binding = reimportBinding(user);
  const file = await visibleFile(ctx.db, user, fileIdText);
  await assertContentInScope(ctx.db, user, file, '重新导入');
  const content = await fileContent(ctx.db, file.id);
  return createImportSession(ctx, user, { filename: file.filename, content }, binding);
}

/**
 * Deletes an archived workbook. Below grade 90 under the rule of its content: a deletion takes the
 * original of every row in it away, so the whole workbook must be the user's. Checked in the
 * deleting transaction, so what is checked is what is deleted.
 */
export async function deleteFile(ctx: AppContext, user: CurrentUser, fileIdText: string | undefined) {
  return ctx.db.transaction().execute(async (trx) => {
    const file = await visibleFile(trx, user, fileIdText);
    await assertContentInScope(trx, user, file, '删除');
    if (!(await deletePermitFile(trx, file.id))) throw notFound(FILE_NOT_FOUND);
    return file;
  });
}

/** An archived workbook by its id (the archive's download), within the user's scope. */
export async function archivedFile(db: Executor, user: CurrentUser, fileIdText: string | undefined) {
  const file = await visibleFile(db, user, fileIdText);
  await assertContentInScope(db, user, file, '下载');
  return { filename: file.filename || 'permit-file.xlsx', content: await fileContent(db, file.id) };
}

/** The original workbook of a permit named by region and permit token (id, code or name). */
export async function permitOriginalFile(db: Executor, user: CurrentUser, regionToken: string | undefined, permitToken: string | undefined) {
  if (!regionToken || !permitToken) throw badRequest('region and permit are required');
  const region = await findRegionByToken(db, regionToken);
  if (!region || !inScope(regionScope(user), region.id)) throw notFound(PERMIT_NOT_FOUND);
  const permit = await findPermitByToken(db, region.id, permitToken);
  if (!permit) throw notFound(PERMIT_NOT_FOUND);
  const file = await findFileOfPermit(db, permit.id);
  if (!file) throw notFound('当前许可没有关联的原始文件');
  await assertContentInScope(db, user, file, '下载');
  return { filename: file.filename || 'permit-file.xlsx', content: Buffer.from(file.content) };
}
