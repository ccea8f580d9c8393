import { Type } from '@sinclair/typebox';
import { aliased, fields, ok, pageQuery, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Id, Nullable, PageFields, Shape, Timestamp } from '../../http/openapi/shapes.js';

const text = (description?: string) => Nullable(Type.String(), description);

/** One operation-log entry (presentOperationLog). */
export const OperationLogEntry = Component('OperationLogEntry', 'One entry of the operation log.', {
  id: Id(),
  created_at: Timestamp(),
  operator: Shape({ id: Nullable(Id()), username: text(), display_name: text() }, { description: 'Who acted (for a login: the username tried).' }),
  operation_type: Type.String({ description: 'e.g. `login`, `create`, `update`, `delete`, `import`, `restore`, `checkpoint`.' }),
  target: Shape({ type: text('e.g. `user`, `permit`, `checkpoint`.'), id: text(), name: text() }, { description: 'What was acted on.' }),
  summary: Type.String({ description: 'What happened, in Chinese.' }),
  params: Type.Unknown({ description: 'The request parameters as JSON, passwords and file contents removed.' }),
  outcome: Type.String({ enum: ['success', 'failure'] }),
  error_message: text("The failure's message."),
  duration_ms: Nullable(Type.Number()),
  client_ip: text(),
  request_id: text(),
});

export const OperationLogList = Component('OperationLogList', 'One page of the operation log.', {
  logs: Type.Array(OperationLogEntry, { description: 'Newest first.' }),
  ...PageFields,
});

export const operationLogDocs = routeDocs('operation-log', {
  list: {
    summary: 'The operation log',
    description: 'Administrators (role `admin` or grade 90 and above) see every entry; other users only their own.',
    querystring: fields({
      ...pageQuery(50, 500),
      operator: Type.Optional(Type.String({ description: 'Username (any case) or display name.' })),
      ...aliased('operation_type', ['type'], Type.String({ description: 'Exact operation type.' })),
    }),
    responses: { 200: ok('The page.', OperationLogList) },
  },
});
