import { Type } from '@sinclair/typebox';
import { aliased, fields, ok, routeDocs } from '../../http/openapi/route-doc.js';
import { Id, Nullable, PageFields, Shape, Timestamp } from '../../http/openapi/shapes.js';

const text = (description?: string) => Nullable(Type.String(), description);

/** One operation-log entry (presentOperationLog). */
export const OperationLogEntry = Shape(
  {
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
  },
  { $id: 'OperationLogEntry', description: 'One entry of the operation log.' },
);

export const OperationLogList = Shape(
  { logs: Type.Array(OperationLogEntry, { description: 'Newest first.' }), ...PageFields },
  { $id: 'OperationLogList', description: 'One page of the operation log.' },
);

export const operationLogDocs = routeDocs({
  list: {
    tags: ['operation-log'],
    summary: 'The operation log',
    description: 'Administrators (role `admin` or grade 90 and above) see every entry; other users only their own.',
    querystring: fields({
      limit: Type.Optional(Type.Integer({ default: 50, description: 'Default 50, clamped to 1..500.' })),
      offset: Type.Optional(Type.Integer({ default: 0, description: 'Default 0, at least 0.' })),
      operator: Type.Optional(Type.String({ description: 'Username (any case) or display name.' })),
      ...aliased('operation_type', ['type'], Type.String({ description: 'Exact operation type.' })),
    }),
    responses: { 200: ok('The page.', OperationLogList) },
  },
});
