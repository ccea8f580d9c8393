import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { badRequest } from './errors.js';

describe('the one error path', () => {
  let t: TestApp;
  const logged: unknown[] = [];
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    t.app.get(`${API}/__boom`, async () => {
      throw new Error('disk on fire');
    });
    t.app.get(`${API}/__listing`, { config: { failureMessage: '文件列表加载失败' } }, async () => {
      throw new TypeError('x is undefined');
    });
    t.app.get(`${API}/__bad`, async () => {
      throw badRequest('参数无效', { code: 'BAD' });
    });
    t.app.get(`${API}/__constraint`, async () => {
      const now = new Date().toISOString();
      await t.dbh.db.insertInto('themes').values({ name: 'dup', created_at: now }).execute();
      await t.dbh.db.insertInto('themes').values({ name: 'dup', created_at: now }).execute();
    });
    t.app.addHook('onError', async (_req, _reply, err) => {
      logged.push(err);
    });
  });
  afterAll(async () => t?.close());

  it('answers unexpected failures with 500 {success:false, message} and no stack trace', async () => {
    const res = await t.app.inject(`${API}/__boom`);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: 'disk on fire' });
    expect(res.body).not.toContain('at ');
    expect(logged.length).toBeGreaterThan(0);
  });

  it('uses the route-fixed message for unexpected failures where the interface names one', async () => {
    const res = await t.app.inject(`${API}/__listing`);
    expect(res.json()).toEqual({ success: false, message: '文件列表加载失败' });
  });

  it('turns AppError into its status and envelope with extra fields', async () => {
    const res = await t.app.inject(`${API}/__bad`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: '参数无效', code: 'BAD' });
  });

  it('maps a unique-constraint violation to a clear 400', async () => {
    const res = await t.app.inject(`${API}/__constraint`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: '数据已存在，违反唯一性约束' });
  });

  it('refuses unsupported content types with 415 and non-object bodies with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ success: false, message: '不支持的请求内容类型' });
    const text = await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: 'x', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ success: false, message: '请求体应为 JSON 对象或表单' });
  });

  it('answers what the router refuses (bad percent-encoding, an over-long path parameter) with the envelope', async () => {
    const bad = await t.app.inject(`${API}/admin/permit-files/%ED%A0%80/download`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, message: '请求地址含有无效的字符编码' });
    const long = await t.app.inject(`${API}/admin/permit-files/${'9'.repeat(5000)}/download`);
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ success: false, message: '请求地址中的参数过长' });
  });

  it('never passes a framework text on: a JSON body with __proto__ is bad JSON, a long unknown key is cut', async () => {
    const proto = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      payload: '{"__proto__":{"polluted":1}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.statusCode).toBe(400);
    expect(proto.json()).toEqual({ success: false, message: '请求体不是有效的 JSON' });
    const key = await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { ['k'.repeat(5000)]: 1 } });
    expect(key.statusCode).toBe(400);
    expect(key.json()).toEqual({ success: false, message: `不支持的参数：${'k'.repeat(40)}…` });
  });
});

describe('login rate limit per client IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { env: { LOGIN_RATE_LIMIT: '3' } });
  });
  afterAll(async () => t?.close());

  it('limits login attempts per client IP (LOGIN_RATE_LIMIT)', async () => {
    const attempt = () => t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: `u${Math.random()}`, password: 'x' } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt()).statusCode);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const last = await attempt();
    expect(last.statusCode).toBe(429);
    expect(last.json()).toEqual({ success: false, message: '请求过于频繁，请稍后再试' });
  });
});
