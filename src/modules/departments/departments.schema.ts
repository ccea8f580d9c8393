import { Type } from '@sinclair/typebox';
import { badRequest } from '../../http/errors.js';
import { readInt, readNullableString, readStrictInt, readString, type Input } from '../../http/readers.js';
import { Scalar, Text } from '../../http/body-fields.js';
import { givenFields } from '../../http/partial-update.js';
import { checkGradeRange } from '../accounts/grade.js';

const departmentFields = {
  name: Text(100, 'Department name; required on creation; unique.'),
  phone: Text(50, 'Phone; blank on update clears it.'),
  parent_id: Scalar(20, 'Parent department id (forms the tree); blank on update makes it a root.'),
  region_id: Scalar(100, 'Region (id, code or name); on creation inherited from the parent when blank.'),
  description: Text(1000, 'Description; blank on update clears it.'),
  grade: Scalar(16, 'Integer 0–100. On creation default 0 and a non-numeric value becomes 0; on update a non-numeric value is refused.'),
};

export const CreateDepartmentBody = Type.Object(
  {
    ...departmentFields,
    code: Text(64, 'Code, upper-cased; blank: an 8-character upper-case hexadecimal token. As supplied it is also the username of the department account.'),
  },
  { additionalProperties: false },
);
export const UpdateDepartmentBody = Type.Object(departmentFields, { additionalProperties: false });

const GRADE_RANGE_MESSAGE = '权限等级必须在 0 到 100 之间';

export interface CreateDepartmentInput {
  name: string;
  /** As supplied (trimmed); upper-cased for the department, used as given for its account. */
  code?: string;
  phone: string | null;
  parent_id?: string;
  region_id?: string;
  description: string | null;
  grade: number;
}

export function readCreateDepartmentInput(body: Input): CreateDepartmentInput {
  const name = readString(body, 'name');
  if (!name) throw badRequest('服务部门名称不能为空');
  return {
    name,
    code: readString(body, 'code'),
    phone: readString(body, 'phone') ?? null,
    parent_id: readString(body, 'parent_id'),
    region_id: readString(body, 'region_id'),
    description: readString(body, 'description') ?? null,
    // An integer, default 0; a value that is not a number becomes 0.
    grade: checkGradeRange(readInt(body, 'grade', { def: 0 }), GRADE_RANGE_MESSAGE),
  };
}

/** PATCH fields: blank becomes null; absent stays undefined (unchanged). */
export interface UpdateDepartmentInput {
  name?: string | null;
  phone?: string | null;
  parent_id?: string | null;
  region_id?: string | null;
  description?: string | null;
  grade?: number;
}

export function readUpdateDepartmentInput(body: Input): UpdateDepartmentInput {
  const grade = readStrictInt(body, 'grade', '权限等级必须是数字');
  const input: UpdateDepartmentInput = {
    name: readNullableString(body, 'name'),
    phone: readNullableString(body, 'phone'),
    parent_id: readNullableString(body, 'parent_id'),
    region_id: readNullableString(body, 'region_id'),
    description: readNullableString(body, 'description'),
    grade: grade === undefined ? undefined : checkGradeRange(grade, GRADE_RANGE_MESSAGE),
  };
  return givenFields(input);
}
