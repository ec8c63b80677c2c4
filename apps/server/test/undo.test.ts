import { CATEGORY, UNDO_WINDOW_MS, type LabelHistory, type LastAction, type UndoResult } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';
import { countsSnapshot } from './helpers/counts.ts';

const MIN = 60_000;
type Token = string | undefined;

/** Issue 25: labelling in place (81 validate, 82 set class, 83 dubious), the label history and the undo of the last bulk action. */
describe.each(dialects)('in-place labelling, history and undo on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: { id: number; key: string };
  let rois: number[];
  let bRoi: number;
  let seed = 0;

  const upload = async (key: string, capturedAt: number, label: number, confidence?: number) => {
    const fields = {
      captured_at: capturedAt,
      label_index: label,
      size_px: 2500,
      ...(confidence === undefined ? {} : { confidence }),
    };
    const res = body(await uploadRoi(env, key, fields, await pngOf(++seed)));
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
    return (res.data as { roi_id: number }).roi_id;
  };
  const okData = async <T>(token: Token, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const res = body(await call(env, token, method, url, payload));
    if (res.code !== 1000) throw new Error(`${method} ${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };
  const failure = async (token: Token, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') => {
    const res = await call(env, token, method, url, payload, lang);
    expect(res.statusCode).toBeLessThan(500);
    const b = body(res) as { code: number; msg: string; model: { field?: string } | null };
    return { code: b.code, msg: b.msg, field: b.model?.field ?? null };
  };
  const act = (token: Token, payload: object) =>
    okData<{ affected: number; unchanged: number; roi_index_id: number | null }>(token, 'POST', '/api/roi/save-move', payload);
  const last = (token: Token) => okData<LastAction | null>(token, 'GET', '/api/roi/last-action');
  const undo = (token: Token, bulkId: number) => okData<UndoResult>(token, 'POST', '/api/roi/undo', { bulk_id: bulkId });
  const history = (token: Token, roiId: number) => okData<LabelHistory>(token, 'GET', `/api/roi/label-history?roi_id=${roiId}`);
  const roiRow = (id: number) =>
    env.db.kysely
      .selectFrom('rois')
      .select(['class_id', 'hi', 'labelled_by', 'review_status', 'deleted_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const classOf = async (label: number) =>
    await env.db.kysely.selectFrom('classes').select(['id', 'name']).where('label_index', '=', label).executeTakeFirstOrThrow();

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    rois = [];
    // Three AI-labelled (1, 1, 2) and one unlabelled ROI.
    const confidences = [0.9, 0.4, 0.6, undefined];
    for (const [i, label] of [1, 1, 2, 0].entries()) {
      rois.push(await upload(a1.key, env.clock.now - (40 - i * 10) * MIN, label, confidences[i]));
    }
    bRoi = await upload(b1.key, env.clock.now - 5 * MIN, 1);
  });
  afterEach(() => env.close());

  it('validates predictions in place: AI labels become the user’s, unlabelled ones stay, the history names who, when, from and to', async () => {
    const copepod = await classOf(1);
    const result = await act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: rois });
    expect(result).toEqual({ affected: 3, unchanged: 1, roi_index_id: null, bulk_id: (await last(w.tokens.user))!.bulk_id });
    expect(await roiRow(rois[0]!)).toMatchObject({ class_id: copepod.id, hi: 1, labelled_by: w.ids.user });
    expect(await roiRow(rois[3]!)).toMatchObject({ class_id: null, hi: 0, labelled_by: null });
    const h = await history(w.tokens.user, rois[0]!);
    expect(h.dev_id).toBe('A1');
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({
      user_id: w.ids.user,
      user_name: 'Name of user_a',
      model_id: null,
      action: '81',
      from_class_id: copepod.id,
      from_class_name: copepod.name,
      from_hi: 0,
      to_class_id: copepod.id,
      to_hi: 1,
      at: env.clock.now,
    });
    expect(h.events[0]!.bulk_id).toBe((await last(w.tokens.user))!.bulk_id);
    // Validating again changes nothing and writes no history.
    expect(await act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: rois })).toMatchObject({ affected: 0 });
    expect((await history(w.tokens.user, rois[0]!)).events).toHaveLength(1);
  });

  it('sets a class in place where 23 is refused for AI labels, marks dubious, and corrects-and-approves in review', async () => {
    const other = await classOf(2);
    // 23 refuses a selection with AI labels in site images (spec §6); 82 labels them where they are.
    expect(
      (
        await failure(w.tokens.user, 'POST', '/api/roi/save-move', {
          type: '23',
          category_id: CATEGORY.SITE,
          roi_ids: [rois[0]],
          target_id: other.id,
        })
      ).code,
    ).toBe(1011);
    expect(
      await act(w.tokens.user, { type: '82', category_id: CATEGORY.SITE, roi_ids: [rois[0], rois[3]], target_id: other.id }),
    ).toMatchObject({ affected: 2 });
    expect(await roiRow(rois[3]!)).toMatchObject({ class_id: other.id, hi: 1, labelled_by: w.ids.user });
    const h = await history(w.tokens.ownAdmin, rois[3]!);
    expect(h.events.map((e) => [e.action, e.from_class_id, e.from_hi, e.to_class_id, e.to_hi])).toEqual([
      ['82', null, 0, other.id, 1],
    ]);
    // Dubious: into the review queue, label kept.
    expect(await act(w.tokens.user, { type: '83', category_id: CATEGORY.SITE, roi_ids: [rois[1]] })).toMatchObject({
      affected: 1,
    });
    expect(await roiRow(rois[1]!)).toMatchObject({ review_status: 1, hi: 0 });
    // A plain user may not correct in the review queue; an administrator's correction approves.
    expect(
      (
        await failure(w.tokens.user, 'POST', '/api/roi/save-move', {
          type: '82',
          category_id: CATEGORY.REVIEW,
          roi_ids: [rois[1]],
          target_id: other.id,
        })
      ).code,
    ).toBe(1011);
    await act(w.tokens.ownAdmin, { type: '82', category_id: CATEGORY.REVIEW, roi_ids: [rois[1]], target_id: other.id });
    expect(await roiRow(rois[1]!)).toMatchObject({ review_status: 2, hi: 1, class_id: other.id, labelled_by: w.ids.ownAdmin });
    // 82 in review only takes ROIs waiting there.
    expect(
      (
        await failure(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
          type: '82',
          category_id: CATEGORY.REVIEW,
          roi_ids: [rois[2]],
          target_id: other.id,
        })
      ).code,
    ).toBe(1002);
  });

  it('keeps labelling within the team and the class list, with clear errors in zh and en', async () => {
    const before = await roiRow(bRoi);
    const foreign = await failure(w.tokens.user, 'POST', '/api/roi/save-move', {
      type: '81',
      category_id: CATEGORY.SITE,
      roi_ids: [rois[0], bRoi],
    });
    expect(foreign).toEqual({ code: 1002, msg: 'ROI info. obtain fail', field: 'roi_ids' });
    expect(await roiRow(rois[0]!)).toMatchObject({ hi: 0 });
    expect(await roiRow(bRoi)).toEqual(before);
    const noClass = await failure(
      w.tokens.user,
      'POST',
      '/api/roi/save-move',
      { type: '82', category_id: CATEGORY.SITE, roi_ids: [rois[0]], target_id: 999_999 },
      'zh',
    );
    expect(noClass).toEqual({ code: 1002, msg: '类别不存在', field: 'target_id' });
    // Another team's ROI's history is answered exactly as a missing ROI's.
    const hidden = await failure(w.tokens.otherAdmin, 'GET', `/api/roi/label-history?roi_id=${rois[0]}`);
    const missing = await failure(w.tokens.otherAdmin, 'GET', '/api/roi/label-history?roi_id=1999999999');
    expect(hidden).toEqual(missing);
    expect(hidden.code).toBe(1002);
  });

  it('records a re-label through the detail pane and a human label given back to the AI', async () => {
    const other = await classOf(2);
    await okData(w.tokens.user, 'GET', `/api/roi/set-roi-label-index?roi_id=${rois[0]}&roi_labelindex=2`);
    await okData(w.tokens.user, 'GET', `/api/roi/set-roi-label-index?roi_id=${rois[0]}&roi_labelindex=0`);
    const events = (await history(w.tokens.user, rois[0]!)).events;
    expect(events.map((e) => [e.action, e.to_class_id, e.to_hi, e.user_id])).toEqual([
      ['set-label', other.id, 1, w.ids.user],
      ['set-label', (await classOf(1)).id, 0, w.ids.user],
    ]);
  });

  it('undoes a validation exactly: labels, who labelled, counts and rollups as before', async () => {
    const before = await countsSnapshot(env);
    await act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: rois });
    expect(await countsSnapshot(env)).not.toEqual(before);
    const action = (await last(w.tokens.user))!;
    expect(action).toMatchObject({ code: '81', affected: 3, expires_at: action.created_at + UNDO_WINDOW_MS });
    expect(await undo(w.tokens.user, action.bulk_id)).toEqual({ bulk_id: action.bulk_id, restored: 3, skipped: 0 });
    expect(await countsSnapshot(env)).toEqual(before);
    expect(await last(w.tokens.user)).toBeNull();
    // The history keeps both steps.
    expect((await history(w.tokens.user, rois[0]!)).events.map((e) => [e.action, e.to_hi])).toEqual([
      ['81', 1],
      ['undo', 0],
    ]);
  });

  it('undoes a new temporary class, a move between folders, a recycle and favourites, folder counts included', async () => {
    const before = await countsSnapshot(env);
    const made = await act(w.tokens.user, {
      type: '54',
      category_id: CATEGORY.SITE,
      roi_ids: rois.slice(0, 3),
      title: '001Undo',
    });
    const folderId = made.roi_index_id!;
    let action = (await last(w.tokens.user))!;
    await undo(w.tokens.user, action.bulk_id);
    expect(await countsSnapshot(env)).toEqual(before);
    expect(
      await env.db.kysely.selectFrom('roi_folders').select('id').where('id', '=', folderId).executeTakeFirst(),
    ).toBeUndefined();

    const a = (await act(w.tokens.user, { type: '54', category_id: CATEGORY.SITE, roi_ids: rois.slice(0, 3), title: '002KeepA' }))
      .roi_index_id!;
    const b = (await act(w.tokens.user, { type: '54', category_id: CATEGORY.SITE, roi_ids: [rois[3]], title: '003KeepB' }))
      .roi_index_id!;
    const folders = await countsSnapshot(env);
    await act(w.tokens.user, {
      type: '52',
      category_id: CATEGORY.TEMPORARY,
      code: `f:${a}`,
      roi_ids: rois.slice(0, 2),
      target_id: b,
    });
    expect(await countsSnapshot(env)).not.toEqual(folders);
    action = (await last(w.tokens.user))!;
    expect(await undo(w.tokens.user, action.bulk_id)).toMatchObject({ restored: 2, skipped: 0 });
    expect(await countsSnapshot(env)).toEqual(folders);

    await act(w.tokens.ownAdmin, { type: '2', category_id: CATEGORY.ALL, roi_ids: rois.slice(1, 4) });
    await undo(w.tokens.ownAdmin, (await last(w.tokens.ownAdmin))!.bulk_id);
    expect(await countsSnapshot(env)).toEqual(folders);

    await act(w.tokens.user, { type: '61', category_id: CATEGORY.SITE, roi_ids: rois });
    await undo(w.tokens.user, (await last(w.tokens.user))!.bulk_id);
    expect(await countsSnapshot(env)).toEqual(folders);
  });

  it('leaves alone what changed since, undoes only the last action, within its window, once', async () => {
    await act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: rois.slice(0, 2) });
    const first = (await last(w.tokens.user))!;
    await act(w.tokens.user, { type: '83', category_id: CATEGORY.SITE, roi_ids: [rois[2]] });
    const second = (await last(w.tokens.user))!;
    // Only the last action may be undone.
    const older = await failure(w.tokens.user, 'POST', '/api/roi/undo', { bulk_id: first.bulk_id }, 'zh');
    expect(older).toEqual({
      code: 1002,
      msg: '没有可撤销的操作（只能撤销自己最近一次批量操作，且须在 15 分钟内）',
      field: 'bulk_id',
    });
    // Another user's action, even a teammate's, is answered as a missing one.
    const theirs = await failure(w.tokens.ownAdmin, 'POST', '/api/roi/undo', { bulk_id: second.bulk_id });
    expect(theirs).toEqual(await failure(w.tokens.ownAdmin, 'POST', '/api/roi/undo', { bulk_id: 1_999_999_999 }));
    expect(theirs.msg).toBe('Nothing to undo: only your last bulk action can be undone, within 15 minutes');

    // A validation, then an administrator relabels one of its ROIs: undo gives back only the other.
    await act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: [rois[2]] });
    await act(w.tokens.user, {
      type: '82',
      category_id: CATEGORY.SITE,
      roi_ids: [rois[0], rois[1]],
      target_id: (await classOf(2)).id,
    });
    const mine = (await last(w.tokens.user))!;
    await okData(w.tokens.ownAdmin, 'GET', `/api/roi/set-roi-label-index?roi_id=${rois[0]}&roi_labelindex=3`);
    expect(await undo(w.tokens.user, mine.bulk_id)).toEqual({ bulk_id: mine.bulk_id, restored: 1, skipped: 1 });
    expect(await roiRow(rois[0]!)).toMatchObject({ class_id: (await classOf(3)).id, labelled_by: w.ids.ownAdmin });
    expect(await roiRow(rois[1]!)).toMatchObject({ class_id: (await classOf(1)).id, hi: 1, labelled_by: w.ids.user });

    // Past the window, nothing is left to undo.
    await act(w.tokens.user, { type: '83', category_id: CATEGORY.SITE, roi_ids: [rois[3]] });
    const late = (await last(w.tokens.user))!;
    env.clock.advance(UNDO_WINDOW_MS);
    expect(await last(w.tokens.user)).toBeNull();
    expect((await failure(w.tokens.user, 'POST', '/api/roi/undo', { bulk_id: late.bulk_id })).code).toBe(1002);
    expect(await roiRow(rois[3]!)).toMatchObject({ review_status: 1 });
  });

  it('two undos of the same action at once: one restores, the other is told there is nothing left, counts restored once', async () => {
    const before = await countsSnapshot(env);
    await act(w.tokens.user, { type: '82', category_id: CATEGORY.SITE, roi_ids: rois, target_id: (await classOf(3)).id });
    const action = (await last(w.tokens.user))!;
    // The same user in two tabs: one session, two calls at once.
    const answers = await Promise.all(
      [w.tokens.user, w.tokens.user].map(async (token) =>
        body(await call(env, token, 'POST', '/api/roi/undo', { bulk_id: action.bulk_id })),
      ),
    );
    expect(answers.map((a) => a.code).sort()).toEqual([1000, 1002]);
    expect(await countsSnapshot(env)).toEqual(before);
  });

  it('two users validating and undoing at once each get their own action back', async () => {
    const other = await createUser(env, 'user_a2', 'user', { groupId: w.teamA });
    expect(other).toBeGreaterThan(0);
    const token2 = await login(env, 'user_a2');
    const before = await countsSnapshot(env);
    await Promise.all([
      act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: rois.slice(0, 2) }),
      act(token2, { type: '83', category_id: CATEGORY.SITE, roi_ids: rois.slice(2) }),
    ]);
    const [mine, theirs] = [(await last(w.tokens.user))!, (await last(token2))!];
    expect([mine.code, theirs.code]).toEqual(['81', '83']);
    const results = await Promise.all([undo(w.tokens.user, mine.bulk_id), undo(token2, theirs.bulk_id)]);
    expect(results.map((r) => r.restored)).toEqual([2, 2]);
    expect(await countsSnapshot(env)).toEqual(before);
  });

  it('filters by confidence range and by who labelled when, and selects every match in the list order', async () => {
    const idsOf = async (query: string) =>
      (
        await okData<{ items: { id: number }[] }>(
          w.tokens.user,
          'GET',
          `/api/roi/index?category_id=-100&ipp_id=${a1.id}&${query}`,
        )
      ).items.map((r) => r.id);
    // Sorted by confidence, least certain first: the order to work the doubtful ones in.
    expect(await idsOf('diysort=confidence&sorttype=asc&conf_min=0')).toEqual([rois[1], rois[2], rois[0]]);
    expect(await idsOf('conf_min=0.5&conf_max=0.95&diysort=confidence&sorttype=asc')).toEqual([rois[2], rois[0]]);
    await act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: [rois[0]] });
    env.clock.advance(10 * MIN);
    await act(w.tokens.ownAdmin, { type: '81', category_id: CATEGORY.SITE, roi_ids: [rois[1]] });
    expect(await idsOf(`labelled_by=${w.ids.user}`)).toEqual([rois[0]]);
    expect(await idsOf(`labelled_by=${w.ids.ownAdmin}`)).toEqual([rois[1]]);
    expect(await idsOf(`labelled_s=${env.clock.now - 5 * MIN}&labelled_e=${env.clock.now}`)).toEqual([rois[1]]);
    // The count follows the filter (not the maintained counts of the tree).
    const page = body(
      await call(env, w.tokens.user, 'GET', `/api/roi/index?category_id=-100&ipp_id=${a1.id}&labelled_by=${w.ids.user}`),
    );
    expect(page.count).toBe(1);
    // Every match, in the list's order.
    const all = await okData<{ ids: number[]; capped: boolean }>(
      w.tokens.user,
      'GET',
      `/api/roi/matching-ids?category_id=-100&ipp_id=${a1.id}&diysort=confidence&sorttype=asc`,
    );
    expect(all).toEqual({ ids: [rois[3], rois[1], rois[2], rois[0]], capped: false });
    // Bad input is refused in the caller's language; another team's station lists nothing of it.
    const bad = await failure(
      w.tokens.user,
      'GET',
      `/api/roi/index?category_id=-100&ipp_id=${a1.id}&conf_min=2`,
      undefined,
      'zh',
    );
    expect([bad.code, bad.field]).toEqual([1002, 'conf_min']);
    const foreign = body(await call(env, w.tokens.otherAdmin, 'GET', `/api/roi/matching-ids?category_id=-100&ipp_id=${a1.id}`));
    expect(foreign.code === 1000 ? (foreign.data as { ids: number[] }).ids : []).toEqual([]);
  });

  it('answers two callers selecting every match at once', async () => {
    const url = `/api/roi/matching-ids?category_id=-100&ipp_id=${a1.id}`;
    const [one, two] = await Promise.all([
      okData<{ ids: number[] }>(w.tokens.user, 'GET', url),
      okData<{ ids: number[] }>(w.tokens.ownAdmin, 'GET', url),
    ]);
    expect(one.ids).toHaveLength(4);
    expect(two.ids).toEqual(one.ids);
    // The history and the last action, asked twice at once, answer alike.
    await act(w.tokens.user, { type: '81', category_id: CATEGORY.SITE, roi_ids: [rois[0]] });
    const [h1, h2] = await Promise.all([history(w.tokens.user, rois[0]!), history(w.tokens.ownAdmin, rois[0]!)]);
    expect(h1.events).toHaveLength(1);
    expect(h2).toEqual(h1);
    const [l1, l2] = await Promise.all([last(w.tokens.user), last(w.tokens.user)]);
    expect(l1).not.toBeNull();
    expect(l2).toEqual(l1);
  });

  it('filters by a measured feature of the segmented object, on both databases', async () => {
    const measured = await env.db.kysely.selectFrom('roi_features').select(['roi_id', 'measures']).orderBy('roi_id').execute();
    const elongation = new Map(measured.map((r) => [r.roi_id, (JSON.parse(r.measures) as { elongation: number }).elongation]));
    const ours = rois.filter((id) => elongation.has(id));
    expect(ours.length).toBeGreaterThanOrEqual(2);
    const values = ours.map((id) => elongation.get(id)!).sort((a, b) => a - b);
    const cut = (values[0]! + values.at(-1)!) / 2;
    const list = async (query: string) =>
      (
        await okData<{ items: { id: number }[] }>(
          w.tokens.user,
          'GET',
          `/api/roi/index?category_id=-100&ipp_id=${a1.id}&${query}`,
        )
      ).items
        .map((r) => r.id)
        .sort((x, y) => x - y);
    const above = ours.filter((id) => elongation.get(id)! >= cut).sort((x, y) => x - y);
    const below = ours.filter((id) => elongation.get(id)! <= cut).sort((x, y) => x - y);
    expect(above.length).toBeGreaterThan(0);
    expect(await list(`feature=elongation&feature_min=${cut}`)).toEqual(above);
    expect(await list(`feature=elongation&feature_max=${cut}`)).toEqual(below);
    // A feature name outside the list is refused, in the caller's language.
    const bad = await failure(
      w.tokens.user,
      'GET',
      `/api/roi/index?category_id=-100&ipp_id=${a1.id}&feature=area_px&feature_min=1`,
    );
    expect([bad.code, bad.field]).toEqual([1002, 'feature']);
  });

  it('skips what is gone since: a folder deleted, ROIs purged (counted, nothing half done)', async () => {
    const a = (await act(w.tokens.user, { type: '54', category_id: CATEGORY.SITE, roi_ids: rois.slice(0, 2), title: '011GoneA' }))
      .roi_index_id!;
    const b = (await act(w.tokens.user, { type: '54', category_id: CATEGORY.SITE, roi_ids: [rois[3]], title: '012GoneB' }))
      .roi_index_id!;
    await act(w.tokens.user, {
      type: '52',
      category_id: CATEGORY.TEMPORARY,
      code: `f:${a}`,
      roi_ids: rois.slice(0, 2),
      target_id: b,
    });
    const move = (await last(w.tokens.user))!;
    // The folder the move took them out of is deleted: the move cannot be put back into it.
    await okData(w.tokens.user, 'POST', '/api/roi-index/delete-folder', { roi_index_id: a });
    const before = await countsSnapshot(env);
    expect(await undo(w.tokens.user, move.bulk_id)).toEqual({ bulk_id: move.bulk_id, restored: 0, skipped: 2 });
    expect(await countsSnapshot(env)).toEqual(before);

    // Recycled, then purged from the bin: the recycle's undo finds nothing to put back and says so.
    await act(w.tokens.ownAdmin, { type: '2', category_id: CATEGORY.ALL, roi_ids: [rois[2]] });
    const recycle = (await last(w.tokens.ownAdmin))!;
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-group/re-bin', { action: 'delete', roi_ids: [rois[2]] });
    expect(await undo(w.tokens.ownAdmin, recycle.bulk_id)).toEqual({ bulk_id: recycle.bulk_id, restored: 0, skipped: 1 });
  });
});
