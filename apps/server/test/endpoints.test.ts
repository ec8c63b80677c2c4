/**
 * Contracts per endpoint (issue 24): each call's method, path and schemas are written once, in packages/contracts
 * (endpoints.ts, api.ts). The server registers exactly those routes with exactly those schemas, and no source outside
 * the contract spells an API path (the web and the simulator take theirs from EP).
 */
import fs from 'node:fs';
import path from 'node:path';
import { API, EP, type EndpointName } from '@ipp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { sourceFiles } from './helpers/sources.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const urlOf = (e: { path: string; root?: boolean }) => (e.root ? e.path : `/api${e.path}`);
const names = Object.keys(EP) as EndpointName[];

// Test support (apps/web/src/test) fakes the server by its URLs, as the tests do.
const sources = (dir: string) =>
  sourceFiles(
    dir,
    (name) => /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name),
    (folder) => folder === 'node_modules' || folder === 'test',
  );

/** Path literals ('/group/index', "roi/file/…") a source spells out, for the endpoints given. */
export function spelledPaths(text: string, paths: readonly string[]): string[] {
  return paths.filter((p) => {
    const param = /\/:\w+$/.test(p);
    const bare = p.replace(/^\//, '').replace(/\/:\w+$/, '/');
    const escaped = bare.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    // Quoted, maybe after a template's host part or /api, and ending the string (or its query) unless it takes a
    // parameter; a one-word path ('/events') only with its slash, so the word alone ('events') is not taken for it.
    return new RegExp(
      `['"\`](?:\\$\\{[^}]*\\})?(?:/api)?${bare.includes('/') ? '/?' : '/'}${escaped}${param ? '' : '[\'"`?]'}`,
    ).test(text);
  });
}

describe('contracts per endpoint', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await buildTestApp('sqlite');
  });
  afterAll(() => env.close());

  it('registers every endpoint of the contract, at its method and URL', () => {
    const registered = new Set(env.app.routeAccess.map((r) => `${r.method} ${r.url}`));
    const missing = names.filter((n) => !registered.has(`${EP[n].method} ${urlOf(EP[n])}`));
    expect(missing).toEqual([]);
  });

  it('registers no call the contract does not name', () => {
    const known = new Set(names.map((n) => `${EP[n].method} ${urlOf(EP[n])}`));
    const extra = env.app.routeAccess
      .filter((r) => r.method !== 'HEAD' && !known.has(`${r.method} ${r.url}`))
      .map((r) => `${r.method} ${r.url}`);
    expect(extra).toEqual([]);
  });

  it("validates each route with the contract's own schemas", () => {
    const wrong: string[] = [];
    for (const n of names) {
      const def = API[n] as (typeof API)[EndpointName] & { query?: unknown; params?: unknown; body?: unknown; data?: unknown };
      const route = env.app.routeAccess.find((r) => r.method === def.method && r.url === urlOf(def));
      const schema = (route?.schema ?? {}) as {
        querystring?: unknown;
        params?: unknown;
        body?: unknown;
        response?: { 200?: { shape?: { data?: unknown } } };
      };
      if (schema.querystring !== def.query) wrong.push(`${n}: querystring`);
      if (schema.params !== def.params) wrong.push(`${n}: params`);
      if (schema.body !== def.body) wrong.push(`${n}: body`);
      if (def.data !== undefined && schema.response?.[200]?.shape?.data !== def.data) wrong.push(`${n}: data`);
      // A raw answer (a file, CSV, the event stream) declares no envelope for its 200.
      const raw = (def as { stream?: unknown }).stream;
      if (def.data === undefined && raw === undefined && schema.response !== undefined) wrong.push(`${n}: response`);
      if (raw !== undefined && schema.response?.[200] !== raw) wrong.push(`${n}: stream`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('API paths outside the contract', () => {
  const paths = names.map((n) => EP[n].path);

  it('are spelled by no source of the web, the server or the simulator', () => {
    const found: string[] = [];
    for (const dir of ['apps/web/src', 'apps/server/src']) {
      for (const file of sources(path.join(ROOT, dir))) {
        const hits = spelledPaths(fs.readFileSync(file, 'utf8'), paths);
        for (const p of hits) found.push(`${path.relative(ROOT, file)}: ${p}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('finds a spelled path, quoted either way, with or without its leading slash', () => {
    expect(spelledPaths("api.get('/group/index')", ['/group/index'])).toEqual(['/group/index']);
    expect(spelledPaths('fetch(`roi/file/${name}`)', ['/roi/file/:name'])).toEqual(['/roi/file/:name']);
    expect(spelledPaths('fetch(`${host}/api/device/rois`)', ['/device/rois'])).toEqual(['/device/rois']);
    expect(spelledPaths("'/group/index-other'", ['/group/index'])).toEqual([]);
    expect(spelledPaths("app.decorate('events', bus)", ['/events'])).toEqual([]);
  });
});
