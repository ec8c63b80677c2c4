import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';

describe('envelope and error catalogue', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await buildTestApp('sqlite', {
      beforeReady(app) {
        app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
          throw new Error('secret internal detail');
        });
      },
    });
  });
  afterAll(() => env.close());

  it('answers an unknown API path with the envelope, never an HTML page', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await env.app.inject({ method, url: '/api/no/such/route?x=1', headers: { 'x-lang': 'en' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(body(res)).toEqual({
        code: 1004,
        data: `Interface not supported: ${method} /api/no/such/route`,
        msg: `Interface not supported: ${method} /api/no/such/route`,
        model: null,
        count: 0,
        index: null,
      });
    }
  });

  it('speaks Chinese by default and for x-lang zh', async () => {
    const none = body(await env.app.inject({ method: 'GET', url: '/api/nope' }));
    expect(none.msg).toBe('接口不支持：GET /api/nope');
    const zh = body(await env.app.inject({ method: 'GET', url: '/api/nope', headers: { 'x-lang': 'zh-CN' } }));
    expect(zh.msg).toBe(none.msg);
    const odd = body(await env.app.inject({ method: 'GET', url: '/api/nope', headers: { 'x-lang': 'fr' } }));
    expect(odd.msg).toBe(none.msg);
  });

  it('names the missing or bad field with code 1002', async () => {
    const cases: Array<[unknown, string, string, string]> = [
      [{ password: 'secret1' }, 'username', 'Invalid parameter: username is required', '参数错误：username 为必填项'],
      [{ username: 'a' }, 'password', 'Invalid parameter: password is required', '参数错误：password 为必填项'],
      [
        { username: 'a', password: '123' },
        'password',
        'Invalid parameter: password must be at least 6 characters',
        '参数错误：password 长度至少为 6',
      ],
      [
        { username: 42, password: '1234567' },
        'username',
        'Invalid parameter: username must be of type string',
        '参数错误：username 类型应为 string',
      ],
      [
        { username: 'x'.repeat(65), password: '1234567' },
        'username',
        'Invalid parameter: username must be at most 64 characters',
        '参数错误：username 长度至多为 64',
      ],
    ];
    for (const [payload, field, en, zh] of cases) {
      for (const [lang, text] of [
        ['en', en],
        ['zh', zh],
      ] as const) {
        const res = await env.app.inject({
          method: 'POST',
          url: '/api/wyrbac/login/login',
          headers: { 'x-lang': lang },
          payload: payload as object,
        });
        expect(res.statusCode).toBe(400);
        expect(body(res)).toEqual({ code: 1002, data: text, msg: text, model: { field }, count: 0, index: null });
      }
    }
  });

  it('refuses malformed JSON and unsupported content types with 1002', async () => {
    const bad = await env.app.inject({
      method: 'POST',
      url: '/api/wyrbac/login/login',
      headers: { 'content-type': 'application/json', 'x-lang': 'en' },
      payload: '{"username": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(body(bad)).toMatchObject({ code: 1002, msg: 'The request body is not valid JSON', model: { field: 'body' } });
    const xml = await env.app.inject({
      method: 'POST',
      url: '/api/wyrbac/login/login',
      headers: { 'content-type': 'application/xml', 'x-lang': 'en' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(body(xml)).toMatchObject({ code: 1002, msg: 'Unsupported content type' });
  });

  it('never leaks a stack trace: internal faults answer 1500 with a request id', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/test/boom', headers: { 'x-lang': 'en' } });
    expect(res.statusCode).toBe(500);
    const b = body(res);
    expect(b.code).toBe(1500);
    expect(b.model?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.msg).toBe(`Internal server error (request ${b.model?.requestId})`);
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('serves the OpenAPI description with the session calls', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/wyrbac/login/login', '/api/wyrbac/login/user-info', '/api/wyrbac/login/logout']),
    );
  });
});
