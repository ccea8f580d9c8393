import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import { assertInScope, inScope, type RegionScope } from '../auth/data-scope.js';
import { EVERYTHING, writeChange } from '../changes/change-transaction.js';
import {
  deleteRegionRow,
  findRegionById,
  findRegionByToken,
  findRegionClash,
  insertRegion,
  listRegionsWithUsage,
  updateRegionRow,
  type RegionRow,
} from './regions.repository.js';
import { presentRegion } from './regions.presenter.js';

export const REGION_NOT_FOUND = 'Region not found';
const NAME_MAX = 100;
const CODE_MAX = 50;

/** The regions a user may see, with what uses each. */
export function listRegionsFor(db: Executor, scope: RegionScope) {
  return listRegionsWithUsage(db, scope);
}

/** A region named by a read request; outside the user's scope it answers as if it did not exist. */
export async function requireVisibleRegion(db: Executor, token: string, scope: RegionScope): Promise<RegionRow> {
  const region = await findRegionByToken(db, token);
  if (!region || !inScope(scope, region.id)) throw notFound(REGION_NOT_FOUND);
  return region;
}

/**
 * A region named by a change: unknown 404; outside the user's scope 403 (regions themselves are
 * public through /v2/regions, so refusing openly leaks nothing, and tells the user why).
 */
export async function requireRegionForChange(db: Executor, token: string, scope: RegionScope): Promise<RegionRow> {
  const region = await findRegionByToken(db, token);
  if (!region) throw notFound(REGION_NOT_FOUND);
  assertInScope(scope, region.id);
  return region;
}

export interface RegionInput {
  name?: string | null;
  code?: string | null;
}

function checkName(name: string | null | undefined): string {
  if (!name) throw badRequest('区域名称不能为空');
  if (name.length > NAME_MAX) throw badRequest(`区域名称过长（最多 ${NAME_MAX} 个字符）`);
  return name;
}

function checkCode(code: string | null | undefined): string | null {
  if (!code) return null;
  if (code.length > CODE_MAX) throw badRequest(`区域编码过长（最多 ${CODE_MAX} 个字符）`);
  return code;
}

async function assertUnique(db: Executor, v: { name?: string; code?: string | null }, exceptId: number | null) {
  if (v.name !== undefined && (await findRegionClash(db, 'name', v.name, exceptId))) throw badRequest(`区域名称已存在：${v.name}`);
  if (v.code && (await findRegionClash(db, 'code', v.code, exceptId))) throw badRequest(`区域编码已存在：${v.code}`);
}

export async function createRegion(ctx: AppContext, input: RegionInput) {
  const name = checkName(input.name);
  const code = checkCode(input.code);
  const region = await writeChange(
    ctx,
    async (trx) => {
      await assertUnique(trx, { name, code }, null);
      return insertRegion(trx, { name, code, created_at: nowIso(ctx.now) });
    },
    () => EVERYTHING,
  );
  return presentRegion(region);
}

async function requireRegionById(db: Executor, id: number | null): Promise<RegionRow> {
  const region = id === null ? undefined : await findRegionById(db, id);
  if (!region) throw notFound('区域不存在');
  return region;
}

/** Renames a region or changes its code; `code` blank clears it. */
export async function updateRegion(ctx: AppContext, id: number | null, input: RegionInput) {
  if (input.name === undefined && input.code === undefined) throw badRequest('没有需要更新的字段');
  const patch: { name?: string; code?: string | null } = {};
  if (input.name !== undefined) patch.name = checkName(input.name);
  if (input.code !== undefined) patch.code = checkCode(input.code);
  const region = await writeChange(
    ctx,
    async (trx) => {
      const current = await requireRegionById(trx, id);
      await assertUnique(trx, patch, current.id);
      return updateRegionRow(trx, current.id, patch);
    },
    () => EVERYTHING,
  );
  return presentRegion(region);
}

/** Deletes a region nothing uses any more (its theme options go with it). */
export async function deleteRegion(ctx: AppContext, id: number | null) {
  const deleted = await writeChange(
    ctx,
    async (trx) => {
      const region = await requireRegionById(trx, id);
      const [usage] = await listRegionsWithUsage(trx, [region.id]);
      if (usage.permit_count > 0) throw badRequest(`区域“${region.name}”下仍有 ${usage.permit_count} 个许可事项，无法删除`);
      if (usage.department_count > 0) {
        throw badRequest(`区域“${region.name}”仍被 ${usage.department_count} 个服务部门使用，无法删除`);
      }
      await deleteRegionRow(trx, region.id);
      return region;
    },
    () => EVERYTHING,
  );
  return { deleted: true, region: presentRegion(deleted) };
}
