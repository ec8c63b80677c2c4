import fc from 'fast-check';
import { CATEGORY, type RoiItem, type RoiPage, type TreeNode } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';
import { addMembers } from '../src/modules/identify/folders.repository.ts';

const MIN = 60_000;
type Token = string | undefined;
interface Failure {
  code: number;
  msg: string;
  model: { field?: string } | null;
}

/** Issue 20's integrity and access findings in the identify workspace, on both databases. */
describe.each(dialects)('identify integrity on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: { id: number; key: string };
  let aRois: number[];
  let bRoi: number;
  let seed = 0;

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
  const fail = async (token: Token, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') => {
    const res = await call(env, token, method, url, payload, lang);
    expect(res.statusCode).toBeLessThan(500);
    return body(res) as Failure;
  };
  const list = async (token: Token, query: string) => {
    const res = body(await call(env, token, 'GET', `/api/roi/index?${query}`));
    if (res.code !== 1000) throw new Error(`list ${query}: ${JSON.stringify(res)}`);
    return { ...(res.data as RoiPage), count: res.count as number };
  };
  const ids = (items: RoiItem[]) => items.map((r) => r.id).sort((x, y) => x - y);
  const tree = (token: Token, query: string) => okData<TreeNode[]>(token, 'GET', `/api/roi-index/index?${query}`);
  const act = (token: Token, payload: object) =>
    okData<{ affected: number; unchanged: number }>(token, 'POST', '/api/roi/save-move', payload);
  const roisState = () =>
    env.db.kysely.selectFrom('rois').select(['id', 'class_id', 'hi', 'review_status', 'deleted_at']).orderBy('id').execute();
  const folderState = () =>
    env.db.kysely.selectFrom('roi_folders').select(['id', 'title', 'n', 'category_id']).orderBy('id').execute();

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    aRois = [];
    for (const [i, label] of [1, 1, 2, 0].entries()) aRois.push(await roi(a1.key, env.clock.now - (40 - i * 10) * MIN, label));
    bRoi = await roi(b1.key, env.clock.now - 5 * MIN, 1, 3333);
  });
  afterEach(() => env.close());

  describe('the review queue acts only on the ROIs it holds', () => {
    it('refuses to approve or reject an ROI never submitted, and changes nothing (an AI label stays an AI label)', async () => {
      const before = await roisState();
      for (const type of ['110', '111']) {
        const refused = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
          type,
          category_id: CATEGORY.REVIEW,
          roi_ids: [aRois[0]],
        });
        expect([refused.code, refused.msg, refused.model?.field]).toEqual([
          1002,
          'The selection holds images that are not in the review queue in the state this action needs',
          'roi_ids',
        ]);
      }
      const zh = await fail(
        w.tokens.ownAdmin,
        'POST',
        '/api/roi/save-move',
        { type: '110', category_id: CATEGORY.REVIEW, roi_ids: [aRois[0]] },
        'zh',
      );
      expect(zh.msg).toBe('选中的图像不在审核队列中（或不在此操作要求的审核状态）');
      expect(await roisState()).toEqual(before);
      // The ROI is still an AI label in site images, and the review queue and its reviewed view are still empty.
      const ai = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&dataIndex=ai`);
      expect(ids(ai.items)).toContain(aRois[0]);
      expect((await list(w.tokens.ownAdmin, 'category_id=-7')).count).toBe(0);
      expect((await list(w.tokens.ownAdmin, 'category_id=-7&reviewed_type=1')).count).toBe(0);
    });

    it('refuses back-to-pending for a waiting ROI and approve for a reviewed one; a mixed selection changes nothing', async () => {
      await act(w.tokens.user, { type: '71', category_id: -100, roi_ids: [aRois[0], aRois[1]] });
      // 112 takes ROIs from the reviewed: a waiting one is refused.
      const pending = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
        type: '112',
        category_id: CATEGORY.REVIEW,
        reviewed_type: 1,
        roi_ids: [aRois[0]],
      });
      expect(pending.code).toBe(1002);
      await act(w.tokens.ownAdmin, { type: '110', category_id: CATEGORY.REVIEW, roi_ids: [aRois[0]] });
      // Approving again, or rejecting the approved, is not an action of the queue any more.
      const before = await roisState();
      for (const type of ['110', '111']) {
        const again = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
          type,
          category_id: CATEGORY.REVIEW,
          roi_ids: [aRois[0]],
        });
        expect(again.code).toBe(1002);
      }
      // One waiting and one never submitted: the whole call is refused, the waiting one is not approved either.
      const mixed = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
        type: '110',
        category_id: CATEGORY.REVIEW,
        roi_ids: [aRois[1], aRois[2]],
      });
      expect(mixed.code).toBe(1002);
      expect(await roisState()).toEqual(before);
      // The legitimate paths still work: reject the waiting one, then send both reviewed ones back.
      expect((await act(w.tokens.ownAdmin, { type: '111', category_id: CATEGORY.REVIEW, roi_ids: [aRois[1]] })).affected).toBe(1);
      const back = await act(w.tokens.ownAdmin, {
        type: '112',
        category_id: CATEGORY.REVIEW,
        reviewed_type: 1,
        roi_ids: [aRois[0], aRois[1]],
      });
      expect(back.affected).toBe(2);
      expect(ids((await list(w.tokens.ownAdmin, 'category_id=-7')).items)).toEqual([aRois[0]!, aRois[1]!].sort((x, y) => x - y));
    });

    it("counts the reviewed view's tree like its list (reviewed_type 1 vs 0)", async () => {
      await act(w.tokens.user, { type: '71', category_id: -100, roi_ids: [aRois[0], aRois[1], aRois[2], aRois[3]] });
      await act(w.tokens.ownAdmin, { type: '110', category_id: CATEGORY.REVIEW, roi_ids: [aRois[0], aRois[2]] });
      await act(w.tokens.ownAdmin, { type: '111', category_id: CATEGORY.REVIEW, roi_ids: [aRois[3]] });
      for (const reviewed of [0, 1]) {
        const nodes = await tree(w.tokens.ownAdmin, `category_id=-7&reviewed_type=${reviewed}`);
        const whole = await list(w.tokens.ownAdmin, `category_id=-7&reviewed_type=${reviewed}`);
        expect(nodes.reduce((n, node) => n + node.count, 0)).toBe(whole.count);
        expect(whole.count).toBe(whole.items.length);
        expect(whole.count).toBe(reviewed === 1 ? 3 : 1);
        // Each class node's count is the number of ROIs its list shows.
        for (const node of nodes) {
          const part = await list(w.tokens.ownAdmin, `category_id=-7&reviewed_type=${reviewed}&code=${node.code}`);
          expect([node.code, part.items.length, part.count]).toEqual([node.code, node.count, node.count]);
        }
      }
    });
  });

  describe('example ROIs support no operations', () => {
    let xcube: TreeNode;
    beforeEach(async () => {
      await act(w.tokens.superadmin, { type: 'B001', category_id: -100, roi_ids: [aRois[0], aRois[2]] });
      xcube = (await tree(w.tokens.superadmin, 'category_id=-1')).find((n) => n.title === '001Copepod')!;
      expect(xcube.count).toBe(1);
    });
    const EXAMPLE_EN = 'Operation not supported for Example ROIs';

    it('refuses copying or moving a class out of them, to HI, or into them, for a team administrator', async () => {
      const before = await folderState();
      const attempts: object[] = [
        { type: 'copy', roi_index_id: xcube.roi_index_id, category_id: CATEGORY.TEAM },
        { type: 'copy', roi_index_id: xcube.roi_index_id, category_id: CATEGORY.FOLDERS },
        { type: 'move', roi_index_id: xcube.roi_index_id, category_id: CATEGORY.TEAM },
        { type: 'remove', roi_index_id: xcube.roi_index_id },
        { type: 'to_hi', roi_index_id: xcube.roi_index_id },
      ];
      const team = await okData<{ roi_index_id: number; roi_index_code: string }>(
        w.tokens.ownAdmin,
        'POST',
        '/api/roi-index/save',
        { title: '300Mine', category_id: CATEGORY.TEAM },
      );
      attempts.push(
        { type: 'copy', roi_index_id: xcube.roi_index_id, roi_index_code: team.roi_index_code },
        { type: 'copy', roi_index_id: team.roi_index_id, category_id: CATEGORY.EXAMPLE },
        { type: 'copy', roi_index_id: team.roi_index_id, category_id: CATEGORY.XCUBE },
        { type: 'copy', roi_index_id: team.roi_index_id, roi_index_code: `f:${xcube.roi_index_id}` },
      );
      const afterTeamFolder = await folderState();
      expect(afterTeamFolder.length).toBe(before.length + 1);
      for (const attempt of attempts) {
        const refused = await fail(w.tokens.ownAdmin, 'POST', '/api/folder/operate-folder', attempt);
        expect([JSON.stringify(attempt), refused.code, refused.msg]).toEqual([JSON.stringify(attempt), 1011, EXAMPLE_EN]);
      }
      const zh = await fail(w.tokens.user, 'POST', '/api/folder/operate-folder', attempts[0], 'zh');
      expect([zh.code, zh.msg]).toEqual([1011, '示例 ROI 不支持操作']);
      expect(await folderState()).toEqual(afterTeamFolder);
    });

    it('refuses renaming, deleting, highlighting and shortcuts of their classes, and ROI actions in or into them', async () => {
      const before = { folders: await folderState(), rois: await roisState() };
      const refusals: [string, object][] = [
        ['/api/roi-index/rename', { roi_index_id: xcube.roi_index_id, title: '001Renamed' }],
        ['/api/roi-index/delete-folder', { roi_index_id: xcube.roi_index_id }],
        ['/api/roi-index/batch-delete', { ids: [xcube.roi_index_id] }],
        ['/api/roi-index/change-status', { roi_index_id: xcube.roi_index_id, attention: true }],
        ['/api/roi-index/add-tool-bar', { category_id: CATEGORY.EXAMPLE, code: `f:${xcube.roi_index_id}`, title: 'x' }],
        ['/api/roi-index/add-tool-bar', { category_id: CATEGORY.XCUBE, code: `f:${xcube.roi_index_id}`, title: 'x' }],
        ['/api/roi-index/add-tool-bar', { category_id: CATEGORY.FOLDERS, code: `f:${xcube.roi_index_id}`, title: 'x' }],
        ['/api/roi/save-move', { type: '51', category_id: CATEGORY.EXAMPLE, roi_ids: [aRois[0]], target_id: 1 }],
        ['/api/roi/save-move', { type: '51', category_id: -100, roi_ids: [aRois[1]], target_id: xcube.roi_index_id }],
        [
          '/api/roi/save-move',
          { type: '53', category_id: CATEGORY.TEMPORARY, roi_ids: [aRois[0]], code: `f:${xcube.roi_index_id}` },
        ],
        [
          '/api/roi/operate-roi',
          { type: 'copy', roi_index_code: `f:${xcube.roi_index_id}`, roi_ids: [aRois[1]], category_id: -100 },
        ],
        ['/api/roi/delete?roi_index_id=' + xcube.roi_index_id, { roi_ids: [aRois[0]] }],
        ['/api/roi-index/save', { title: '301Example', category_id: CATEGORY.EXAMPLE, ipp_id: -6 }],
        ['/api/roi-index/save', { title: '301Example', category_id: CATEGORY.XCUBE }],
      ];
      for (const [url, payload] of refusals) {
        const refused = await fail(w.tokens.ownAdmin, 'POST', url, payload);
        expect([url, JSON.stringify(payload), refused.code, refused.msg]).toEqual([
          url,
          JSON.stringify(payload),
          1011,
          EXAMPLE_EN,
        ]);
      }
      expect(await folderState()).toEqual(before.folders);
      expect(await roisState()).toEqual(before.rois);
      expect(await okData<unknown[]>(w.tokens.ownAdmin, 'GET', '/api/roi-index/tool-bar')).toEqual([]);
    });

    it('lets the superadmin make an example class (spec §7: ipp_id -6 with category -6), read-only for everyone else', async () => {
      const made = await okData<{ roi_index_id: number; code: string }>(w.tokens.superadmin, 'POST', '/api/roi-index/save', {
        title: '302Reference',
        category_id: CATEGORY.EXAMPLE,
        ipp_id: -6,
      });
      // It is a class of the library the example ROIs show: the superadmin's -1, everyone else's -6.
      expect((await tree(w.tokens.superadmin, 'category_id=-1&show_empty=1')).map((n) => n.roi_index_id)).toContain(
        made.roi_index_id,
      );
      expect((await tree(w.tokens.user, 'category_id=-6&show_empty=1')).map((n) => n.roi_index_id)).toContain(made.roi_index_id);
      await act(w.tokens.superadmin, { type: '51', category_id: -100, roi_ids: [aRois[1]], target_id: made.roi_index_id });
      expect(ids((await list(w.tokens.user, `category_id=-6&code=${made.code}`)).items)).toEqual([aRois[1]]);
      const refused = await fail(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', {
        roi_index_id: made.roi_index_id,
        title: '302Other',
      });
      expect([refused.code, refused.msg]).toEqual([1011, EXAMPLE_EN]);
    });
  });

  it("answers get-adjacent-roi for another team's ROI exactly like for a missing one (no existence oracle)", async () => {
    const adjacent = (token: Token, roiId: number, extra = '') =>
      call(env, token, 'GET', `/api/roi/get-adjacent-roi?category_id=-1000&roi_id=${roiId}&diysort=size${extra}`);
    const own = body(await adjacent(w.tokens.ownAdmin, aRois[1]!));
    expect(own.code).toBe(1000);
    for (const token of [w.tokens.ownAdmin, w.tokens.user]) {
      const other = await adjacent(token, bRoi);
      const missing = await adjacent(token, 999_999);
      expect([other.statusCode, body(other)]).toEqual([missing.statusCode, body(missing)]);
      expect(body(other).code).toBe(1002);
      expect(body(await adjacent(token, bRoi, '&sorttype=asc'))).toEqual(body(await adjacent(token, 999_999, '&sorttype=asc')));
    }
    // The other team sees its own ROI's neighbours, and the superadmin sees every team's.
    expect(body(await adjacent(w.tokens.otherAdmin, bRoi)).code).toBe(1000);
    expect(body(await adjacent(w.tokens.superadmin, bRoi)).code).toBe(1000);
    // Another team's ROI in the Xcube library is an example ROI everyone reads: its neighbours there are answered.
    await act(w.tokens.superadmin, { type: 'B001', category_id: -100, roi_ids: [aRois[0]] });
    await act(w.tokens.superadmin, { type: 'B001', category_id: -100, roi_ids: [bRoi] });
    const inLibrary = body(await call(env, w.tokens.ownAdmin, 'GET', `/api/roi/get-adjacent-roi?category_id=-6&roi_id=${bRoi}`));
    expect(inLibrary.code).toBe(1000);
    expect(inLibrary.data).toEqual({ previous_id: null, next_id: aRois[0] });
  });

  describe('crafted cursors and tree codes', () => {
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const CRAFTED_CURSORS = [
      cursor([1.5, 1]),
      cursor([1e20, 1]),
      cursor([1, 1.5]),
      cursor([1, 9_999_999_999]),
      cursor([-9_999_999_999, 1]),
      cursor(['1', 1]),
      cursor([null, 1]),
      cursor([[1], 1]),
      cursor([1]),
      cursor({ 0: 1, 1: 2 }),
      cursor([5e-324, 1]),
      'not-a-cursor',
    ];

    it('answers a cursor the server did not write with 1002 on `after`, for every sort order', async () => {
      for (const diysort of ['Roi_time', 'size', 'confidence', 'id']) {
        for (const after of CRAFTED_CURSORS) {
          const res = await call(
            env,
            w.tokens.user,
            'GET',
            `/api/roi/index?category_id=-100&ipp_id=${a1.id}&diysort=${diysort}&after=${after}`,
          );
          expect(res.statusCode).toBeLessThan(500);
          const b = body(res) as Failure;
          // Only a value the sort column can hold is a position: a capture time is any safe integer, a confidence
          // any normal double; the id and a size are 32-bit integers.
          const position =
            (diysort === 'Roi_time' && after === cursor([-9_999_999_999, 1])) ||
            (diysort === 'confidence' && [cursor([1.5, 1]), cursor([1e20, 1]), cursor([-9_999_999_999, 1])].includes(after));
          expect([diysort, after, b.code, b.model?.field ?? null]).toEqual(
            position ? [diysort, after, 1000, null] : [diysort, after, 1002, 'after'],
          );
        }
      }
      // A real cursor still pages.
      const first = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&limit=2&diysort=size`);
      const second = await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}&limit=2&diysort=size&after=${first.next}`);
      expect(second.items.length).toBe(2);
    });

    it('answers tree codes with ids beyond 32 bits like unknown ones, on every call that takes a code', async () => {
      const codes = ['f:9999999999', 's:9999999999', 'c:9999999999', 't:ai:c:4294967296', 'f:2147483648', 't:toString'];
      for (const code of codes) {
        for (const url of [
          `/api/roi/index?category_id=-100&ipp_id=${a1.id}&code=${code}`,
          `/api/roi/index?category_id=0&code=${code}`,
          `/api/roi/index?category_id=-1000&code=${code}`,
          `/api/roi/get-adjacent-roi?category_id=0&code=${code}&roi_id=${aRois[0]}`,
          `/api/roi/get-roi-by-code?roi_index_code=${code}`,
        ]) {
          const res = await call(env, w.tokens.user, 'GET', url);
          expect([url, res.statusCode < 500]).toEqual([url, true]);
          expect([url, body(res).code]).toEqual([url, 1002]);
        }
        const posted = await call(env, w.tokens.user, 'POST', '/api/roi/operate-roi', {
          type: 'copy',
          roi_index_code: code,
          roi_ids: [aRois[0]],
          category_id: -100,
        });
        expect([code, posted.statusCode < 500, body(posted).code]).toEqual([code, true, 1002]);
      }
    });

    const number = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e308, -0, 5e-324, 9_999_999_999, 0.5),
    );
    const agree = (res: { statusCode: number }, code: number) => {
      expect(res.statusCode).toBeLessThan(500);
      expect([1000, 1002, 1011]).toContain(code);
    };

    it('never answers a 5xx to any cursor (property)', async () => {
      const value = fc.oneof(
        number,
        fc.string({ maxLength: 6 }),
        fc.constant(null),
        fc.boolean(),
        fc.array(fc.integer(), { maxLength: 2 }),
      );
      const after = fc.oneof(
        { weight: 4, arbitrary: fc.tuple(number, number).map(cursor) },
        { weight: 1, arbitrary: fc.array(value, { maxLength: 3 }).map(cursor) },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(`category_id=-100&ipp_id=${a1.id}`, 'category_id=-1000', 'category_id=-7', 'category_id=0'),
          fc.constantFrom('Roi_time', 'size', 'confidence', 'id'),
          fc.constantFrom('asc', 'desc'),
          after,
          async (scope, diysort, sorttype, afterValue) => {
            const query = `${scope}&diysort=${diysort}&sorttype=${sorttype}&after=${encodeURIComponent(afterValue)}`;
            const res = await call(env, w.tokens.ownAdmin, 'GET', `/api/roi/index?${query}`);
            agree(res, body(res).code as number);
          },
        ),
        { numRuns: 120 },
      );
    });

    it('never answers a 5xx to any tree code or folder code (property)', async () => {
      const segment = fc.oneof(
        fc.constantFrom('t', 's', 'c', 'f', 'ai', 'hi', 'ui', 'x', '', 'constructor', '__proto__', 'toString'),
        fc.bigInt({ min: 0n, max: 99_999_999_999n }).map(String),
        fc.string({ maxLength: 5 }),
      );
      const tagged = fc
        .tuple(fc.constantFrom('s', 'c', 'f'), fc.bigInt({ min: 0n, max: 9_999_999_999n }))
        .map(([tag, id]) => `${tag}:${id}`);
      const code = fc.oneof(
        { weight: 2, arbitrary: tagged },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom('t:ai:', 't:hi:', 't:ui:'), tagged).map(([head, tail]) => head + tail) },
        { weight: 2, arbitrary: fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(':')) },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            `category_id=-100&ipp_id=${a1.id}`,
            'category_id=-1000',
            'category_id=0',
            'category_id=-5',
            'category_id=-6',
          ),
          code,
          fc.constantFrom('/api/roi/index', '/api/roi/get-adjacent-roi', '/api/roi/get-roi-by-code', '/api/roi/operate-roi'),
          async (scope, codeValue, url) => {
            const res =
              url === '/api/roi/operate-roi'
                ? await call(env, w.tokens.ownAdmin, 'POST', url, {
                    type: 'copy',
                    roi_index_code: codeValue,
                    roi_ids: [aRois[0]],
                    category_id: -100,
                  })
                : await call(
                    env,
                    w.tokens.ownAdmin,
                    'GET',
                    `${url}?${scope}&roi_id=${aRois[0]}&code=${encodeURIComponent(codeValue)}&roi_index_code=${encodeURIComponent(codeValue)}`,
                  );
            agree(res, body(res).code as number);
          },
        ),
        { numRuns: 150 },
      );
    });
  });

  it('sorts /tool/sys-init by title descending when no sort is named (spec §7: sort -title)', async () => {
    const titles = async (query: string) =>
      (await okData<{ title: string }[]>(w.tokens.user, 'GET', `/api/tool/sys-init${query}`)).map((c) => c.title);
    const ascending = [...(await titles('?sort=title'))];
    expect(ascending).toEqual([...ascending].sort((x, y) => x.localeCompare(y)));
    expect(await titles('')).toEqual([...ascending].reverse());
    expect(await titles('?sort=-title')).toEqual([...ascending].reverse());
  });

  it('answers a time range with neither start nor end with 日期格式错误; a list naming no range is not filtered', async () => {
    const base = `/api/roi/index?category_id=-100&ipp_id=${a1.id}`;
    for (const range of ['Roi_time_s=&Roi_time_e=', 'Roi_time_s=', 'Roi_time_e=', 'Roi_time_s=%20%20&Roi_time_e=%20']) {
      const zh = await fail(w.tokens.user, 'GET', `${base}&${range}`, undefined, 'zh');
      expect([range, zh.code, zh.msg]).toEqual([range, 1002, '日期格式错误']);
      const en = await fail(w.tokens.user, 'GET', `${base}&${range}`);
      expect(en.msg).toBe('Date format error');
    }
    expect((await list(w.tokens.user, `category_id=-100&ipp_id=${a1.id}`)).count).toBe(4);
    // Re-identification: a range sent empty is a date format error; no date at all is the form's "Please select date".
    const empty = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', { dev_id: 'A1', Roi_time_s: '', Roi_time_e: '' });
    expect([empty.code, empty.msg]).toEqual([1002, 'Date format error']);
    const blank = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', { dev_id: 'A1', Roi_time_s: ' ' }, 'zh');
    expect([blank.code, blank.msg]).toEqual([1002, '日期格式错误']);
    const none = await fail(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', { dev_id: 'A1' });
    expect([none.code, none.msg]).toEqual([1002, 'Please select date']);
  });

  it('reports an unknown folder as a missing folder, not a missing class', async () => {
    const missing: [string, 'GET' | 'POST', object | undefined][] = [
      ['/api/folder/get-folder-by-roi-index?roi_index_id=999999', 'GET', undefined],
      ['/api/roi/get-roi-by-code?roi_index_code=nope', 'GET', undefined],
      ['/api/roi/index?category_id=0&code=f:999999', 'GET', undefined],
      ['/api/roi-index/rename', 'POST', { roi_index_id: 999_999, title: '400Gone' }],
      ['/api/roi-index/delete-folder', 'POST', { roi_index_id: 999_999 }],
      ['/api/folder/operate-folder', 'POST', { type: 'copy', roi_index_id: 999_999, category_id: CATEGORY.TEMPORARY }],
      ['/api/roi/operate-roi', 'POST', { type: 'copy', roi_index_code: 'f:999999', roi_ids: [aRois[0]], category_id: -100 }],
    ];
    for (const [url, method, payload] of missing) {
      const en = await fail(w.tokens.user, method, url, payload);
      expect([url, en.code, en.msg]).toEqual([url, 1002, 'The folder does not exist']);
      const zh = await fail(w.tokens.user, method, url, payload, 'zh');
      expect([url, zh.msg]).toEqual([url, '文件夹不存在']);
    }
    // A missing class is still a missing class.
    const cls = await fail(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', { class_id: 999_999, title: '401Gone' });
    expect(cls.msg).toBe('The class does not exist');
  });

  describe('demo images in the team gallery support no operation, by the class either (spec §6)', () => {
    it('refuses every class operation on a folder holding one, marks it in the tree, and lets other folders be', async () => {
      await env.db.kysely.updateTable('rois').set({ is_demo_image: 1 }).where('id', '=', aRois[0]!).execute();
      const made = async (title: string) =>
        (
          await okData<{ roi_index_id: number }>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
            title,
            category_id: CATEGORY.TEAM,
          })
        ).roi_index_id;
      const demo = await made('301Demo');
      const plain = await made('302Plain');
      // Filled as the team gallery's image actions fill it (their refusals for demo images are bulk.service's).
      await env.db.kysely.transaction().execute(async (trx) => {
        await addMembers(trx, demo, [aRois[0]!, aRois[1]!], new Set([aRois[0]!, aRois[1]!]), env.clock.now);
        await addMembers(trx, plain, [aRois[2]!], new Set([aRois[2]!]), env.clock.now);
      });
      const nodes = await tree(w.tokens.ownAdmin, `category_id=${CATEGORY.TEAM}`);
      expect(nodes.map((n) => [n.title, n.demo_images ?? false])).toEqual([
        ['301Demo', true],
        ['302Plain', false],
      ]);
      const before = [await roisState(), await folderState()];
      const refusals = [
        ['/api/folder/operate-folder', { type: 'copy', roi_index_id: demo, category_id: CATEGORY.TEMPORARY }],
        ['/api/folder/operate-folder', { type: 'move', roi_index_id: demo, category_id: CATEGORY.TEMPORARY }],
        ['/api/folder/operate-folder', { type: 'to_hi', roi_index_id: demo }],
        ['/api/folder/operate-folder', { type: 'remove', roi_index_id: demo }],
        ['/api/roi-index/delete-folder', { roi_index_id: demo }],
        ['/api/roi-index/batch-delete', { ids: [plain, demo] }],
      ] as const;
      for (const [url, payload] of refusals) {
        const refused = await fail(w.tokens.ownAdmin, 'POST', url, payload);
        expect([refused.code, refused.msg], `${url} ${JSON.stringify(payload)}`).toEqual([
          1011,
          'Operation not supported for demo images',
        ]);
      }
      const zh = await fail(w.tokens.ownAdmin, 'POST', '/api/folder/operate-folder', { type: 'to_hi', roi_index_id: demo }, 'zh');
      expect(zh.msg).toBe('演示图像不支持此操作');
      expect([await roisState(), await folderState()]).toEqual(before);
      // A folder without demo images is operated as before.
      const copied = await okData<{ affected: number }>(w.tokens.ownAdmin, 'POST', '/api/folder/operate-folder', {
        type: 'copy',
        roi_index_id: plain,
        category_id: CATEGORY.TEMPORARY,
      });
      expect(copied.affected).toBe(1);
    });

    it('two administrators operate on a demo folder at once: both refused, nothing changed', async () => {
      await env.db.kysely.updateTable('rois').set({ is_demo_image: 1 }).where('id', '=', aRois[0]!).execute();
      const { roi_index_id: demo } = await okData<{ roi_index_id: number }>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
        title: '303Demo',
        category_id: CATEGORY.TEAM,
      });
      await env.db.kysely.transaction().execute(async (trx) => {
        await addMembers(trx, demo, [aRois[0]!, aRois[1]!], new Set([aRois[0]!, aRois[1]!]), env.clock.now);
      });
      const before = [await roisState(), await folderState()];
      const answers = await Promise.all([
        fail(w.tokens.ownAdmin, 'POST', '/api/folder/operate-folder', { type: 'to_hi', roi_index_id: demo }),
        fail(w.tokens.superadmin, 'POST', '/api/folder/operate-folder', {
          type: 'move',
          roi_index_id: demo,
          category_id: CATEGORY.TEMPORARY,
        }),
        fail(w.tokens.ownAdmin, 'POST', '/api/roi-index/delete-folder', { roi_index_id: demo }),
      ]);
      expect(answers.map((a) => a.code)).toEqual([1011, 1011, 1011]);
      expect([await roisState(), await folderState()]).toEqual(before);
    });
  });
});
