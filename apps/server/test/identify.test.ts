import {
  CATEGORY,
  envelopeOf,
  RoiPageSchema,
  type Actions,
  type Category,
  type RoiItem,
  type RoiPage,
  type TreeNode,
} from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';
import { mulberry32 } from '../src/lib/random.ts';

const MIN = 60_000;
type Token = string | undefined;

describe.each(dialects)('identify workspace on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: { id: number; key: string };
  let b1: { id: number; key: string };
  let seed = 0;
  /** ROIs of station A1, oldest first: labels 1 1 2 0 3 1 (AI copepods, a diatom chain, an unlabelled one...). */
  let aRois: number[];
  let bRoi: number;

  const now = () => env.clock.now;
  const roi = async (key: string, capturedAt: number, label: number, sizePx = 2500) => {
    const res = body(
      await uploadRoi(env, key, { captured_at: capturedAt, label_index: label, size_px: sizePx }, await pngOf(++seed)),
    );
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
    return (res.data as { roi_id: number }).roi_id;
  };
  const okData = async <T>(token: Token, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const res = body(await call(env, token, method, url, payload));
    if (res.code !== 1000) throw new Error(`${method} ${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };
  const fail = async (token: Token, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
    body(await call(env, token, method, url, payload, lang)) as { code: number; msg: string; model: { field?: string } | null };
  const list = async (token: Token, query: string) => {
    const res = body(await call(env, token, 'GET', `/api/roi/index?${query}`));
    if (res.code !== 1000) throw new Error(`list ${query}: ${JSON.stringify(res)}`);
    return { ...(res.data as RoiPage), count: res.count as number };
  };
  const ids = (items: RoiItem[]) => items.map((r) => r.id);
  const tree = (token: Token, query: string) => okData<TreeNode[]>(token, 'GET', `/api/roi-index/index?${query}`);
  const find = (nodes: TreeNode[], pred: (n: TreeNode) => boolean): TreeNode | undefined => {
    for (const n of nodes) {
      if (pred(n)) return n;
      const inner = find(n.children, pred);
      if (inner) return inner;
    }
    return undefined;
  };
  const newFolder = async (token: Token, title: string, categoryId: number = CATEGORY.FOLDERS, extra: object = {}) =>
    okData<{ roi_index_id: number; code: string; roi_index_code: string }>(token, 'POST', '/api/roi-index/save', {
      title,
      category_id: categoryId,
      ...extra,
    });
  const act = (token: Token, payload: object) =>
    okData<{ affected: number; unchanged: number }>(token, 'POST', '/api/roi/save-move', payload);

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    aRois = [];
    const labels = [1, 1, 2, 0, 3, 1];
    for (const [i, label] of labels.entries()) aRois.push(await roi(a1.key, now() - (60 - i * 10) * MIN, label, 1000 + i * 100));
    bRoi = await roi(b1.key, now() - 5 * MIN, 1);
  });
  afterEach(() => env.close());

  it('lists the categories each role may open, with counts', async () => {
    const keys = async (token: Token) => (await okData<Category[]>(token, 'GET', '/api/roi/categorys')).map((c) => c.key);
    expect(await keys(w.tokens.superadmin)).toEqual(
      expect.arrayContaining(['site', 'all', 'xcube', 'team', 'review', 'recycle']),
    );
    expect(await keys(w.tokens.ownAdmin)).toContain('example');
    expect(await keys(w.tokens.ownAdmin)).not.toContain('xcube');
    expect(await keys(w.tokens.user)).not.toContain('recycle');
    const site = (await okData<Category[]>(w.tokens.user, 'GET', '/api/roi/categorys')).find((c) => c.key === 'site');
    expect(site?.count).toBe(6); // team A's ROIs only
  });

  it('builds the site images tree: AI / HI / UI groups by class, empty classes hidden unless asked', async () => {
    const nodes = await tree(w.tokens.user, `category_id=-100&ipp_id=${a1.id}`);
    const ai = nodes.find((n) => n.code === 't:ai');
    expect(ai?.count).toBe(5);
    expect(ai?.children.map((c) => [c.title, c.count])).toEqual([
      ['001Copepod', 3],
      ['002Diatom_chain', 1],
      ['003Dinoflagellate', 1],
    ]);
    expect(nodes.find((n) => n.code === 't:ui')?.count).toBe(1);
    const withEmpty = await tree(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&show_empty=1`);
    expect(withEmpty.find((n) => n.code === 't:ai')!.children.length).toBeGreaterThan(3);
    // A class node lists exactly its ROIs.
    const copepods = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&code=${ai!.children[0]!.code}`);
    expect(ids(copepods.items).sort()).toEqual([aRois[0], aRois[1], aRois[5]].sort());
    // Its total comes from the maintained counts, and agrees with a counted one (a time filter forces counting).
    expect(copepods.count).toBe(3);
    const counted = await list(
      w.tokens.user,
      `category_id=-100&ipp_id=${a1.id}&code=${ai!.children[0]!.code}&Roi_time_s=-24 hour`,
    );
    expect(counted.count).toBe(3);
    // Another team's station answers like a missing one.
    expect((await fail(w.tokens.user, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${b1.id}`)).code).toBe(1002);
  });

  it('pages with a keyset: cursors and page numbers agree, and inserts during paging neither repeat nor skip', async () => {
    const all = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&limit=100`);
    expect(all.count).toBe(6);
    expect(ids(all.items)).toEqual([...aRois].reverse()); // newest first by default
    const first = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&limit=4`);
    expect(first.next).not.toBeNull();
    // A new ROI arrives while the user reads page 1; it is newer than everything, so page 2 is unchanged.
    await roi(a1.key, now(), 1);
    const second = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&limit=4&after=${first.next}`);
    expect([...ids(first.items), ...ids(second.items)]).toEqual([...aRois].reverse());
    expect(second.next).toBeNull();
    // A page reached by cursor is not counted again.
    expect(second.count).toBe(-1);
    // Ascending by size, page 2 by number equals page 2 by cursor.
    const bySize1 = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&limit=3&diysort=size&sorttype=asc`);
    const bySize2 = await list(
      w.tokens.user,
      `category_id=-100&ipp_id=${a1.id}&limit=3&diysort=size&sorttype=asc&after=${bySize1.next}`,
    );
    const byPage2 = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&limit=3&diysort=size&sorttype=asc&page=2`);
    expect(ids(bySize2.items)).toEqual(ids(byPage2.items));
    expect(bySize1.items.map((r) => r.size_px)).toEqual([...bySize1.items.map((r) => r.size_px)].sort((a, b) => a - b));
    // Neighbours follow the same order.
    const adj = await okData<{ previous_id: number | null; next_id: number | null }>(
      w.tokens.user,
      'GET',
      `/api/roi/get-adjacent-roi?category_id=-100&ipp_id=${a1.id}&roi_id=${aRois[2]}&sorttype=asc`,
    );
    expect(adj).toEqual({ previous_id: aRois[1], next_id: aRois[3] });
    expect((await fail(w.tokens.user, 'GET', `/api/roi/index?category_id=-100&ipp_id=${a1.id}&after=garbage`)).model?.field).toBe(
      'after',
    );
  });

  it('filters by recognition group, size range (upper bound defaulting to the lower) and time range with the spec messages', async () => {
    expect(ids((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&dataIndex=ui`)).items)).toEqual([aRois[3]]);
    expect(ids((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&coordRange_0=1200`)).items)).toEqual([aRois[2]]);
    expect((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&coordRange_0=1200&coordRange_1=1400`)).count).toBe(3);
    // A relative start alone is fine; an absolute start alone is "unsupported type"; an end alone is a date error.
    expect((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&Roi_time_s=-24 hour`)).count).toBe(6);
    const lonely = await fail(
      w.tokens.user,
      'GET',
      `/api/roi/index?category_id=-100&ipp_id=${a1.id}&Roi_time_s=2026-11-01`,
      undefined,
      'zh',
    );
    expect([lonely.code, lonely.msg]).toEqual([1002, '不支持类型']);
    const endOnly = await fail(
      w.tokens.user,
      'GET',
      `/api/roi/index?category_id=-100&ipp_id=${a1.id}&Roi_time_e=2026-11-01`,
      undefined,
      'zh',
    );
    expect([endOnly.code, endOnly.msg]).toEqual([1002, '日期格式错误']);
    const bad = await fail(
      w.tokens.user,
      'GET',
      `/api/roi/index?category_id=-100&ipp_id=${a1.id}&Roi_time_s=2026-02-30&Roi_time_e=2026-03-01`,
    );
    expect(bad.model?.field).toBe('Roi_time_s');
    // An absolute range in the viewer's zone: the last 25 minutes before now (08:00 UTC) at UTC+8 is 15:35-16:00.
    const recent = await list(
      w.tokens.user,
      `category_id=-100&ipp_id=${a1.id}&Roi_time_s=2026-11-22 15:35:00&Roi_time_e=2026-11-22 16:00:00&tz=480`,
    );
    expect(ids(recent.items)).toEqual([aRois[5], aRois[4]]);
  });

  it('counts a time range exactly: whole hours from the rollups, the ends from the rows, recycled ROIs left out', async () => {
    // ROIs over six hours before now (08:00 UTC), several exactly on an hour, some recycled.
    const HOUR = 60 * MIN;
    const r = mulberry32(7);
    const rand = (n: number) => Math.floor(r() * n);
    const base = now() - 6 * HOUR;
    const extra: number[] = [];
    for (let i = 0; i < 30; i++) {
      const at = i % 5 === 0 ? base + rand(7) * HOUR : base + rand(6 * 3600) * 1000;
      extra.push(await roi(a1.key, at, 1 + (i % 3)));
    }
    await act(w.tokens.ownAdmin, { type: '2', category_id: -1000, roi_ids: [extra[0], extra[7], extra[13]] });
    const stamp = (t: number) => new Date(t).toISOString().slice(0, 19).replace('T', ' ');
    const ranges: [number, number][] = [
      [base, now()],
      [base + HOUR, base + 3 * HOUR],
      [base + HOUR, base + 3 * HOUR - 1000],
      [base + 20 * MIN, base + 20 * MIN + 30 * MIN],
    ];
    for (let i = 0; i < 16; i++) {
      const a = base - HOUR + rand(8 * 3600) * 1000;
      ranges.push([a, a + rand(5 * 3600) * 1000]);
    }
    for (const [start, end] of ranges) {
      const query = `category_id=-100&ipp_id=${a1.id}&Roi_time_s=${stamp(start)}&Roi_time_e=${stamp(end)}&tz=0&limit=1000`;
      const listed = await list(w.tokens.user, query);
      expect(listed.next).toBeNull();
      expect({ range: [stamp(start), stamp(end)], count: listed.count }).toEqual({
        range: [stamp(start), stamp(end)],
        count: listed.items.length,
      });
    }
    // A relative start: every live ROI of the station in the last 24 hours.
    expect((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&Roi_time_s=-24 hour`)).count).toBe(6 + 30 - 3);
  });

  it('answers the ROI lists exactly as the contract says, field for field (they skip the encode: presentedJson)', async () => {
    const f = await newFolder(w.tokens.ownAdmin, '103Strict');
    await act(w.tokens.ownAdmin, { type: '51', category_id: -100, roi_ids: [aRois[0], aRois[1]], target_id: f.roi_index_id });
    await act(w.tokens.ownAdmin, { type: '2', category_id: -1000, roi_ids: [aRois[2]] });
    const urls = [
      `/api/roi/index?category_id=-100&ipp_id=${a1.id}`,
      '/api/roi/index?category_id=-8',
      `/api/roi/all?dev_id=A1`,
      `/api/folder/get-folder-by-roi-index?roi_index_id=${f.roi_index_id}`,
      `/api/roi/get-roi-by-code?roi_index_code=${f.roi_index_code}`,
    ];
    const strict = envelopeOf(RoiPageSchema);
    for (const url of urls) {
      const res = await call(env, w.tokens.ownAdmin, 'GET', url);
      const json = res.json() as { code: number; data: RoiPage };
      expect([url, json.code]).toEqual([url, 1000]);
      expect(json.data.items.length).toBeGreaterThan(0);
      // Parsing strips any field the contract does not name and fails on a wrong type: the answer must survive unchanged.
      expect(strict.parse(json)).toEqual(json);
    }
  });

  it('offers exactly the action codes of docs/actions.md per category and role, and refuses the others', async () => {
    const codes = async (token: Token, categoryId: number, reviewed?: number) =>
      (
        await okData<Actions>(
          token,
          'GET',
          `/api/roi/actions?category_id=${categoryId}${reviewed === undefined ? '' : `&reviewed_type=${reviewed}`}`,
        )
      ).actions.map((a) => a.code);
    expect(await codes(w.tokens.superadmin, -100)).toEqual([
      '51',
      '54',
      '61',
      '71',
      '31',
      '41',
      'B001',
      '23',
      '13',
      '81',
      '82',
      '83',
    ]);
    expect(await codes(w.tokens.ownAdmin, -100)).toEqual(['51', '54', '61', '71', '31', '41', '23', '13', '81', '82', '83']);
    expect(await codes(w.tokens.user, -100)).toEqual(['51', '54', '61', '71', '23', '13', '81', '82', '83']);
    expect(await codes(w.tokens.superadmin, -1)).toEqual(['B002']);
    expect(await okData<Actions>(w.tokens.ownAdmin, 'GET', '/api/roi/actions?category_id=-1')).toEqual({
      actions: [],
      reason: 'example',
    });
    expect(await codes(w.tokens.ownAdmin, -2)).toEqual(['52', '43', '51', '81', '82', '83']);
    expect(await codes(w.tokens.user, -2)).toEqual(['51']);
    expect(await codes(w.tokens.user, -3)).toEqual([]);
    expect(await codes(w.tokens.user, -4)).toEqual(['51', '62', '81', '82', '83']);
    expect(await codes(w.tokens.user, -5)).toEqual(['51', '52', '53', '21', '81', '82', '83']);
    expect(await codes(w.tokens.ownAdmin, -7, 1)).toEqual(['112']);
    expect(await codes(w.tokens.ownAdmin, -7, 0)).toEqual(['110', '111', '82']);
    expect(await codes(w.tokens.user, -7)).toEqual([]);
    expect(await codes(w.tokens.ownAdmin, -8)).toEqual(['113']);
    expect(await codes(w.tokens.ownAdmin, -1000)).toEqual(['2', '23', '81', '82', '83']);
    expect(await codes(w.tokens.user, -1000)).toEqual(['23', '81', '82', '83']);
    const described = await okData<Actions>(w.tokens.user, 'GET', '/api/roi/actions?category_id=-100');
    expect(described.actions.find((a) => a.code === '23')).toMatchObject({ target: 'class', no_ai: true, confirm: true });
    // Adding to favourites copies the ROIs into the favourites gallery: spec §8 asks before every copy.
    expect(described.actions.find((a) => a.code === '61')).toMatchObject({ confirm: true });

    // The server refuses what the matrix does not allow, whatever the request says.
    const refused = async (token: Token, payload: object) => (await fail(token, 'POST', '/api/roi/save-move', payload)).code;
    expect(await refused(w.tokens.user, { type: '2', category_id: -1000, roi_ids: [aRois[0]] })).toBe(1011);
    expect(await refused(w.tokens.user, { type: '31', category_id: -100, roi_ids: [aRois[0]] })).toBe(1011);
    expect(await refused(w.tokens.ownAdmin, { type: 'B001', category_id: -100, roi_ids: [aRois[0]] })).toBe(1011);
    expect(await refused(w.tokens.user, { type: '110', category_id: -7, roi_ids: [aRois[0]] })).toBe(1011);
    expect(await refused(w.tokens.ownAdmin, { type: '110', category_id: -7, reviewed_type: 1, roi_ids: [aRois[0]] })).toBe(1011);
    const example = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
      type: 'B002',
      category_id: -1,
      roi_ids: [aRois[0]],
    });
    expect([example.code, example.msg]).toEqual([1011, 'Operation not supported for Example ROIs']);
    // 23 and 13 need a selection without AI-labelled ROIs (aRois[0] is AI, aRois[3] unlabelled).
    const ai = await fail(w.tokens.user, 'POST', '/api/roi/save-move', {
      type: '23',
      category_id: -100,
      roi_ids: [aRois[0]],
      target_id: 1,
    });
    expect(ai.code).toBe(1011);
    // Parameters may come in the query, as the spec sends them.
    const viaQuery = body(
      await call(env, w.tokens.user, 'POST', `/api/roi/save-move?type=61&category_id=-100`, { roi_ids: [aRois[0]] }),
    );
    expect(viaQuery.code).toBe(1000);
    expect((await fail(w.tokens.user, 'POST', '/api/roi/save-move', { roi_ids: [aRois[0]] })).model?.field).toBe('type');
  });

  it('copies and moves between folders: copy adds a second place, move leaves the first', async () => {
    const f1 = await newFolder(w.tokens.user, '100Keep');
    const f2 = await newFolder(w.tokens.user, '101Later');
    const pick = [aRois[0], aRois[1], aRois[2]];
    expect(
      (await act(w.tokens.user, { type: '51', category_id: -100, roi_ids: pick, target_id: f1.roi_index_id })).affected,
    ).toBe(3);
    // Copying again changes nothing.
    expect(await act(w.tokens.user, { type: '51', category_id: -100, roi_ids: pick, target_id: f1.roi_index_id })).toMatchObject({
      affected: 0,
      unchanged: 3,
    });
    await act(w.tokens.user, {
      type: '52',
      category_id: 0,
      code: `f:${f1.roi_index_id}`,
      roi_ids: [aRois[0], aRois[1]],
      target_id: f2.roi_index_id,
    });
    const folders = await tree(w.tokens.user, 'category_id=0');
    expect(find(folders, (n) => n.roi_index_id === f1.roi_index_id)?.count).toBe(1);
    expect(find(folders, (n) => n.roi_index_id === f2.roi_index_id)?.count).toBe(2);
    expect(ids((await list(w.tokens.user, `category_id=0&code=f:${f2.roi_index_id}`)).items).sort()).toEqual(
      [aRois[0], aRois[1]].sort(),
    );
    // The ROIs are still in the station's images.
    expect((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}`)).count).toBe(6);
    // Remove from this folder (53) takes them out of that folder only.
    await act(w.tokens.user, { type: '53', category_id: 0, code: `f:${f2.roi_index_id}`, roi_ids: [aRois[0]] });
    expect((await list(w.tokens.user, `category_id=0&code=f:${f2.roi_index_id}`)).count).toBe(1);
    // Another team cannot see, target or list the folder.
    expect((await fail(w.tokens.otherAdmin, 'GET', `/api/roi/index?category_id=0&code=f:${f1.roi_index_id}`)).code).toBe(1002);
    const foreign = await fail(w.tokens.otherAdmin, 'POST', '/api/roi/save-move', {
      type: '51',
      category_id: -100,
      roi_ids: [bRoi],
      target_id: f1.roi_index_id,
    });
    expect(foreign.code).toBe(1002);
    // A selection holding another team's ROI fails whole, and nothing changes.
    const mixed = await fail(w.tokens.user, 'POST', '/api/roi/save-move', {
      type: '51',
      category_id: -100,
      roi_ids: [aRois[4], bRoi],
      target_id: f1.roi_index_id,
    });
    expect(mixed.code).toBe(1002);
    expect((await list(w.tokens.user, `category_id=0&code=f:${f1.roi_index_id}`)).count).toBe(1);
    // Copy a whole folder into a new temporary class; move a folder's images into another folder; to_hi needs the class.
    const tmp = await okData<{ roi_index_id: number }>(w.tokens.user, 'POST', '/api/folder/operate-folder', {
      type: 'copy',
      roi_index_id: f2.roi_index_id,
      category_id: CATEGORY.TEMPORARY,
    });
    expect(find(await tree(w.tokens.user, 'category_id=-5'), (n) => n.roi_index_id === tmp.roi_index_id)).toMatchObject({
      title: '101Later',
      count: 1,
    });
    // The images only, into an existing folder named by its tree code (as the tree gives it) or its stored code.
    expect(f1.code).toBe(`f:${f1.roi_index_id}`);
    const imagesOnly = await okData<{ affected: number }>(w.tokens.user, 'POST', '/api/folder/operate-folder', {
      type: 'copy',
      roi_index_id: f2.roi_index_id,
      roi_index_code: f1.code,
    });
    expect(imagesOnly.affected).toBe(1);
    expect((await list(w.tokens.user, `category_id=0&code=${f1.code}`)).count).toBe(2);
    const byStored = await okData<{ affected: number }>(w.tokens.user, 'POST', '/api/folder/operate-folder', {
      type: 'copy',
      roi_index_id: f2.roi_index_id,
      roi_index_code: f1.roi_index_code,
    });
    expect(byStored.affected).toBe(0); // already there
    const noClass = await fail(w.tokens.user, 'POST', '/api/folder/operate-folder', {
      type: 'to_hi',
      roi_index_id: f2.roi_index_id,
    });
    expect(noClass.msg).toBe('No 101Later Class under HI ROIs');
  });

  it('recycles, restores and purges ROIs with every count following', async () => {
    const f = await newFolder(w.tokens.ownAdmin, '102Bin');
    await act(w.tokens.ownAdmin, { type: '51', category_id: -100, roi_ids: [aRois[0], aRois[4]], target_id: f.roi_index_id });
    const before = await okData<Category[]>(w.tokens.ownAdmin, 'GET', '/api/roi/categorys');
    await act(w.tokens.ownAdmin, { type: '2', category_id: -1000, roi_ids: [aRois[0], aRois[4]] });
    const site = () => list(w.tokens.ownAdmin, `category_id=-100&ipp_id=${a1.id}`);
    expect((await site()).count).toBe(4);
    expect(ids((await list(w.tokens.ownAdmin, 'category_id=-8')).items).sort()).toEqual([aRois[0], aRois[4]].sort());
    const folderCount = async () =>
      find(await tree(w.tokens.ownAdmin, 'category_id=0'), (n) => n.roi_index_id === f.roi_index_id)?.count;
    expect(await folderCount()).toBe(0);
    const ai = async () =>
      (await tree(w.tokens.ownAdmin, `category_id=-100&ipp_id=${a1.id}`)).find((n) => n.code === 't:ai')?.count;
    expect(await ai()).toBe(3);
    const after = await okData<Category[]>(w.tokens.ownAdmin, 'GET', '/api/roi/categorys');
    expect(after.find((c) => c.key === 'recycle')?.count).toBe(2);
    expect(after.find((c) => c.key === 'site')!.count).toBe(before.find((c) => c.key === 'site')!.count - 2);
    // The user sees no recycle bin and cannot restore.
    expect(
      (await fail(w.tokens.user, 'POST', '/api/roi/save-move', { type: '113', category_id: -8, roi_ids: [aRois[0]] })).code,
    ).toBe(1011);
    // Restore one: back in its class and its folder.
    await act(w.tokens.ownAdmin, { type: '113', category_id: -8, roi_ids: [aRois[0]] });
    expect((await site()).count).toBe(5);
    expect(await folderCount()).toBe(1);
    expect(await ai()).toBe(4);
    // Purge the other: gone for good, counts unchanged, a second purge finds nothing.
    expect(await okData(w.tokens.ownAdmin, 'POST', '/api/roi-group/re-bin', { action: 'delete', roi_ids: [aRois[4]] })).toEqual({
      affected: 1,
    });
    expect((await list(w.tokens.ownAdmin, 'category_id=-8')).count).toBe(0);
    expect(await ai()).toBe(4);
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/roi-group/re-bin', { action: 're', roi_ids: [aRois[4]] })).code).toBe(
      1002,
    );
    // The other team's administrator cannot restore team A's ROIs.
    await act(w.tokens.ownAdmin, { type: '2', category_id: -1000, roi_ids: [aRois[1]] });
    expect((await fail(w.tokens.otherAdmin, 'POST', '/api/roi-group/re-bin', { action: 're', roi_ids: [aRois[1]] })).code).toBe(
      1002,
    );
    // Emptying the bin purges team A's recycled ROIs only.
    await act(w.tokens.otherAdmin, { type: '2', category_id: -1000, roi_ids: [bRoi] });
    expect(await okData(w.tokens.ownAdmin, 'POST', '/api/roi-group/delete', { category_id: -8 })).toEqual({ affected: 1 });
    expect((await list(w.tokens.otherAdmin, 'category_id=-8')).count).toBe(1);
  });

  it('purges what stayed in the recycle bin longer than the retention setting, with its counts', async () => {
    await okData(w.tokens.superadmin, 'POST', '/api/setting/save', { recycle_retention_days: 30 });
    await act(w.tokens.ownAdmin, { type: '2', category_id: -1000, roi_ids: [aRois[0]] });
    env.clock.advance(20 * 86_400_000);
    // Sessions expire over three weeks: sign in again.
    w.tokens.ownAdmin = await login(env, 'admin_a');
    await act(w.tokens.ownAdmin, { type: '2', category_id: -1000, roi_ids: [aRois[1]] });
    env.clock.advance(11 * 86_400_000);
    w.tokens.ownAdmin = await login(env, 'admin_a');
    expect(await env.app.recycle.sweep()).toBe(1);
    expect(ids((await list(w.tokens.ownAdmin, 'category_id=-8')).items)).toEqual([aRois[1]]);
    expect(await env.db.kysely.selectFrom('rois').select('id').where('id', '=', aRois[0]!).executeTakeFirst()).toBeUndefined();
    // Restoring the other still works, and the counts add up: 6 - 1 purged.
    await act(w.tokens.ownAdmin, { type: '113', category_id: -8, roi_ids: [aRois[1]] });
    const nodes = await tree(w.tokens.ownAdmin, `category_id=-100&ipp_id=${a1.id}`);
    expect(nodes.reduce((a, n) => a + n.count, 0)).toBe(5);
    expect(await env.app.recycle.sweep()).toBe(0);
  });

  it('names classes by the rule, creates HI classes under site images, and labels ROIs by hand', async () => {
    const save = (token: Token, title: string, categoryId = -100, lang = 'en') =>
      fail(token, 'POST', '/api/roi-index/save', { title, category_id: categoryId, ipp_id: a1.id }, lang);
    expect((await save(w.tokens.ownAdmin, '   ')).msg).toBe('Class name can not be empty');
    expect((await save(w.tokens.ownAdmin, 'Copepod')).msg).toBe('Naming does not conform to the specifications.');
    expect((await save(w.tokens.ownAdmin, '12Copepod', -100, 'zh')).msg).toBe('命名不符合规范');
    expect((await save(w.tokens.ownAdmin, '009 Noctiluca')).code).toBe(1002);
    expect((await save(w.tokens.ownAdmin, '001Other')).msg).toBe('Label index 001 is already used by class 001Copepod');
    expect((await save(w.tokens.user, '009Noctiluca')).code).toBe(1011);
    const created = await okData<{ class_id: number; code: string }>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
      title: '009Noctiluca',
      category_id: -100,
      ipp_id: a1.id,
    });
    expect((await save(w.tokens.ownAdmin, '009Noctiluca')).code).toBe(1002);
    // Move the unlabelled ROI to the new HI class (23, no AI in the selection); then back with redo HI (13).
    await act(w.tokens.user, { type: '23', category_id: -100, roi_ids: [aRois[3]], target_id: created.class_id });
    const hi = (await tree(w.tokens.user, `category_id=-100&ipp_id=${a1.id}`)).find((n) => n.code === 't:hi');
    expect(hi?.children.map((c) => [c.title, c.count])).toEqual([['009Noctiluca', 1]]);
    await act(w.tokens.user, { type: '13', category_id: -100, roi_ids: [aRois[3]] });
    expect(ids((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&dataIndex=ui`)).items)).toEqual([aRois[3]]);
    // Labelling by label index, and 0 returns the AI label.
    expect(await okData(w.tokens.user, 'GET', `/api/roi/set-roi-label-index?roi_id=${aRois[0]}&roi_labelindex=9`)).toEqual({
      class_id: created.class_id,
      hi: 1,
    });
    const back = await okData<{ hi: number }>(
      w.tokens.user,
      'GET',
      `/api/roi/set-roi-label-index?roi_id=${aRois[0]}&roi_labelindex=0`,
    );
    expect(back.hi).toBe(0);
    expect(
      (await fail(w.tokens.otherAdmin, 'GET', `/api/roi/set-roi-label-index?roi_id=${aRois[0]}&roi_labelindex=9`)).code,
    ).toBe(1002);
    // A class in use cannot be deleted; system classes never; an unused one can. Rename keeps the label index.
    await okData(w.tokens.user, 'GET', `/api/roi/set-roi-label-index?roi_id=${aRois[0]}&roi_labelindex=9`);
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/roi-index/delete-folder', { class_id: created.class_id })).msg).toMatch(
      /still has 1 image/,
    );
    expect(
      (await fail(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', { class_id: created.class_id, title: '010Noctiluca' }))
        .code,
    ).toBe(1002);
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', {
      class_id: created.class_id,
      title: '009Noctiluca_scintillans',
    });
    const classes = await okData<{ id: number; title: string; system: boolean }[]>(
      w.tokens.user,
      'GET',
      '/api/tool/sys-init?sort=title',
    );
    expect(classes.map((c) => c.title)).toEqual([...classes.map((c) => c.title)].sort((a, b) => a.localeCompare(b)));
    expect(classes.find((c) => c.id === created.class_id)?.title).toBe('009Noctiluca_scintillans');
    const system = classes.find((c) => c.system)!;
    expect((await fail(w.tokens.superadmin, 'POST', '/api/roi-index/delete-folder', { class_id: system.id })).code).toBe(1011);
    // Attention highlights the class in the tree; a system class's is the superadmin's (classes.test.ts).
    await okData(w.tokens.superadmin, 'POST', '/api/roi-index/change-status', { class_id: system.id, attention: true });
    const marked = (await tree(w.tokens.user, `category_id=-100&ipp_id=${a1.id}`)).find((n) => n.code === 't:ai')!;
    expect(marked.children.find((c) => c.class_id === system.id)?.attention).toBe(true);
  });

  it('keeps folders per scope: temporary classes per user, galleries per team, the Xcube library global and read-only', async () => {
    const mine = await newFolder(w.tokens.user, '200Mine', CATEGORY.TEMPORARY);
    expect(await tree(w.tokens.ownAdmin, 'category_id=-5')).toEqual([]);
    expect(
      (await fail(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', { roi_index_id: mine.roi_index_id, title: '201X' })).code,
    ).toBe(1002);
    expect((await fail(w.tokens.user, 'POST', '/api/roi-index/save', { title: '202Team', category_id: -2 })).code).toBe(1011);
    // Copy to a new temporary class (54) checks the name.
    expect(
      (
        await fail(w.tokens.user, 'POST', '/api/roi/save-move', {
          type: '54',
          category_id: -100,
          roi_ids: [aRois[0]],
          title: 'bad',
        })
      ).code,
    ).toBe(1002);
    const tmp = await okData<{ roi_index_id: number }>(w.tokens.user, 'POST', '/api/roi/save-move', {
      type: '54',
      category_id: -100,
      roi_ids: [aRois[0]],
      title: '203Work',
    });
    expect(find(await tree(w.tokens.user, 'category_id=-5'), (n) => n.roi_index_id === tmp.roi_index_id)?.count).toBe(1);
    // Team gallery (41) files ROIs under their class; the Xcube library (B001) likewise, for everyone to read.
    await act(w.tokens.ownAdmin, { type: '41', category_id: -100, roi_ids: [aRois[0], aRois[2]] });
    expect((await tree(w.tokens.user, 'category_id=-2')).map((n) => [n.title, n.count])).toEqual([
      ['001Copepod', 1],
      ['002Diatom_chain', 1],
    ]);
    expect(await tree(w.tokens.otherAdmin, 'category_id=-2')).toEqual([]);
    await act(w.tokens.superadmin, { type: 'B001', category_id: -100, roi_ids: [aRois[0]] });
    expect((await tree(w.tokens.otherAdmin, 'category_id=-1')).map((n) => n.title)).toEqual(['001Copepod']);
    expect((await list(w.tokens.otherAdmin, 'category_id=-6')).count).toBe(1);
    const xcubeFolder = (await tree(w.tokens.superadmin, 'category_id=-1'))[0]!;
    expect(
      (await fail(w.tokens.otherAdmin, 'POST', '/api/roi-index/delete-folder', { roi_index_id: xcubeFolder.roi_index_id })).code,
    ).toBe(1011);
    expect(
      (
        await fail(w.tokens.superadmin, 'POST', '/api/roi/save-move', {
          type: 'B002',
          category_id: -1,
          roi_ids: [aRois[0], aRois[1]],
        })
      ).code,
    ).toBe(1011);
    await act(w.tokens.superadmin, { type: 'B002', category_id: -1, roi_ids: [aRois[0]] });
    expect((await list(w.tokens.otherAdmin, 'category_id=-6')).count).toBe(0);
    // Toolbar shortcuts are per user.
    const item = await okData<{ id: number }>(w.tokens.user, 'POST', '/api/roi-index/add-tool-bar', {
      category_id: -5,
      code: `f:${tmp.roi_index_id}`,
      title: '203Work',
    });
    expect((await okData<unknown[]>(w.tokens.user, 'GET', '/api/roi-index/tool-bar')).length).toBe(1);
    expect(find(await tree(w.tokens.user, 'category_id=-5'), (n) => n.roi_index_id === tmp.roi_index_id)?.toolbar).toBe(true);
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/roi-index/delete-tool-bar', { id: item.id })).code).toBe(1002);
    await okData(w.tokens.user, 'POST', '/api/roi-index/delete-tool-bar', { id: item.id });
    // Emptying the temporary classes deletes the caller's only.
    expect(await okData(w.tokens.user, 'POST', '/api/folder/delete-temporary-folder', {})).toEqual({ affected: 2 });
  });

  it('reviews: submit, approve (a human label), reject, back to pending', async () => {
    await act(w.tokens.user, { type: '71', category_id: -100, roi_ids: [aRois[0], aRois[1]] });
    expect(ids((await list(w.tokens.ownAdmin, 'category_id=-7')).items).sort()).toEqual([aRois[0], aRois[1]].sort());
    await act(w.tokens.ownAdmin, { type: '110', category_id: -7, roi_ids: [aRois[0]] });
    await act(w.tokens.ownAdmin, { type: '111', category_id: -7, roi_ids: [aRois[1]] });
    expect((await list(w.tokens.ownAdmin, 'category_id=-7')).count).toBe(0);
    const reviewed = await list(w.tokens.ownAdmin, 'category_id=-7&reviewed_type=1');
    expect(reviewed.items.map((r) => [r.id, r.review_status, r.type])).toEqual(
      expect.arrayContaining([
        [aRois[0], 'approved', 'hi'],
        [aRois[1], 'rejected', 'ai'],
      ]),
    );
    // Approving an unlabelled ROI confirms no class: it stays unlabelled (UI), only its review state changes.
    await act(w.tokens.user, { type: '71', category_id: -100, roi_ids: [aRois[3]] });
    await act(w.tokens.ownAdmin, { type: '110', category_id: -7, roi_ids: [aRois[3]] });
    expect(ids((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&dataIndex=ui`)).items)).toEqual([aRois[3]]);
    await act(w.tokens.ownAdmin, { type: '112', category_id: -7, reviewed_type: 1, roi_ids: [aRois[1]] });
    expect(ids((await list(w.tokens.ownAdmin, 'category_id=-7')).items)).toEqual([aRois[1]]);
    expect((await list(w.tokens.otherAdmin, 'category_id=-7')).count).toBe(0);
  });

  it('records who gave a human label and when (move to an HI class, approve, label by index); an AI label clears it', async () => {
    type Labelled = { labelled_by: number | null; labelled_by_name: string | null; labelled_at: number | null; type: string };
    const details = async (token: Token, roiId: number) =>
      (await okData<{ roi: Labelled }>(token, 'GET', `/api/roi/get-roi-details?roi_id=${roiId}`)).roi;
    const provenance = (r: Labelled) => [r.type, r.labelled_by, r.labelled_by_name, r.labelled_at];
    // An AI label has no person.
    expect(provenance(await details(w.tokens.user, aRois[0]!))).toEqual(['ai', null, null, null]);

    // The user moves the unlabelled ROI to an HI class.
    env.clock.advance(MIN);
    const movedAt = now();
    await act(w.tokens.user, { type: '23', category_id: -100, roi_ids: [aRois[3]], change_roi_labelindex: 2 });
    expect(provenance(await details(w.tokens.ownAdmin, aRois[3]!))).toEqual(['hi', w.ids.user, 'Name of user_a', movedAt]);
    // The list items carry the same (the detail pane reads them from the list).
    const hiItems = (await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&dataIndex=hi`)).items as unknown as Labelled[];
    expect(hiItems.map(provenance)).toEqual([['hi', w.ids.user, 'Name of user_a', movedAt]]);

    // The administrator approves an AI label: the approver gave the human label.
    await act(w.tokens.user, { type: '71', category_id: -100, roi_ids: [aRois[1]] });
    env.clock.advance(MIN);
    const approvedAt = now();
    await act(w.tokens.ownAdmin, { type: '110', category_id: -7, roi_ids: [aRois[1]] });
    expect(provenance(await details(w.tokens.user, aRois[1]!))).toEqual(['hi', w.ids.ownAdmin, 'Name of admin_a', approvedAt]);

    // Labelling by label index records the person too; returning to the AI label (0) clears it.
    env.clock.advance(MIN);
    await okData(w.tokens.ownAdmin, 'GET', `/api/roi/set-roi-label-index?roi_id=${aRois[0]!}&roi_labelindex=3`);
    expect(provenance(await details(w.tokens.user, aRois[0]!))).toEqual(['hi', w.ids.ownAdmin, 'Name of admin_a', now()]);
    await okData(w.tokens.ownAdmin, 'GET', `/api/roi/set-roi-label-index?roi_id=${aRois[0]!}&roi_labelindex=0`);
    expect(provenance(await details(w.tokens.user, aRois[0]!))).toEqual(['ai', null, null, null]);
    // Back to AI with redo (13) clears it as well.
    await act(w.tokens.user, { type: '13', category_id: -100, roi_ids: [aRois[3]] });
    expect(provenance(await details(w.tokens.user, aRois[3]!))).toEqual(['ui', null, null, null]);
  });

  it('checks re-identification requests with the spec messages', async () => {
    const missing = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', { dev_id: 'A1' });
    expect(missing.msg).toBe('Please select date');
    // No model trained yet: refused with a clear message (the job path: recognition.test.ts).
    const noModel = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', { dev_id: 'A1', Roi_time_s: '-24 hour' });
    expect([noModel.code, noModel.msg]).toEqual([1002, 'This team has no trained recognition model yet: train one first']);
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', { dev_id: 'B1', Roi_time_s: '-24 hour' })).code).toBe(
      1002,
    );
    expect((await fail(w.tokens.user, 'POST', '/api/roi/re-identify', { dev_id: 'A1', Roi_time_s: '-24 hour' })).code).toBe(1011);
    expect(await env.db.kysely.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });
});
