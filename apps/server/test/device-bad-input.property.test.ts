import fc from 'fast-check';
import { MEASURED_KEYS } from '@ipp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';

const nasty = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', 'NaN', '1e309', '-0', '2026-13-45T99:00:00Z', "' or 1=1 --", 'x'.repeat(3000)),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 53, Number.MAX_SAFE_INTEGER, -1e12, 1e15),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.integer(), { maxKeys: 3 }),
);

/** Instruments send whatever their firmware sends: nothing may 5xx, and a refused sample stores nothing. */
describe('bad input on the device side and the monitoring views', () => {
  let env: TestEnv;
  let w: World;
  let key: string;
  beforeAll(async () => {
    env = await buildTestApp('sqlite');
    w = await buildWorld(env);
    key = (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'FUZZ')).key;
  });
  afterAll(() => env.close());

  const counts = async () =>
    JSON.stringify(
      await Promise.all(
        (['telemetry', 'rois', 'roi_rollup_hour', 'telemetry_rollup_hour'] as const).map(async (t) =>
          Number(
            (
              await env.db.kysely
                .selectFrom(t)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      ),
    );

  it('refuses malformed telemetry with a named field and stores nothing of it', async () => {
    let at = env.clock.now - 3_600_000;
    const sampleArb = fc.record(
      {
        at: fc.oneof(fc.constant('valid'), nasty),
        fields: fc.dictionary(fc.constantFrom(...MEASURED_KEYS, 'applied_config', 'key', 'extra'), nasty, { maxKeys: 5 }),
      },
      { requiredKeys: ['fields'] },
    );
    await fc.assert(
      fc.asyncProperty(sampleArb, fc.constantFrom('zh', 'en'), async (sample, lang) => {
        const before = await counts();
        const payload = {
          ...sample.fields,
          ...(sample.at === undefined ? {} : { at: sample.at === 'valid' ? (at += 1000) : sample.at }),
        };
        const res = await telemetry(env, key, payload, lang);
        expect(res.statusCode).toBeLessThan(500);
        const b = res.json() as { code: number; msg?: string; model?: { field?: string } };
        expect([1000, 1002]).toContain(b.code);
        if (b.code !== 1000) {
          expect(b.msg?.length).toBeGreaterThan(0);
          expect(b.model?.field).toBeTruthy();
          expect(await counts()).toBe(before);
        }
      }),
      { numRuns: 250 },
    );
  });

  it('refuses malformed ROI metadata without storing the image', async () => {
    const png = await pngOf(424242);
    const fieldsArb = fc.dictionary(
      fc.constantFrom('captured_at', 'label_index', 'confidence', 'size_px', 'extra'),
      fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.double().map(String)),
      { maxKeys: 5 },
    );
    await fc.assert(
      fc.asyncProperty(fieldsArb, async (fields) => {
        const before = await counts();
        const res = await uploadRoi(env, key, fields, png);
        expect(res.statusCode).toBeLessThan(500);
        const b = res.json() as { code: number; data?: { stored: boolean } };
        expect([1000, 1002]).toContain(b.code);
        if (b.code !== 1000) expect(await counts()).toBe(before);
        // An accepted one is stored once; later identical uploads are retries.
        if (b.code === 1000 && !b.data?.stored) expect(await counts()).toBe(before);
      }),
      { numRuns: 120 },
    );
  });

  it('answers any query to the monitoring views with the envelope and no 5xx', async () => {
    const queryArb = fc.tuple(
      fc.constantFrom(
        '/api/views/roi24',
        '/api/views/roi30',
        '/api/views/rois',
        '/api/roi/get-site-roi',
        '/api/roi/get-roi-details',
      ),
      fc.dictionary(
        fc.constantFrom('tz', 'ipp_id', 'group_id', 'limit', 'dev_id', 'period', 'points', 'roi_id'),
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.integer().map(String),
          fc.constantFrom('FUZZ', 'all', '24h', '1y', '-720', '841'),
        ),
        { maxKeys: 5 },
      ),
    );
    await fc.assert(
      fc.asyncProperty(queryArb, async ([path, query]) => {
        const res = await call(env, w.tokens.user, 'GET', `${path}?${new URLSearchParams(query).toString()}`);
        expect(res.statusCode).toBeLessThan(500);
        // 1011 only for a group_id naming another team than the user's own (a cross-team request is refused).
        const code = (res.json() as { code: number }).code;
        const otherTeam = 'group_id' in query && String(query.group_id) !== String(w.teamA);
        expect(otherTeam ? [1000, 1002, 1011] : [1000, 1002]).toContain(code);
      }),
      { numRuns: 200 },
    );
  });
});
