import type { ClassItem } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp } from './helpers/device.ts';
import { shapePng } from './helpers/shapes.ts';

type Answer = { code: number; data: unknown; msg: string };

/** Issue 20's and 21's new calls, each made by two callers at the same moment on the same object. */
describe.each(dialects)('two callers at once on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: number;
  const send = async (token: string | undefined, method: 'GET' | 'POST', url: string, payload?: object) =>
    body(await call(env, token, method, url, payload)) as Answer;
  const twice = (make: () => Promise<Answer>) => Promise.all([make(), make()]);

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1')).id;
  });
  afterEach(() => env.close());

  it('hides one class from a team twice at once: both succeed, and it is hidden once', async () => {
    const classes = async () => (await send(w.tokens.ownAdmin, 'GET', '/api/tool/sys-init?sort=title')).data as ClassItem[];
    const copepod = (await classes()).find((c) => c.title.startsWith('001'))!;
    const hide = [
      send(w.tokens.ownAdmin, 'POST', '/api/roi-index/change-status', { class_id: copepod.id, status: 0 }),
      send(w.tokens.superadmin, 'POST', '/api/roi-index/change-status', {
        class_id: copepod.id,
        status: 0,
        group_id: w.teamA,
      }),
    ];
    expect((await Promise.all(hide)).map((a) => a.code)).toEqual([1000, 1000]);
    expect((await classes()).find((c) => c.id === copepod.id)?.visible).toBe(false);
    const shown = await twice(() =>
      send(w.tokens.ownAdmin, 'POST', '/api/roi-index/change-status', { class_id: copepod.id, status: 1 }),
    );
    expect(shown.map((a) => a.code)).toEqual([1000, 1000]);
    expect((await classes()).find((c) => c.id === copepod.id)?.visible).toBe(true);
  });

  it('creates the same new class twice at once: one is made, the other is told it exists', async () => {
    const made = await twice(() =>
      send(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', { title: '321Twice', category_id: -100, ipp_id: a1 }),
    );
    expect(made.map((a) => a.code).sort()).toEqual([1000, 1002]);
    const titles = ((await send(w.tokens.ownAdmin, 'GET', '/api/tool/sys-init?sort=title')).data as ClassItem[]).map(
      (c) => c.title,
    );
    expect(titles.filter((t) => t === '321Twice')).toHaveLength(1);
  });

  it('adds a shortcut naming a folder id past 32 bits twice at once: one shortcut, no 500 on PostgreSQL', async () => {
    const add = await twice(() =>
      send(w.tokens.user, 'POST', '/api/roi-index/add-tool-bar', { category_id: 0, code: 'f:9999999999', title: 'far' }),
    );
    expect(add.map((a) => a.code)).toEqual([1000, 1000]);
    const bar = (await send(w.tokens.user, 'GET', '/api/roi-index/tool-bar')).data as unknown[];
    expect(bar.length).toBeLessThanOrEqual(1);
  });

  it("saves one user's settings twice at once: both answer, and the last word is one of theirs", async () => {
    // Several rounds: the interleaving that mixed two calls happened in about one CI run of a few.
    for (let round = 0; round < 8; round++) {
      const [first, second] = await Promise.all([
        send(w.tokens.user, 'POST', '/api/setting/save-user', { language: 'en', view: { group_id: w.teamA, ids: [a1] } }),
        send(w.tokens.user, 'POST', '/api/setting/save-user', { language: 'zh', view: { group_id: w.teamA, ids: [] } }),
      ]);
      expect([first.code, second.code]).toEqual([1000, 1000]);
      const info = (await send(w.tokens.user, 'GET', '/api/wyrbac/login/user-info')).data as { language: string };
      const view = (await send(w.tokens.user, 'GET', '/api/setting/get-group-view')).data as { loc: unknown[] };
      // Each call is one transaction: language and stations come from the same request, never half of each.
      expect([info.language, view.loc.length], `round ${round}`).toSatisfy(
        ([lang, n]: [string, number]) => (lang === 'en' && n === 1) || (lang === 'zh' && n === 0),
      );
    }
  });
  it('saves the auto-accept target precision from two administrators at once: both answer, one row keeps one of them', async () => {
    const saved = await Promise.all([
      send(w.tokens.ownAdmin, 'POST', '/api/ai/thresholds', { target_precision: 0.9 }),
      send(w.tokens.superadmin, 'POST', '/api/ai/thresholds', { target_precision: 0.99, group_id: w.teamA }),
    ]);
    expect(saved.map((a) => a.code)).toEqual([1000, 1000]);
    const now = (await send(w.tokens.ownAdmin, 'GET', '/api/ai/thresholds')).data as { target_precision: number };
    expect([0.9, 0.99]).toContain(now.target_precision);
    const rows = await env.db.kysely
      .selectFrom('ai_thresholds')
      .selectAll()
      .where('group_id', '=', w.teamA)
      .where('class_id', '=', -1)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('asks for one station’s corrected counts twice at once: the same answer for both', async () => {
    const now = env.clock.now;
    for (let i = 0; i < 3; i++)
      await env.app.rois.ingest({
        ippId: a1,
        capturedAt: now - (i + 1) * 60_000,
        labelIndex: 1,
        confidence: null,
        sizePx: 100,
        data: await shapePng('disc', 700 + i),
      });
    const url = `/api/ai/corrected-counts?dev_id=A1&start=${now - 3_600_000}&end=${now}`;
    const both = await twice(() => send(w.tokens.user, 'GET', url));
    expect(both.map((a) => a.code)).toEqual([1000, 1000]);
    expect(both[0]!.data).toEqual(both[1]!.data);
    const items = (both[0]!.data as { items: { raw: number; other: number }[] }).items;
    expect(items.reduce((n, i) => n + i.raw, 0)).toBe(3);
    expect(items.reduce((n, i) => n + i.other, 0)).toBe(3);
  });
});
