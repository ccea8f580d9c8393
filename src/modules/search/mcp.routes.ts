import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError, badRequest } from '../../http/errors.js';
import type { QueryLog } from '../query-log/query-log.js';
import { getPermit, listRegions, listThemes, permitsOfTheme, searchPermits, ToolInputError, type ToolAnswer } from './assistant-tools.js';
import { mcpDocs } from './mcp.openapi.js';
import type { SearchIndexHolder } from './search-index.service.js';
import { MAX_QUERY_LENGTH } from './query-limit.js';

const VERSION = '1.0.0';

/** A tool's answer: the text a model quotes, the data a program reads; a caller's mistake as a tool error in Chinese. */
async function answer(work: () => ToolAnswer | Promise<ToolAnswer>) {
  try {
    const { text, data } = await work();
    return { content: [{ type: 'text' as const, text }], structuredContent: data };
  } catch (err) {
    if (err instanceof ToolInputError) return { content: [{ type: 'text' as const, text: err.message }], isError: true };
    throw err;
  }
}

const region = z.string().max(100).optional().describe('区域的名称或编码（如“广安区”或“511602”），不填则查询所有区域。');
/** The tools' inputs, built once: each request makes its server, not its schemas. */
const SEARCH_INPUT = { query: z.string().min(1).max(MAX_QUERY_LENGTH).describe('要查询的问题或关键词，用中文日常说法即可。'), region };
const PERMIT_INPUT = {
  region: z.string().min(1).max(100).describe('区域的名称或编码。'),
  permit: z.string().min(1).max(200).describe('许可事项的编号、编码或完整名称。'),
};
const THEME_INPUT = { theme: z.string().min(1).max(100).describe('主题的名称或编号。'), region };

/** The tools, described for a model to choose among them well (docs/assistants.md). */
function toolServer(ctx: AppContext, holder: SearchIndexHolder, queryLog: QueryLog, address: string): McpServer {
  const server = new McpServer({ name: 'lawrisk', version: VERSION });
  server.registerTool(
    'search_permits',
    {
      title: '查询许可事项及其法律风险',
      description:
        '用群众的日常说法查询办事需要的行政许可事项（如“开奶茶店要办什么证”“建筑施工许可 风险”）。返回按相关程度排序的许可事项，每项含所属区域、审批部门、联系电话和各项法律风险（法律依据、后果、防范措施）；问题与任何许可都不相符时明确返回没有找到，不会以无关事项充数。',
      inputSchema: SEARCH_INPUT,
    },
    async ({ query, region: r }) =>
      answer(() => {
        const started = performance.now();
        const result = searchPermits(holder, query, r);
        queryLog.record({
          query: query.trim(),
          regionIds: result.regionIds,
          resultCount: result.permitIds.length,
          topPermitIds: result.permitIds,
          latencyUs: Math.round((performance.now() - started) * 1000),
          channel: 'assistant',
          address,
        });
        return result;
      }),
  );
  server.registerTool(
    'get_permit',
    {
      title: '查看一个许可事项的全部风险和联系方式',
      description: '按区域和许可事项（编号、编码或完整名称，可取自 search_permits 的结果）返回该事项的审批部门、联系方式和全部法律风险。',
      inputSchema: PERMIT_INPUT,
    },
    async ({ region: r, permit }) => answer(() => getPermit(holder, r, permit)),
  );
  server.registerTool('list_regions', { title: '列出所有区域', description: '列出可查询的全部区域（名称和编码），用于确定 region 参数。' }, async () =>
    answer(() => listRegions(holder)),
  );
  server.registerTool('list_themes', { title: '列出所有主题', description: '列出“办一件事”主题（如开办餐饮店），及每个主题涉及的许可事项数。' }, async () =>
    answer(() => listThemes(ctx.readDb)),
  );
  server.registerTool(
    'permits_of_theme',
    {
      title: '查看一个主题涉及的许可事项',
      description: '按主题（名称或编号，可取自 list_themes）返回办这件事需要的许可事项及其风险，可限定区域。',
      inputSchema: THEME_INPUT,
    },
    async ({ theme, region: r }) => answer(() => permitsOfTheme(holder, ctx.readDb, theme, r)),
  );
  return server;
}

/**
 * What is not a request of the protocol at all is refused in the service's own envelope, before
 * the protocol layer (which answers its own errors in JSON-RPC): a client that is no MCP client
 * learns what the endpoint wants.
 */
function notAProtocolRequest(req: FastifyRequest): void {
  const accept = String(req.headers.accept ?? '');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new AppError(406, 'MCP 请求须声明 Accept: application/json, text/event-stream');
  }
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
    throw new AppError(415, 'MCP 请求的内容须为 JSON（Content-Type: application/json）');
  const messages = [req.body].flat() as { jsonrpc?: unknown }[];
  if (messages.length === 0 || messages.some((m) => !m || typeof m !== 'object' || m.jsonrpc !== '2.0')) throw badRequest('请求不是 MCP（JSON-RPC 2.0）消息');
}

/**
 * The assistants' tool endpoint (docs/assistants.md): Model Context Protocol over streamable
 * HTTP, stateless — each POST is answered by a server made for it — public like `/v2` and under
 * the same rate limit. GET (a server-sent stream) and DELETE (a session) have nothing to serve.
 */
export function registerMcpRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  holder: SearchIndexHolder,
  queryLog: QueryLog,
  limiter: onRequestAsyncHookHandler | null,
): void {
  const url = `${ctx.config.apiRoot}/mcp`;
  const config = { guard: 'public' as const, ignoresSession: true, rateLimited: limiter !== null };
  app.post(url, { config: { ...config, doc: mcpDocs.post }, ...(limiter ? { onRequest: limiter } : {}) }, async (req: FastifyRequest, reply: FastifyReply) => {
    notAProtocolRequest(req);
    const server = toolServer(ctx, holder, queryLog, req.ip);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the answer itself: the headers Fastify would add go on first.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  const notHere = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({ success: false, message: '此端点为无状态 MCP 服务，只接受 POST' });
  app.get(url, { config: { ...config, doc: mcpDocs.get } }, notHere);
  app.delete(url, { config: { ...config, doc: mcpDocs.delete } }, notHere);
}
