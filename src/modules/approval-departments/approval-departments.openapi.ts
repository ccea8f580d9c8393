import { Type } from '@sinclair/typebox';
import { ok, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Id, Shape } from '../../http/openapi/shapes.js';

export const ApprovalDepartmentSetup = Component('ApprovalDepartmentSetup', 'The result of linking approval departments to service departments.', {
  linked: Type.Array(
    Shape({ approval_department: Type.String(), approval_department_id: Id(), service_department: Type.String(), service_department_id: Id() }),
    { description: 'Approval departments and the service department each is now linked to.' },
  ),
  unmatched: Type.Array(Type.String(), { description: 'Approval departments no service department name matches (their previous link is cleared).' }),
  total: Count('Approval departments considered.'),
});

export const approvalDepartmentDocs = routeDocs('approval-departments', {
  setup: {
    summary: 'Link approval departments to service departments',
    description:
      'Each approval department (the department names of permits) is linked to the service department whose name equals ' +
      'it or is its longest prefix; recomputed from scratch each time. No input.',
    responses: { 200: ok('The links.', ApprovalDepartmentSetup) },
  },
});
