import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

/** Every write of the identify workspace, with a body an attacker or a buggy client might send. */
const WRITES = [
  '/api/roi/save-move',
  '/api/roi-index/save',
  '/api/roi-index/rename',
  '/api/roi-index/delete-folder',
  '/api/roi-index/batch-delete',
  '/api/roi-index/change-status',
  '/api/roi-index/add-tool-bar',
  '/api/roi-index/delete-tool-bar',
  '/api/folder/operate-folder',
  '/api/folder/operator-site-folder',
  '/api/roi/operate-roi',
  '/api/roi/operator-site-roi',
  '/api/roi/delete',
  '/api/roi-group/re-bin',
  '/api/roi-group/delete',
  '/api/roi/re-identify',
] as const;

const READS = [
  '/api/roi/index',
  '/api/roi-index/index',
  '/api/roi/get-adjacent-roi',
  '/api/roi/actions',
  '/api/folder/get-folder-by-roi-index',
];

describe('bad input never breaks the identify workspace', () => {
  let env: TestEnv;
  let w: World;
  let roiId: number;
  beforeAll(async () => {
    env = await buildTestApp('sqlite');
    w = await buildWorld(env);
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const res = await uploadRoi(env, a1.key, { captured_at: env.clock.now, label_index: 1, size_px: 900 }, await pngOf(1));
    roiId = (res.json() as { data: { roi_id: number } }).data.roi_id;
  });
  afterAll(() => env.close());

  const snapshot = async () => ({
    rois: await env.db.kysely
      .selectFrom('rois')
      .select(['id', 'class_id', 'hi', 'deleted_at', 'review_status', 'favorite_at'])
      .execute(),
    folders: await env.db.kysely.selectFrom('roi_folders').select(['id', 'title', 'n']).execute(),
    classes: await env.db.kysely.selectFrom('classes').select(['id', 'name']).execute(),
  });

  it('answers any write body with the envelope, a 1xxx failure in the caller language, and changes nothing', async () => {
    const before = await snapshot();
    const junkValue = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.constant(null),
      fc.double(),
      fc.array(fc.integer(), { maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WRITES),
        fc.oneof(
          fc.anything(),
          fc.record(
            {
              type: fc.oneof(junkValue, fc.constantFrom('2', '51', '52', 'B001', 'copy', 'remove', 'to_hi', 're', 'delete')),
              category_id: fc.oneof(junkValue, fc.constantFrom(-1, -5, -8, -100, -1000, 0, 99999)),
              roi_ids: fc.oneof(junkValue, fc.constant([999_999]), fc.constant([]), fc.constant([-1])),
              roi_index_id: junkValue,
              class_id: junkValue,
              title: fc.oneof(junkValue, fc.constantFrom('', 'abc', '12x', ' 001 x')),
              target_id: junkValue,
              dev_id: junkValue,
              Roi_time_s: fc.oneof(junkValue, fc.constantFrom('2026-13-40', '-2 day')),
              action: junkValue,
              ids: junkValue,
              id: junkValue,
            },
            { requiredKeys: [] },
          ),
        ),
        fc.constantFrom('zh', 'en'),
        async (url, payload, lang) => {
          const res = await env.app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': 'application/json', 'x-lang': lang, 'x-token': w.tokens.user! },
            payload: JSON.stringify(payload) ?? 'undefined',
          });
          expect(res.statusCode).toBeLessThan(500);
          const b = res.json() as { code: number; msg: string };
          // A user's request may legitimately succeed only for harmless no-ops; everything else is a clear failure.
          if (b.code !== 1000) {
            expect([1001, 1002, 1011]).toContain(b.code);
            expect(b.msg.length).toBeGreaterThan(0);
            if (lang === 'zh') expect(b.msg).toMatch(/[\u4e00-\u9fa5]/);
          }
        },
      ),
      { numRuns: 400 },
    );
    const after = await snapshot();
    expect(after.rois).toEqual(before.rois);
    expect(after.classes).toEqual(before.classes);
    // A random title may by chance follow the naming rule and make a folder; existing folders never change.
    const existing = new Set(before.folders.map((f) => f.id));
    expect(after.folders.filter((f) => existing.has(f.id))).toEqual(before.folders);
    expect(roiId).toBeGreaterThan(0);
  });

  it('answers any list query with the envelope and no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...READS),
        fc.dictionary(
          fc.constantFrom(
            'category_id',
            'code',
            'ipp_id',
            'dataIndex',
            'Roi_time_s',
            'Roi_time_e',
            'coordRange_0',
            'sorttype',
            'diysort',
            'limit',
            'page',
            'after',
            'tz',
            'roi_id',
            'roi_index_id',
          ),
          fc.oneof(
            fc.string({ maxLength: 24 }),
            fc.integer().map(String),
            fc.constantFrom('-100', '-7', 't:ai', 'f:1', 's:1:c:2', '-3 day'),
          ),
        ),
        async (url, query) => {
          const qs = new URLSearchParams(query).toString();
          const res = await env.app.inject({
            method: 'GET',
            url: `${url}?${qs}`,
            headers: { 'x-lang': 'en', 'x-token': w.tokens.user! },
          });
          expect(res.statusCode).toBeLessThan(500);
          const b = res.json() as { code: number; msg?: string };
          expect([1000, 1001, 1002, 1011]).toContain(b.code);
        },
      ),
      { numRuns: 300 },
    );
  });
});
