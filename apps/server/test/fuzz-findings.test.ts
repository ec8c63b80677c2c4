import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp } from './helpers/device.ts';
import { dialects } from './helpers/dialects.ts';
import { databaseState } from './helpers/fuzz.ts';

/**
 * Each defect the route fuzzer (fuzz-routes.property.test.ts) found, as a test that fails on the code before its fix.
 * The fuzzer finds such inputs by chance; these check them every run.
 */
describe.each(dialects)('what the route fuzzer found, on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let deviceKey: string;
  beforeAll(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    deviceKey = (await registerIpp(env, w.tokens.superadmin, w.teamA, 'FIND-1')).key;
  });
  afterAll(() => env.close());

  it('refuses an id past the integer range as a bad field (it was a 500 on PostgreSQL)', async () => {
    const before = await databaseState(env);
    for (const [method, url, payload, field] of [
      ['POST', '/api/group/save', { id: 4831385702950597, name: 'x' }, 'id'],
      ['POST', '/api/group/delete', { id: 2 ** 31 }, 'id'],
      ['GET', `/api/user/view?id=${Number.MAX_SAFE_INTEGER}`, undefined, 'id'],
      ['GET', `/api/roi/get-roi-details?roi_id=${2 ** 31}`, undefined, 'roi_id'],
      ['POST', '/api/roi-index/save', { title: 'x', category_id: 2 ** 40 }, 'category_id'],
    ] as const) {
      const res = await call(env, w.tokens.superadmin, method, url, payload);
      expect({ url, status: res.statusCode, code: body(res).code, field: body(res).model?.field }).toEqual({
        url,
        status: 400,
        code: 1002,
        field,
      });
    }
    expect(await databaseState(env)).toBe(before);
  });

  it('answers a malformed multipart form with 1002, not a 500', async () => {
    const cases = [
      // No boundary in the header.
      { 'content-type': 'multipart/form-data', payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n' },
      // Cut off inside the file part.
      {
        'content-type': 'multipart/form-data; boundary=x',
        payload: `--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${(await pngOf(1)).subarray(0, 20).toString('latin1')}`,
      },
    ];
    for (const { payload, ...headers } of cases) {
      for (const [url, credential] of [
        ['/api/setting/logo', { 'x-token': w.tokens.superadmin! }],
        ['/api/device/rois', { 'x-device-key': deviceKey }],
      ] as const) {
        const res = await env.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, ...credential, 'x-lang': 'en' },
          payload,
        });
        expect({ url, status: res.statusCode, code: body(res).code }).toEqual({ url, status: 400, code: 1002 });
        expect(body(res).msg).toMatch(/upload form is malformed/);
      }
    }
  });

  it('refuses a followed-stations list for a team that does not exist (it was a foreign-key 500)', async () => {
    const res = await call(env, w.tokens.superadmin, 'POST', '/api/setting/set-group-view', { group_id: 999_999, ids: [] });
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({ code: 1002, msg: 'The team does not exist', model: { field: 'group_id' } });
  });

  it('refuses text holding NUL, naming the field, in body, query and path (PostgreSQL cannot store it)', async () => {
    const before = await databaseState(env);
    const inQuery = await call(env, w.tokens.superadmin, 'GET', '/api/user/index?account=%00');
    expect(body(inQuery)).toMatchObject({ code: 1002, model: { field: 'account' } });
    expect(body(inQuery).msg).toMatch(/NUL/);
    const inBody = await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { name: 'a\u0000b' }, 'zh');
    expect(body(inBody)).toMatchObject({ code: 1002, model: { field: 'name' } });
    expect(body(inBody).msg).toMatch(/空字符/);
    const nested = await call(env, w.tokens.superadmin, 'POST', '/api/get-lang/save', {
      items: [{ key: 'k\u0000', zh: 'a', en: 'b' }],
    });
    expect(body(nested)).toMatchObject({ code: 1002, model: { field: 'items.0.key' } });
    const inPath = await call(env, w.tokens.superadmin, 'GET', '/api/roi/file/a%00b');
    expect(body(inPath)).toMatchObject({ code: 1002, model: { field: 'name' } });
    expect(await databaseState(env)).toBe(before);
  });

  it('answers a path that is not valid UTF-8 with the envelope (it was Fastify’s own error body)', async () => {
    const res = await call(env, w.tokens.superadmin, 'GET', '/api/roi/file/%ED%A0%80');
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({ code: 1002, msg: 'The request address is not correctly encoded', model: { field: 'url' } });
  });
});
