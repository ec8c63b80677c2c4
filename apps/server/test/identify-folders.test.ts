import { CATEGORY, type TreeNode } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

/**
 * Issue 37, folders: moves of the same images at once, a folder id standing for its category, removal from a
 * team-gallery folder by every call that offers it.
 */
type Token = string | undefined;
const MIN = 60_000;

describe.each(dialects)('identify folders on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let secondAdmin: Token;
  let a1: { id: number; key: string };
  let seed = 0;

  const okData = async <T>(token: Token, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const res = body(await call(env, token, method, url, payload));
    if (res.code !== 1000) throw new Error(`${method} ${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };
  const answer = async (token: Token, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
    body(await call(env, token, method, url, payload, lang)) as { code: number; msg: string; data: unknown };
  const act = (token: Token, payload: object) =>
    okData<{ affected: number; unchanged: number }>(token, 'POST', '/api/roi/save-move', payload);
  const newFolder = async (token: Token, title: string, categoryId: number = CATEGORY.FOLDERS) =>
    (await okData<{ roi_index_id: number }>(token, 'POST', '/api/roi-index/save', { title, category_id: categoryId }))
      .roi_index_id;
  const rois = async (n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = body(
        await uploadRoi(
          env,
          a1.key,
          { captured_at: env.clock.now - (n - i) * MIN, label_index: 1, size_px: 2500 },
          await pngOf(++seed),
        ),
      );
      if (res.code !== 1000) throw new Error(JSON.stringify(res));
      out.push((res.data as { roi_id: number }).roi_id);
    }
    return out;
  };
  /** Each folder's members, straight from the table. */
  const members = async (folderId: number) =>
    (await env.db.kysely.selectFrom('folder_rois').select('roi_id').where('folder_id', '=', folderId).execute())
      .map((r) => r.roi_id)
      .sort((a, b) => a - b);
  /** The count the folder stores (what the tree shows), which must be its live members. */
  const storedCount = async (folderId: number) =>
    Number((await env.db.kysely.selectFrom('roi_folders').select('n').where('id', '=', folderId).executeTakeFirstOrThrow()).n);
  const findNode = (nodes: TreeNode[], pred: (n: TreeNode) => boolean): TreeNode | undefined => {
    for (const n of nodes) {
      if (pred(n)) return n;
      const inner = findNode(n.children, pred);
      if (inner) return inner;
    }
    return undefined;
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    await createUser(env, 'admin_a2', 'administrator', { groupId: w.teamA });
    secondAdmin = await login(env, 'admin_a2');
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
  });
  afterEach(() => env.close());

  /** Folder A holding 40 images, and two empty folders B and C, all of team A. */
  async function threeFolders() {
    const ids = await rois(40);
    const [a, b, c] = [
      await newFolder(w.tokens.ownAdmin, '200From'),
      await newFolder(w.tokens.ownAdmin, '201ToB'),
      await newFolder(w.tokens.ownAdmin, '202ToC'),
    ];
    expect((await act(w.tokens.ownAdmin, { type: '51', category_id: CATEGORY.SITE, roi_ids: ids, target_id: a })).affected).toBe(
      40,
    );
    const move = (token: Token, target: number) =>
      act(token, { type: '52', category_id: CATEGORY.FOLDERS, code: `f:${a}`, roi_ids: ids, target_id: target });
    return { ids, a, b, c, move };
  }

  async function expectEachInOneFolder(ids: number[], folders: number[]) {
    const held = await Promise.all(folders.map(members));
    for (const id of ids) expect(held.filter((m) => m.includes(id)).length).toBe(1);
    for (const [i, f] of folders.entries()) expect(await storedCount(f)).toBe(held[i]!.length);
    return held;
  }

  it('two moves of the same images at once: each image ends in exactly one folder, the answers add up to 40', async () => {
    const { ids, a, b, c, move } = await threeFolders();
    const [toB, toC] = await Promise.all([move(w.tokens.ownAdmin, b), move(secondAdmin, c)]);
    expect(toB.affected + toC.affected).toBe(40);
    expect(toB.unchanged + toC.unchanged).toBe(40);
    const [inA, inB, inC] = await expectEachInOneFolder(ids, [a, b, c]);
    expect(inA).toEqual([]);
    expect(inB!.length + inC!.length).toBe(40);
    expect(inB!.length).toBe(toB.affected);
    expect(inC!.length).toBe(toC.affected);
  });

  it('a move after another move of the same images moves nothing and says so', async () => {
    const { ids, a, b, c, move } = await threeFolders();
    expect(await move(w.tokens.ownAdmin, b)).toMatchObject({ affected: 40, unchanged: 0 });
    expect(await move(secondAdmin, c)).toMatchObject({ affected: 0, unchanged: 40 });
    const [inA, inB, inC] = await expectEachInOneFolder(ids, [a, b, c]);
    expect([inA!.length, inB!.length, inC!.length]).toEqual([0, 40, 0]);
    // Half of them back to A, then a move of all 40 out of A takes only the 20 that are there.
    await act(w.tokens.ownAdmin, {
      type: '52',
      category_id: CATEGORY.FOLDERS,
      code: `f:${b}`,
      roi_ids: ids.slice(0, 20),
      target_id: a,
    });
    expect(await move(secondAdmin, c)).toMatchObject({ affected: 20, unchanged: 20 });
    const after = await expectEachInOneFolder(ids, [a, b, c]);
    expect(after.map((m) => m.length)).toEqual([0, 20, 20]);
  });

  it('a move to the team gallery (42) and a move to a folder (52) of the same images at once: each ends in one place', async () => {
    const { ids, a, b } = await threeFolders();
    const picked = ids.slice(0, 10);
    const [toTeam, toB] = await Promise.all([
      act(w.tokens.ownAdmin, { type: '42', category_id: CATEGORY.FOLDERS, code: `f:${a}`, roi_ids: picked }),
      act(secondAdmin, { type: '52', category_id: CATEGORY.FOLDERS, code: `f:${a}`, roi_ids: picked, target_id: b }),
    ]);
    expect(toTeam.affected + toB.affected).toBe(10);
    const teamFolders = (
      await env.db.kysely.selectFrom('roi_folders').select('id').where('category_id', '=', CATEGORY.TEAM).execute()
    ).map((f) => f.id);
    const held = await expectEachInOneFolder(picked, [a, b, ...teamFolders]);
    expect(held[0]).toEqual(ids.slice(10));
    expect(held.slice(2).flat().length).toBe(toTeam.affected);
    // One after the other: the 42 that comes second finds none of them in A and moves none.
    const next = ids.slice(10, 20);
    await act(secondAdmin, { type: '52', category_id: CATEGORY.FOLDERS, code: `f:${a}`, roi_ids: next, target_id: b });
    expect(
      await act(w.tokens.ownAdmin, { type: '42', category_id: CATEGORY.FOLDERS, code: `f:${a}`, roi_ids: next }),
    ).toMatchObject({
      affected: 0,
      unchanged: 10,
    });
    const after = await expectEachInOneFolder(next, [a, b, ...teamFolders]);
    expect(
      after
        .slice(2)
        .flat()
        .filter((id) => next.includes(id)),
    ).toEqual([]);
  });

  it('a folder id as category_id stands for its own category: the example ROIs stay read-only', async () => {
    const [roi, other] = await rois(2);
    // The superadmin puts an image in the Xcube library (folder of its class).
    await act(w.tokens.superadmin, { type: 'B001', category_id: CATEGORY.SITE, roi_ids: [roi] });
    const xcube = findNode(
      await okData<TreeNode[]>(w.tokens.superadmin, 'GET', `/api/roi-index/index?category_id=${CATEGORY.XCUBE}`),
      (n) => n.roi_index_id !== null,
    )!.roi_index_id!;
    const target = await newFolder(w.tokens.ownAdmin, '210Mine');
    const cls = (await okData<{ id: number; title: string }[]>(w.tokens.user, 'GET', '/api/tool/sys-init')).find(
      (c) => c.title === '002Diatom_chain',
    )!.id;
    const before = await env.db.kysely
      .selectFrom('rois')
      .select(['class_id', 'hi'])
      .where('id', '=', roi!)
      .executeTakeFirstOrThrow();

    const copy = await answer(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
      type: '51',
      category_id: xcube,
      code: `f:${xcube}`,
      roi_ids: [roi],
      target_id: target,
    });
    expect(copy).toMatchObject({ code: 1011, msg: 'Operation not supported for Example ROIs' });
    const relabel = await answer(
      w.tokens.user,
      'POST',
      '/api/roi/save-move',
      { type: '21', category_id: xcube, roi_ids: [roi], target_id: cls },
      'zh',
    );
    expect(relabel).toMatchObject({ code: 1011, msg: '示例 ROI 不支持操作' });
    // Without the node's code too, and naming the library's folder by code from an ordinary folder category.
    expect(
      await answer(w.tokens.user, 'POST', '/api/roi/save-move', {
        type: '51',
        category_id: xcube,
        roi_ids: [roi],
        target_id: target,
      }),
    ).toMatchObject({ code: 1011, msg: 'Operation not supported for Example ROIs' });
    expect(
      await answer(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
        type: '51',
        category_id: CATEGORY.FOLDERS,
        code: `f:${xcube}`,
        roi_ids: [roi],
        target_id: target,
      }),
    ).toMatchObject({ code: 1011, msg: 'Operation not supported for Example ROIs' });
    expect(await members(target)).toEqual([]);
    expect(
      await env.db.kysely.selectFrom('rois').select(['class_id', 'hi']).where('id', '=', roi!).executeTakeFirstOrThrow(),
    ).toEqual(before);

    // GET /roi/actions answers the same for the folder's id: nothing, because they are the example ROIs.
    expect(await okData(w.tokens.ownAdmin, 'GET', `/api/roi/actions?category_id=${xcube}`)).toEqual({
      actions: [],
      reason: 'example',
    });
    const codesOf = async (token: Token, categoryId: number) =>
      (await okData<{ actions: { code: string }[] }>(token, 'GET', `/api/roi/actions?category_id=${categoryId}`)).actions.map(
        (a) => a.code,
      );
    expect(await codesOf(w.tokens.superadmin, xcube)).toEqual(['B002']);

    // The superadmin, who maintains the library, may still act there by its folder id (the Xcube library's codes).
    expect(
      await act(w.tokens.superadmin, { type: 'B002', category_id: xcube, code: `f:${xcube}`, roi_ids: [roi] }),
    ).toMatchObject({ affected: 1 });

    // A team-gallery folder's id follows the team gallery's row: a plain user may copy (51), not label (21).
    await act(w.tokens.ownAdmin, { type: '41', category_id: CATEGORY.SITE, roi_ids: [other] });
    const team = findNode(
      await okData<TreeNode[]>(w.tokens.ownAdmin, 'GET', `/api/roi-index/index?category_id=${CATEGORY.TEAM}`),
      (n) => n.roi_index_id !== null,
    )!.roi_index_id!;
    expect(
      await answer(w.tokens.user, 'POST', '/api/roi/save-move', {
        type: '21',
        category_id: team,
        roi_ids: [other],
        target_id: cls,
      }),
    ).toMatchObject({ code: 1011, msg: 'Operation not supported' });
    expect(await codesOf(w.tokens.user, team)).toEqual(await codesOf(w.tokens.user, CATEGORY.TEAM));
    expect(await act(w.tokens.user, { type: '51', category_id: team, roi_ids: [other], target_id: target })).toMatchObject({
      affected: 1,
    });

    // An ordinary folder's id is its folder category: copy, move, label by hand all still work.
    const second = await newFolder(w.tokens.user, '211Next');
    expect(await codesOf(w.tokens.user, target)).toEqual(await codesOf(w.tokens.user, CATEGORY.FOLDERS));
    expect(await act(w.tokens.user, { type: '21', category_id: target, roi_ids: [other], target_id: cls })).toMatchObject({
      affected: 1,
    });
    expect(
      await act(w.tokens.user, { type: '52', category_id: target, code: `f:${target}`, roi_ids: [other], target_id: second }),
    ).toMatchObject({ affected: 1 });
    expect(await members(target)).toEqual([]);
    expect(await members(second)).toEqual([other]);
  });

  it('a new folder and the tree carry the folder fields of spec §3: id, title, code, ipp_id, group_id, category_id', async () => {
    const made = await okData<Record<string, unknown>>(w.tokens.user, 'POST', '/api/roi-index/save', {
      title: '220Fields',
      category_id: CATEGORY.FOLDERS,
    });
    const id = made.roi_index_id as number;
    expect(made).toMatchObject({
      title: '220Fields',
      code: `f:${id}`,
      category_id: CATEGORY.FOLDERS,
      group_id: w.teamA,
      ipp_id: null,
    });
    const gallery = await okData<Record<string, unknown>>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
      title: '221Station',
      category_id: CATEGORY.SITE_GALLERY,
      ipp_id: a1.id,
    });
    expect(gallery).toMatchObject({ category_id: CATEGORY.SITE_GALLERY, group_id: w.teamA, ipp_id: a1.id });
    const hiClass = await okData<Record<string, unknown>>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
      title: '222NewClass',
      category_id: CATEGORY.SITE,
      ipp_id: a1.id,
    });
    expect(hiClass).toMatchObject({ roi_index_id: null, category_id: CATEGORY.SITE, group_id: null, ipp_id: null });
    const node = findNode(
      await okData<TreeNode[]>(w.tokens.user, 'GET', `/api/roi-index/index?category_id=${CATEGORY.FOLDERS}`),
      (n) => n.roi_index_id === id,
    );
    expect(node).toMatchObject({
      roi_index_id: id,
      title: '220Fields',
      code: `f:${id}`,
      category_id: 0,
      group_id: w.teamA,
      ipp_id: null,
    });
    const stationNode = findNode(
      await okData<TreeNode[]>(
        w.tokens.ownAdmin,
        'GET',
        `/api/roi-index/index?category_id=${CATEGORY.SITE_GALLERY}&ipp_id=${a1.id}`,
      ),
      (n) => n.roi_index_id === gallery.roi_index_id,
    );
    expect(stationNode).toMatchObject({ category_id: CATEGORY.SITE_GALLERY, group_id: w.teamA, ipp_id: a1.id });
  });

  it('an administrator removes from a team-gallery folder by operate-roi, as by save-move 43 and operate-folder', async () => {
    const ids = await rois(4);
    await act(w.tokens.ownAdmin, { type: '41', category_id: CATEGORY.SITE, roi_ids: ids });
    const teamTree = () => okData<TreeNode[]>(w.tokens.ownAdmin, 'GET', `/api/roi-index/index?category_id=${CATEGORY.TEAM}`);
    const folder = findNode(await teamTree(), (n) => n.roi_index_id !== null)!.roi_index_id!;
    expect(await members(folder)).toEqual([...ids].sort((a, b) => a - b));

    // A plain user of the team may not take images out of the team gallery, by any call.
    const byUser = await answer(w.tokens.user, 'POST', '/api/roi/operate-roi', {
      type: 'remove',
      roi_index_code: `f:${folder}`,
      roi_ids: [ids[0]],
      category_id: CATEGORY.TEAM,
    });
    expect(byUser.code).toBe(1011);
    expect(
      (await answer(w.tokens.user, 'POST', '/api/roi/save-move', { type: '43', category_id: CATEGORY.TEAM, roi_ids: [ids[0]] }))
        .code,
    ).toBe(1011);

    // The administrator: operate-roi remove takes the images out of that folder.
    expect(
      await okData(w.tokens.ownAdmin, 'POST', '/api/roi/operate-roi', {
        type: 'remove',
        roi_index_code: `f:${folder}`,
        roi_ids: [ids[0]],
        category_id: CATEGORY.TEAM,
      }),
    ).toEqual({ affected: 1, roi_index_id: folder });
    expect(await members(folder)).not.toContain(ids[0]);
    expect(await storedCount(folder)).toBe(3);
    // POST /roi/delete?roi_index_id (the same removal by the older call) agrees.
    await okData(w.tokens.ownAdmin, 'POST', `/api/roi/delete?roi_index_id=${folder}`, { roi_ids: [ids[1]] });
    expect(await storedCount(folder)).toBe(2);
    // save-move 43 and operate-folder remove, as before.
    expect(
      await act(w.tokens.ownAdmin, { type: '43', category_id: CATEGORY.TEAM, code: `f:${folder}`, roi_ids: [ids[2]] }),
    ).toMatchObject({
      affected: 1,
    });
    expect(await storedCount(folder)).toBe(1);
    await okData(w.tokens.ownAdmin, 'POST', '/api/folder/operate-folder', { type: 'remove', roi_index_id: folder });
    expect(findNode(await teamTree(), (n) => n.roi_index_id === folder)).toBeUndefined();
  });
});
