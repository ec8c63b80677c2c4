import type { ClassItem, TreeNode } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

type Token = string | undefined;

/**
 * Issue 37: a class a team hides from its plain users is hidden in every answer that names classes or counts by
 * class — ecology, corrected counts, the overview's 30 days, Data detail's class counts and CSV — and the tree's group
 * counts add up to the classes it shows. Administrators (and the superadmin) still get it.
 */
describe.each(dialects)('a hidden class on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: { id: number; key: string };
  let seed = 0;
  let copepod: ClassItem;

  const okData = async <T>(token: Token, url: string): Promise<T> => {
    const res = body(await call(env, token, 'GET', url)) as { code: number; data: unknown };
    if (res.code !== 1000) throw new Error(`${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };
  const roi = async (label: number) => {
    const res = body(
      await uploadRoi(
        env,
        a1.key,
        { captured_at: env.clock.now - 10 * 60_000, label_index: label, size_px: 2500 },
        await pngOf(++seed),
      ),
    );
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
  };
  const range = () => `start=${env.clock.now - 3_600_000}&end=${env.clock.now + 1}`;
  /** Every answer of a plain user's Data detail and overview that could name a class or count by it. */
  const reads = () => [
    '/api/ecology/get-site-ecology?dev_id=A1&period=24h',
    `/api/ai/corrected-counts?dev_id=A1&${range()}`,
    '/api/views/roi30?tz=0',
    '/api/roi/get-site-roi?dev_id=A1&period=24h',
  ];

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    for (const label of [1, 1, 1, 2, 2, 0]) await roi(label); // 3 × 001Copepod, 2 × 002Diatom_chain, 1 unidentified
    copepod = (await okData<ClassItem[]>(w.tokens.user, '/api/tool/sys-init?sort=title')).find((c) => c.title === '001Copepod')!;
    const hide = body(
      await call(env, w.tokens.ownAdmin, 'POST', '/api/roi-index/change-status', { class_id: copepod.id, status: 0 }),
    );
    expect(hide.code).toBe(1000);
  });
  afterEach(() => env.close());

  it("never gives a plain user a hidden class's name or counts; the team's administrator and the superadmin still get it", async () => {
    const names = async (token: Token) => {
      const out: Record<string, boolean> = {};
      for (const url of reads()) {
        const text = JSON.stringify(await okData(token, url));
        out[url.split('?')[0]!] = text.includes('001Copepod') || text.includes(`"class_id":${copepod.id},`);
      }
      return out;
    };
    const each = (named: boolean) => Object.fromEntries(reads().map((url) => [url.split('?')[0]!, named]));
    expect(await names(w.tokens.user)).toEqual(each(false));
    expect(await names(w.tokens.ownAdmin)).toEqual(each(true));
    expect(await names(w.tokens.superadmin)).toEqual(each(true));
  });

  it('leaves the hidden class out of the ecology sums ("all classes" is all the classes the user sees)', async () => {
    type Eco = { count: number; classes: { class_id: number | null; count: number }[]; buckets: { count: number }[] };
    const url = '/api/ecology/get-site-ecology?dev_id=A1&period=24h';
    const user = await okData<Eco>(w.tokens.user, url);
    const admin = await okData<Eco>(w.tokens.ownAdmin, url);
    expect(admin.count).toBe(6);
    expect(user.count).toBe(3);
    expect(user.classes.reduce((a, c) => a + c.count, 0)).toBe(3);
    expect(user.buckets.reduce((a, b) => a + b.count, 0)).toBe(3);
    // The CSV of the series is the same answer: its ROIs column sums to the classes the user sees.
    const rois = async (token: Token) => {
      const lines = (await call(env, token, 'GET', `/api/ecology/export-site-ecology?dev_id=A1&period=24h`)).body.split('\r\n');
      const column = lines[0]!
        .replace(/^\uFEFF/, '')
        .split(',')
        .indexOf('rois');
      return lines.slice(1).reduce((a, line) => a + (Number(line.split(',')[column]) || 0), 0);
    };
    expect([await rois(w.tokens.user), await rois(w.tokens.ownAdmin)]).toEqual([3, 6]);
    // Naming the hidden class in the selection gives nothing of it.
    const picked = await okData<Eco>(w.tokens.user, `${url}&classes=${copepod.id}`);
    expect([picked.count, picked.classes.some((c) => c.class_id === copepod.id)]).toEqual([0, false]);
  });

  it("keeps the class in Data detail's chart total and in others, but names it in neither the pie nor the CSV", async () => {
    type Site = { total: number; others: number; top_classes: { name: string | null; count: number }[] };
    const site = await okData<Site>(w.tokens.user, '/api/roi/get-site-roi?dev_id=A1&period=24h');
    expect(site.total).toBe(6);
    expect(site.top_classes.map((c) => [c.name, c.count])).toEqual([
      ['002Diatom_chain', 2],
      [null, 1],
    ]);
    expect(site.others).toBe(3);
    const csv = (token: Token) => call(env, token, 'GET', '/api/roi/export-site-data?dev_id=A1&period=24h');
    const userCsv = (await csv(w.tokens.user)).body;
    expect(userCsv.split('\r\n')[0]).toContain('002Diatom_chain');
    expect(userCsv).not.toContain('001Copepod');
    expect((await csv(w.tokens.ownAdmin)).body.split('\r\n')[0]).toContain('001Copepod');
  });

  it('counts beside a group what the classes under it add up to: the plain user the classes shown, the administrator all', async () => {
    const aiGroup = async (token: Token) => {
      const tree = await okData<TreeNode[]>(token, `/api/roi-index/index?category_id=-100&ipp_id=${a1.id}`);
      return tree.find((n) => n.code === 't:ai')!;
    };
    const user = await aiGroup(w.tokens.user);
    expect(user.children.map((c) => c.title)).not.toContain('001Copepod');
    expect(user.count).toBe(user.children.reduce((a, c) => a + c.count, 0));
    expect(user.count).toBe(2);
    const admin = await aiGroup(w.tokens.ownAdmin);
    expect(admin.count).toBe(5);
    expect(admin.count).toBe(admin.children.reduce((a, c) => a + c.count, 0));
  });
});
