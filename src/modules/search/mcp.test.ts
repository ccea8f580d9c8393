import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const SPORTS = '511603:511A33038003'; // 举办高危险性体育赛事活动许可（县级）

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, any>; isError?: boolean };

describe.each(testDialects())("the assistants' tools (MCP) on %s", (dialect) => {
  let t: TestApp;
  let seed: SeedResult;
  let base = '';
  let client: Client;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0' } });
    seed = await seedCatalog(t.dbh.db, { regions: ['511602', '511603'] });
    await t.app.searchIndex.rebuild();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    client = new Client({ name: 'lawrisk-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${API}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;

  it('lists its tools with Chinese descriptions and input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(['get_permit', 'list_regions', 'list_themes', 'permits_of_theme', 'search_permits']);
    const search = tools.find((x) => x.name === 'search_permits')!;
    expect(search.description).toMatch(/许可事项/);
    expect(search.inputSchema).toMatchObject({ type: 'object', required: ['query'], properties: { query: { type: 'string' }, region: { type: 'string' } } });
  });

  it('search_permits: the ranked permits with their risks as text and data, asked as the assistant channel', async () => {
    await t.app.queryLog.flush();
    await t.dbh.db.deleteFrom('query_log').execute();
    const r = await call('search_permits', { query: '举办马拉松比赛要什么许可', region: '511603' });
    expect(r.isError).toBeFalsy();
    const results = r.structuredContent!.results as {
      permit: { id: string; name: string };
      region: { name: string };
      risks: { legal_basis: string | null }[];
    }[];
    expect(r.structuredContent).toMatchObject({ status: 'ok', query: '举办马拉松比赛要什么许可' });
    // The answer /v2 gives to the same question.
    const v2 = await t.app.inject({ method: 'POST', url: `${API}/v2`, payload: { query: '举办马拉松比赛要什么许可', region: '511603' } });
    expect(results.map((x) => x.permit.id)).toEqual(v2.json().data.risk_subject.map((x: { permit: { id: string } }) => x.permit.id));
    expect(results.length).toBeGreaterThan(0);
    expect(r.content[0].text).toContain(`【${results[0].permit.name}】（${results[0].region.name}`);
    expect(r.content[0].text).toContain('法律依据：');
    await t.app.queryLog.flush();
    const logged = await t.dbh.db.selectFrom('query_log').selectAll().orderBy('id').execute();
    expect(logged.map((l) => [l.query, l.channel, l.result_count])).toEqual([
      ['举办马拉松比赛要什么许可', 'assistant', results.length],
      ['举办马拉松比赛要什么许可', 'api', results.length],
    ]);
  });

  it('search_permits says plainly when nothing matches, and a bad region is a tool error, never a failure of the call', async () => {
    const none = await call('search_permits', { query: '红烧肉的做法' });
    expect(none.structuredContent).toEqual({ status: 'no_match', query: '红烧肉的做法', results: [] });
    expect(none.content[0].text).toMatch(/^没有找到与“红烧肉的做法”相符的许可事项/);
    const bad = await call('search_permits', { query: '网吧', region: '火星' });
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: '没有名为或编码为“火星”的区域；可先调用 list_regions 查看所有区域。' }] });
    // Arguments outside the schema are refused by the protocol layer, as a tool error too.
    const empty = await call('search_permits', { query: '' });
    expect(empty.isError).toBe(true);
  });

  it('get_permit, list_regions, list_themes and permits_of_theme answer from the catalogue', async () => {
    const id = String(seed.permits.get(SPORTS));
    const one = await call('get_permit', { region: '511603', permit: '511A33038003' });
    expect(one.structuredContent!.permit).toMatchObject({ permit: { id, code: '511A33038003' } });
    expect(one.content[0].text).toMatch(/^【举办高危险性体育赛事活动许可/);
    expect((await call('get_permit', { region: '511603', permit: id })).structuredContent!.permit.permit.id).toBe(id);
    expect((await call('get_permit', { region: '511603', permit: '不存在的事项' })).isError).toBe(true);

    const regions = (await call('list_regions')).structuredContent!.regions as { id: string; code: string }[];
    expect(regions.map((r) => r.code).sort()).toEqual(['511602', '511603']);

    // The themes as /v2/themes lists them.
    const themes = (await call('list_themes')).structuredContent!.themes as { id: string; name: string; permit_count: number }[];
    expect(themes).toEqual((await t.app.inject({ method: 'GET', url: `${API}/v2/themes` })).json().data);
    const theme = themes.find((x) => x.permit_count > 0)!;
    const ofTheme = await call('permits_of_theme', { theme: theme.name });
    expect((ofTheme.structuredContent!.permits as unknown[]).length).toBe(theme.permit_count);
    expect(ofTheme.content[0].text).toContain(`主题“${theme.name}”`);
    expect((await call('permits_of_theme', { theme: '没有这个主题' })).isError).toBe(true);
  });

  it('answers GET and DELETE with 405: the endpoint keeps no session', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `${API}/mcp` });
      expect([res.statusCode, res.headers.allow, res.json()]).toEqual([405, 'POST', { success: false, message: '此端点为无状态 MCP 服务，只接受 POST' }]);
    }
  });
});

describe("the assistants' tools share the search rate limit", () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('refuses the call past the limit with 429 and Retry-After, as /v2 does', async () => {
    t = await buildTestApp('sqlite', { env: { SEARCH_RATE_LIMIT: '2' } });
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const v2 = await t.app.inject({ method: 'POST', url: `${API}/v2`, payload: { query: '网吧' } });
    const first = await t.app.inject({ method: 'POST', url: `${API}/mcp`, headers, payload: list });
    const refused = await t.app.inject({ method: 'POST', url: `${API}/mcp`, headers, payload: list });
    expect([v2.statusCode, first.statusCode, refused.statusCode]).toEqual([200, 200, 429]);
    expect(first.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } });
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json()).toMatchObject({ success: false });
  });
});
