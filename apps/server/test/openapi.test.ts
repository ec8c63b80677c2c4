import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { registerIpp, telemetry } from './helpers/device.ts';

interface Operation {
  security?: { [scheme: string]: string[] }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/**
 * The OpenAPI document at /api/docs/json: valid for the standard validators (swagger-parser, Redocly's recommended
 * rules), complete (every route, its error answers, its credential, its multipart form), and true (live answers
 * validate against their declared schema).
 */
describe('the OpenAPI document', () => {
  let env: TestEnv;
  let w: World;
  let text: string;
  let doc: Doc;

  beforeAll(async () => {
    env = await buildTestApp('sqlite');
    w = await buildWorld(env);
    const res = await env.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    text = res.body;
    doc = JSON.parse(text) as Doc;
  });
  afterAll(() => env.close());

  it('passes swagger-parser validation and Redocly lint (recommended rules) with no errors', async () => {
    await expect(SwaggerParser.validate(JSON.parse(text) as never)).resolves.toBeDefined();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: '/api/docs/json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('describes every API route, its error answers and the credential it needs', () => {
    for (const route of env.app.routeAccess) {
      if (route.method === 'HEAD') continue;
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.url}`).toBeDefined();
      const failure = (status: string) => JSON.stringify(op!.responses[status]?.content?.['application/json']?.schema);
      for (const status of ['400', '404', '422', '500', '503'])
        expect(failure(status), `${route.url} ${status}`).toContain('Failure');
      if (route.access === 'public') {
        expect(op!.security, route.url).toEqual([]);
        expect(op!.responses['401'], route.url).toBeUndefined();
      } else {
        expect(failure('401'), route.url).toContain('Failure');
        if (route.access === 'device') expect(op!.security).toEqual([{ deviceKey: [] }]);
        else expect(op!.security ?? [{ token: [] }]).toEqual([{ token: [] }]);
      }
    }
  });

  it('describes the multipart forms: the instrument upload, the image classification and the zip import', () => {
    const form = (path: string) => doc.paths[path]!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(form('/api/device/rois').required).toEqual(['captured_at', 'size_px', 'file']);
    expect(Object.keys(form('/api/device/rois').properties!)).toEqual([
      'captured_at',
      'label_index',
      'confidence',
      'size_px',
      'file',
    ]);
    expect(form('/uploads').required).toEqual(['file']);
    expect(form('/api/roi/import').required).toEqual(['file']);
  });

  it('is true to live answers: null where a schema allows it, on both answers that once failed their own schema', async () => {
    const deref = (await SwaggerParser.dereference(JSON.parse(text) as never)) as unknown as Doc;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const check = (path: string, method: string, answer: unknown) => {
      const schema = deref.paths[path]![method]!.responses['200']!.content!['application/json']!.schema as object;
      const validate = ajv.compile(schema);
      expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
    };
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    // A sample without a wiper state: measured.wiper_state is null.
    expect((await telemetry(env, a1.key, { at: env.clock.now - 1000, temperature_c: 12.5 })).statusCode).toBe(200);
    const list = await call(env, w.tokens.ownAdmin, 'GET', '/api/ipp/index');
    const ipps = (list.json() as { data: { measured: { wiper_state: unknown } | null }[] }).data;
    expect(ipps[0]!.measured?.wiper_state).toBeNull();
    check('/api/ipp/index', 'get', list.json());
    // Actions offered in the site images: reason null.
    const actions = await call(env, w.tokens.ownAdmin, 'GET', '/api/roi/actions?category_id=-100');
    expect((actions.json() as { data: { reason: unknown } }).data.reason).toBeNull();
    check('/api/roi/actions', 'get', actions.json());
  });
});
