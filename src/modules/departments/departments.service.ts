import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { mapDatabaseError } from '../../http/db-errors.js';
import { AppError, badRequest } from '../../http/errors.js';
import type { CurrentUser } from '../auth/current-user.js';
import { hashPassword } from '../auth/password.js';
import { assertMayGrant } from '../auth/privilege-ceiling.js';
import { addAccount } from '../accounts/accounts.js';
import { presentUser } from '../accounts/accounts.presenter.js';
import { findUserWithDepartment } from '../accounts/users.repository.js';
import { normalizeUsername } from '../accounts/username.js';
import { assertNewDepartmentFree, resolvePlacement } from './department-placement.js';
import { byName, depthsOf, gradeForDepth, nestDepartments } from './department-tree.js';
import { findDepartmentByCode, insertDepartment, listChildRows, listDepartmentRows, type DepartmentRow } from './departments.repository.js';
import { presentChildUnit, presentDepartment, presentDepartmentNode, presentListedDepartment, type DepartmentPayload } from './departments.presenter.js';
import type { CreateDepartmentInput } from './departments.schema.js';
import type { ChildUnit, CreatedDepartment as CreatedDepartmentSchema, DepartmentListItem, DepartmentTreeNode } from './departments.openapi.js';

/** The department account's initial password is its code followed by this fixed suffix (docs/accounts.md). */
export const DEFAULT_PASSWORD_SUFFIX = '123456';
/** Display name of a department account: the department name followed by this suffix. */
export const ACCOUNT_NAME_SUFFIX = '管理员';

export async function listDepartments(db: Executor): Promise<Static<typeof DepartmentListItem>[]> {
  const rows = await listDepartmentRows(db);
  const depth = depthsOf(rows);
  return rows.map((r) => presentListedDepartment(r, depth.get(r.id) ?? 1));
}

export async function departmentTree(db: Executor): Promise<Static<typeof DepartmentTreeNode>[]> {
  return nestDepartments(await listDepartmentRows(db)).map((n) => presentDepartmentNode(n, 1));
}

/** Direct children of a department, by name; an unknown parent simply has none. */
export async function listChildUnits(db: Executor, parentId: number | null): Promise<Static<typeof ChildUnit>[]> {
  const rows = parentId === null ? [] : await listChildRows(db, parentId);
  return rows.sort(byName).map(presentChildUnit);
}

/** A failure the caller can act on (a 400 of ours or a constraint error), or null for anything else. */
function clientFailure(err: unknown): AppError | null {
  const known = err instanceof AppError ? err : mapDatabaseError(err);
  return known && known.status === 400 ? known : null;
}

async function newDepartmentCode(db: Executor): Promise<string> {
  for (;;) {
    const code = randomBytes(4).toString('hex').toUpperCase();
    if (!(await findDepartmentByCode(db, code))) return code;
  }
}

export type CreatedDepartment = Static<typeof CreatedDepartmentSchema>;

/**
 * Creates a department, then its administrator account. The interface keeps the department when
 * the account is refused (部门创建成功,但账号创建失败), so they are two steps, not one transaction.
 */
export async function createDepartment(
  ctx: AppContext,
  actor: CurrentUser,
  input: CreateDepartmentInput,
  onDepartmentCreated: (d: DepartmentPayload) => void = () => {},
): Promise<CreatedDepartment> {
  assertMayGrant(actor, { grade: input.grade }); // its account takes the department's grade
  const now = nowIso(ctx.now);
  const token = input.code ?? (await newDepartmentCode(ctx.db));
  const code = token.toUpperCase();
  const row = await ctx.db.transaction().execute(async (trx) => {
    await assertNewDepartmentFree(trx, code, input.name);
    const placement = await resolvePlacement(trx, input.parent_id, input.region_id);
    return insertDepartment(trx, {
      name: input.name,
      code,
      phone: input.phone,
      parent_id: placement.parent?.id ?? null,
      region_id: placement.regionId,
      description: input.description,
      grade: input.grade,
      unit_level: null,
      created_at: now,
      updated_at: now,
    });
  });
  const department = presentDepartment(row);
  onDepartmentCreated(department);
  const defaultPassword = `${code}${DEFAULT_PASSWORD_SUFFIX}`;
  try {
    const user = await addAccount(
      ctx.db,
      {
        username: normalizeUsername(token),
        password_hash: await hashPassword(defaultPassword),
        display_name: `${input.name}${ACCOUNT_NAME_SUFFIX}`,
        role: 'department_admin',
        grade: input.grade,
        service_department_id: row.id,
        department_role: 'admin',
        must_change_password: true,
      },
      now,
    );
    const created = await findUserWithDepartment(ctx.db, user.id);
    return { department, user: presentUser(created!), default_password: defaultPassword };
  } catch (err) {
    const known = clientFailure(err);
    if (!known) throw err;
    throw badRequest(`部门创建成功,但账号创建失败：${known.message}`, { data: { department } });
  }
}

/**
 * The department a new user is bound to when none is named: the one whose code
 * is the upper-cased username, else a new one named after the user, graded by its depth.
 */
export async function departmentForNewUser(
  trx: Executor,
  v: { username: string; name: string; parent?: string; region?: string; phone: string | null },
  now: string,
): Promise<DepartmentRow> {
  const code = v.username.toUpperCase();
  const existing = await findDepartmentByCode(trx, code);
  if (existing) return existing;
  try {
    await assertNewDepartmentFree(trx, code, v.name);
    const placement = await resolvePlacement(trx, v.parent, v.region);
    return await insertDepartment(trx, {
      name: v.name,
      code,
      phone: v.phone,
      parent_id: placement.parent?.id ?? null,
      region_id: placement.regionId,
      description: null,
      grade: gradeForDepth(placement.depth),
      unit_level: null,
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    const known = clientFailure(err);
    if (!known) throw err;
    throw badRequest(`创建单位失败：${known.message}`);
  }
}
