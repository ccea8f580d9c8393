import { Type } from '@sinclair/typebox';
import { failure, json, routeDocs } from '../../http/openapi/route-doc.js';

/** A JSON-RPC 2.0 message of the Model Context Protocol: its own envelope, not the service's. */
const JsonRpc = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
    method: Type.Optional(Type.String()),
    params: Type.Optional(Type.Unknown()),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) })),
  },
  { description: 'A JSON-RPC 2.0 message (https://modelcontextprotocol.io/specification).' },
);

const description =
  "Model Context Protocol, streamable HTTP transport, stateless (docs/assistants.md). Tools: search_permits(query, region?), get_permit(region, permit), list_regions(), list_themes(), permits_of_theme(theme, region?). A caller's mistake in a tool's arguments is a tool result with `isError: true` and a Chinese text.";

export const mcpDocs = routeDocs('search', {
  post: {
    summary: "The assistants' tools (MCP)",
    description: `${description} Send \`Accept: application/json, text/event-stream\`.`,
    body: JsonRpc,
    bodyRequired: true,
    responses: {
      200: json('The JSON-RPC answer (initialize, tools/list, tools/call …).', JsonRpc),
      202: json('A notification was taken (no answer).', Type.Null()),
      400: failure('请求不是 MCP（JSON-RPC 2.0）消息'),
      406: failure('MCP 请求须声明 Accept: application/json, text/event-stream'),
      415: failure('MCP 请求的内容须为 JSON（Content-Type: application/json）'),
    },
  },
  get: { summary: 'No server-sent stream: the endpoint is stateless', responses: { 405: failure('此端点为无状态 MCP 服务，只接受 POST') } },
  delete: { summary: 'No session to end: the endpoint is stateless', responses: { 405: failure('此端点为无状态 MCP 服务，只接受 POST') } },
});
