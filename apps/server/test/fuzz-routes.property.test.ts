import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_STATUS_OF, type ResultCode } from '@ipp/contracts';
import { buildWorld, type World } from './helpers/actors.ts';
import { buildTestApp, createTeam, createUser, login, PASSWORD, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';
import { dialects } from './helpers/dialects.ts';
import {
  databaseState,
  filesState,
  operationsOf,
  requestsFor,
  type Credentials,
  type GeneratedRequest,
  type Operation,
} from './helpers/fuzz.ts';
import { hashPassword } from '../src/security/password.ts';

/**
 * The route fuzzer (issue 8, ASVS V5): requests generated from the OpenAPI description of every route, mostly as the
 * superadmin so they get past access control to validation and the handlers. Every answer must be the envelope, no
 * 5xx, no stack trace, a 1002 must name its field, a Chinese caller gets Chinese, every answer validates against the
 * schema the OpenAPI document declares for its status; and a refused request must leave the database and the data
 * directory exactly as they were. FUZZ_RUNS sets the requests per route (default below).
 */
const RUNS: Record<string, number> = { sqlite: 120, postgres: 40 };
const runsFor = (dialect: string) => Number(process.env.FUZZ_RUNS ?? RUNS[dialect] ?? 40);

const tally = { requests: 0, refused: 0, accepted: 0, fiveHundreds: 0, byCode: new Map<number, number>() };

/** Answers that are files, not the envelope, when they succeed. */
const BINARY_ROUTES = new Set([
  '/api/roi/file/{name}',
  '/api/setting/logo',
  '/api/roi/export-site-data',
  '/api/roi/export',
  '/api/alarm/export',
]);
/**
 * Answers that stream until they end (the live event stream, cut after EVENT_STREAM_MAX_MS here): an accepted request
 * costs that long, so they get a few runs; live-events.test.ts tests the stream itself.
 */
const STREAM_ROUTES = new Set(['/api/events']);
const STREAM_RUNS = 6;

function describeRequest(req: GeneratedRequest, res: LightMyRequestResponse) {
  const payload = req.payload === undefined ? '' : String(req.payload).slice(0, 600);
  return `${req.method} ${req.url.slice(0, 400)}\nheaders ${JSON.stringify(req.headers)}\nbody ${payload}\n→ ${res.statusCode} ${res.body.slice(0, 600)}`;
}

describe.each(dialects)('the route fuzzer on %s', (dialect) => {
  let env: TestEnv;
  let world: World;
  let ops: Operation[];
  let creds: Credentials;
  let deviceCounter = 0;
  let lastError: Error | null = null;
  let answerSchemas: (op: Operation, status: number) => ValidateFunction | undefined;
  const serverError = () => (lastError ? `\nserver error: ${lastError.stack ?? String(lastError)}` : '');

  const actors = [
    { account: 'su', role: 'superadmin', team: () => null },
    { account: 'admin_a', role: 'administrator', team: () => world.teamA },
    { account: 'user_a', role: 'user', team: () => world.teamA },
    { account: 'admin_b', role: 'administrator', team: () => world.teamB },
  ] as const;

  const inject = (req: GeneratedRequest) =>
    env.app.inject({
      method: req.method,
      url: req.url,
      headers: req.headers,
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
    });

  const state = async () => `${await databaseState(env)}\n${filesState(env.config.DATA_DIR)}`;
  /**
   * The state the last refused request was checked to have left: the next request's "before" without reading it
   * again (half the reads). Anything else that may write (an accepted request, the callers' restoring) forgets it.
   */
  let verified: string | null = null;

  async function ensureTeam(id: number, name: string) {
    const row = await env.db.kysely.selectFrom('teams').select('id').where('id', '=', id).executeTakeFirst();
    return row ? id : createTeam(env, `${name} ${Date.now()}`);
  }

  /** After an accepted request (a fuzzed delete, logout or password reset may succeed), bring the callers back. */
  async function restoreCallers() {
    world.teamA = await ensureTeam(world.teamA, 'Team A');
    world.teamB = await ensureTeam(world.teamB, 'Team B');
    for (const [i, actor] of actors.entries()) {
      const check = await inject({ method: 'GET', url: '/api/wyrbac/login/user-info', headers: { 'x-token': creds.tokens[i]! } });
      const data = (check.json() as { code: number; data?: { role?: string; group_id?: number | null } }).data;
      if (check.json().code === 1000 && data?.role === actor.role && (data.group_id ?? null) === actor.team()) continue;
      const hash = await hashPassword(PASSWORD, env.config.SCRYPT_LOG_N);
      const existing = await env.db.kysely
        .selectFrom('users')
        .select('id')
        .where('account', '=', actor.account)
        .executeTakeFirst();
      if (existing) {
        await env.db.kysely
          .updateTable('users')
          .set({ password_hash: hash, role: actor.role, group_id: actor.team(), is_demo: 0 })
          .where('id', '=', existing.id)
          .execute();
      } else {
        await createUser(env, actor.account, actor.role, { groupId: actor.team() });
      }
      await env.db.kysely.deleteFrom('login_failures').execute();
      creds.tokens[i] = await login(env, actor.account);
    }
    const config = await inject({ method: 'GET', url: '/api/device/config', headers: { 'x-device-key': creds.deviceKey } });
    if (config.json().code !== 1000) {
      creds.deviceKey = (await registerIpp(env, creds.tokens[0], world.teamA, `FUZZ-${++deviceCounter}`)).key;
    }
  }

  beforeAll(async () => {
    env = await buildTestApp(dialect, {
      config: { EVENT_STREAM_MAX_MS: 1000 },
      // The error behind a 5xx goes into the failure report (the app's log is silent in tests).
      beforeReady: (app) => {
        app.addHook('onError', async (_request, _reply, error) => {
          lastError = error;
        });
      },
    });
    world = await buildWorld(env);
    ops = operationsOf(env.app.swagger());
    // The declared answer of each operation and status, compiled once from the document itself (its $refs, the
    // recursive class tree included, resolve within it).
    const doc = env.app.swagger() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
    };
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(structuredClone(doc), 'openapi');
    const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    const compiled = new Map<string, ValidateFunction | undefined>();
    answerSchemas = (op, status) => {
      const key = `${op.method} ${op.path} ${status}`;
      if (!compiled.has(key)) {
        const method = op.method.toLowerCase();
        const declared = doc.paths[op.path]?.[method]?.responses[String(status)]?.content?.['application/json'];
        const ref = `openapi#/${pointer('paths', op.path, method, 'responses', String(status), 'content', 'application/json', 'schema')}`;
        compiled.set(key, declared ? ajv.getSchema(ref) : undefined);
      }
      return compiled.get(key);
    };
    const ipp = await registerIpp(env, world.tokens.superadmin, world.teamA, 'FUZZ-0');
    creds = {
      tokens: [world.tokens.superadmin!, world.tokens.ownAdmin!, world.tokens.user!, world.tokens.otherAdmin!],
      deviceKey: ipp.key,
    };
    // Objects for the small ids the generator favours to name: ROIs (with their files), a second station in team B.
    for (let i = 0; i < 4; i++) {
      const res = await uploadRoi(env, ipp.key, { captured_at: Date.UTC(2026, 10, 20, 10, i), size_px: 100 + i }, await pngOf(i));
      expect(res.json().code).toBe(1000);
    }
    await registerIpp(env, world.tokens.superadmin, world.teamB, 'FUZZ-B');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('covers every route the app declares', () => {
    const declared = new Set(env.app.routeAccess.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`));
    const fuzzed = new Set(ops.map((o) => `${o.method} ${o.path.replace(/\{(\w+)\}/g, ':$1')}`));
    expect([...declared].filter((r) => !fuzzed.has(r))).toEqual([]);
    expect(ops.length).toBeGreaterThan(80);
  });

  it(
    'answers every generated request with the envelope, never a 5xx, and a refused request changes nothing',
    async () => {
      const runs = runsFor(dialect);
      for (const op of ops) {
        verified = null;
        await fc.assert(
          fc.asyncProperty(
            requestsFor(op, () => creds),
            async (req) => {
              const before = verified ?? (await state());
              verified = null;
              lastError = null;
              const res = await inject(req);
              tally.requests++;
              const where = `${describeRequest(req, res)}${serverError()}`;
              if (res.statusCode >= 500) tally.fiveHundreds++;
              expect(res.statusCode, where).toBeLessThan(500);
              const json = /application\/json/.test(String(res.headers['content-type']));
              if (!json) {
                // Files (images, CSV, zip) only on success of the routes that serve them.
                expect(res.statusCode, where).toBe(200);
                if (STREAM_ROUTES.has(op.path)) expect(String(res.headers['content-type']), where).toMatch(/^text\/event-stream/);
                else expect(BINARY_ROUTES.has(op.path), where).toBe(true);
                tally.accepted++;
                await restoreCallers();
                return;
              }
              const b = res.json() as { code: ResultCode; msg?: string; data: unknown; model: { field?: string } | null };
              // The answer is what the document says this route answers with this status.
              const declared = answerSchemas(op, res.statusCode);
              expect(declared, `no schema declared for ${res.statusCode}:\n${where}`).toBeDefined();
              expect(declared!(b), `${JSON.stringify(declared!.errors)}\n${where}`).toBe(true);
              tally.byCode.set(b.code, (tally.byCode.get(b.code) ?? 0) + 1);
              expect(Object.keys(b).sort(), where).toEqual(
                b.code === 1000
                  ? ['code', 'count', 'data', 'index', 'model']
                  : ['code', 'count', 'data', 'index', 'model', 'msg'],
              );
              // A refused body keeps its transport meaning (413 too large, 415 not a type we take); else the code's status.
              const statuses = b.code === 1002 ? [400, 413, 415] : [HTTP_STATUS_OF[b.code]];
              expect(statuses, where).toContain(res.statusCode);
              if (b.code === 1000) {
                tally.accepted++;
                await restoreCallers();
                return;
              }
              tally.refused++;
              expect(typeof b.msg === 'string' && b.msg.length > 0, where).toBe(true);
              expect(b.msg, where).not.toMatch(/\n\s+at |node_modules|apps\/server|\.ts:\d+|SQLITE_|syntax error|relation "/i);
              if (b.code === 1002) expect(b.model?.field, where).toMatch(/\S/);
              const lang = (req.headers['x-lang'] ?? '').trim().toLowerCase().slice(0, 2);
              if (lang !== 'en') expect(b.msg, where).toMatch(/[\u4e00-\u9fff]/);
              expect(await state(), `a refused request changed the stored data:\n${where}`).toBe(before);
              verified = before;
            },
          ),
          { numRuns: STREAM_ROUTES.has(op.path) ? Math.min(runs, STREAM_RUNS) : runs, endOnFailure: true },
        );
      }
    },
    20 * 60_000,
  );
});

afterAll(() => {
  const codes = [...tally.byCode.entries()].sort((a, b) => a[0] - b[0]).map(([c, n]) => `${c}×${n}`);
  console.log(
    `Route fuzzer: ${tally.requests} requests, ${tally.accepted} accepted, ${tally.refused} refused (${codes.join(', ')}), ${tally.fiveHundreds} answered 5xx`,
  );
});
