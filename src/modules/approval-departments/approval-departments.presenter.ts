import type { Static } from '@sinclair/typebox';
import type { ApprovalDepartmentSetup } from './approval-departments.openapi.js';

type DepartmentLink = Static<typeof ApprovalDepartmentSetup>['linked'][number];

/** An approval department and the service department it was linked to. */
export function presentDepartmentLink(approval: { id: number; name: string }, service: { id: number; name: string }): DepartmentLink {
  return {
    approval_department: approval.name,
    approval_department_id: String(approval.id),
    service_department: service.name,
    service_department_id: String(service.id),
  };
}
