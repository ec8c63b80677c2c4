import type { ClassItem, TreeNode } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { CLASS_LIMIT_PER_TEAM } from '../src/modules/classes/classes.ts';
import { classForFolder } from '../src/modules/transfer/import-folder.ts';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, roiMultipart, uploadRoi } from './helpers/device.ts';

type Token = string | undefined;

/** Issue 20: class visibility per team, class ownership, and a bound on the classes one team may make. */
describe.each(dialects)('the class model on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let userB: Token;
  let a1: { id: number; key: string };
  let b1: { id: number; key: string };
  let seed = 0;
  let aRoi: number;
  let bRoi: number;

  const send = async (token: Token, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
    body(await call(env, token, method, url, payload, lang)) as { code: number; msg: string; data: unknown };
  const okData = async <T>(token: Token, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const res = await send(token, method, url, payload);
    if (res.code !== 1000) throw new Error(`${method} ${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };
  const classes = (token: Token, query = '') => okData<ClassItem[]>(token, 'GET', `/api/tool/sys-init?sort=title${query}`);
  const tree = (token: Token, query: string) => okData<TreeNode[]>(token, 'GET', `/api/roi-index/index?${query}`);
  const classNodes = (nodes: TreeNode[]): TreeNode[] =>
    nodes.flatMap((n) => [...(n.kind === 'class' ? [n] : []), ...classNodes(n.children)]);
  const newClass = (token: Token, title: string, lang = 'en') =>
    send(token, 'POST', '/api/roi-index/save', { title, category_id: -100, ipp_id: a1.id }, lang);
  const roi = async (key: string, label: number) => {
    const res = body(
      await uploadRoi(
        env,
        key,
        { captured_at: env.clock.now - 10 * 60_000, label_index: label, size_px: 2500 },
        await pngOf(++seed),
      ),
    );
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
    return (res.data as { roi_id: number }).roi_id;
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    userB = await login(env, 'user_b');
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    await roi(a1.key, 1);
    aRoi = await roi(a1.key, 2);
    bRoi = await roi(b1.key, 1);
  });
  afterEach(() => env.close());

  it("hides a class from its team's users in the class list and every tree; administrators see it marked and show it again", async () => {
    const copepod = (await classes(w.tokens.user)).find((c) => c.title === '001Copepod')!;
    const siteTree = `category_id=-100&ipp_id=${a1.id}&show_empty=1`;
    expect(classNodes(await tree(w.tokens.user, siteTree)).some((n) => n.class_id === copepod.id)).toBe(true);

    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/change-status', { class_id: copepod.id, status: 0 });

    // Team A's plain user: gone from /tool/sys-init (the class pickers and the re-identification list) and the trees.
    expect((await classes(w.tokens.user)).map((c) => c.id)).not.toContain(copepod.id);
    expect(classNodes(await tree(w.tokens.user, siteTree)).map((n) => n.class_id)).not.toContain(copepod.id);
    expect(classNodes(await tree(w.tokens.user, 'category_id=-1000&show_empty=1')).map((n) => n.class_id)).not.toContain(
      copepod.id,
    );
    // Nor can they label an image with it (the pickers do not offer it; the call answers as for a missing class).
    const label = await send(w.tokens.user, 'GET', `/api/roi/set-roi-label-index?roi_id=${aRoi}&roi_labelindex=1`);
    expect([label.code, label.msg]).toEqual([1002, 'The class does not exist']);
    // The images stay in the list of the whole station; the AI group counts what its classes shown add up to (issue 37).
    const ai = (await tree(w.tokens.user, siteTree)).find((n) => n.code === 't:ai')!;
    expect(ai.count).toBe(1);
    expect((await tree(w.tokens.ownAdmin, siteTree)).find((n) => n.code === 't:ai')!.count).toBe(2);
    // Team A's administrator sees it, marked hidden, in the list and the tree.
    expect((await classes(w.tokens.ownAdmin)).find((c) => c.id === copepod.id)?.visible).toBe(false);
    const marked = classNodes(await tree(w.tokens.ownAdmin, siteTree)).find((n) => n.class_id === copepod.id);
    expect(marked?.hidden).toBe(true);
    // Team B is not touched: its user still sees the class, its administrator sees it shown.
    expect((await classes(userB)).find((c) => c.id === copepod.id)?.visible).toBe(true);
    expect((await classes(w.tokens.otherAdmin)).find((c) => c.id === copepod.id)?.visible).toBe(true);

    // Shown again.
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/change-status', { class_id: copepod.id, status: 1 });
    expect((await classes(w.tokens.user)).find((c) => c.id === copepod.id)?.visible).toBe(true);
    expect(classNodes(await tree(w.tokens.user, siteTree)).find((n) => n.class_id === copepod.id)?.hidden).toBeUndefined();
    await okData(w.tokens.user, 'GET', `/api/roi/set-roi-label-index?roi_id=${aRoi}&roi_labelindex=1`);
  });

  it('refuses a plain user moving images to a class their team hides (save-move 23), by id or by label index', async () => {
    const uiRoi = await roi(a1.key, 0);
    const copepod = (await classes(w.tokens.user)).find((c) => c.title === '001Copepod')!;
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/change-status', { class_id: copepod.id, status: 0 });
    const move = (token: Token, target: object, lang = 'en') =>
      send(token, 'POST', '/api/roi/save-move', { type: '23', category_id: -100, roi_ids: [uiRoi], ...target }, lang);

    const byId = await move(w.tokens.user, { target_id: copepod.id });
    expect([byId.code, byId.msg]).toEqual([1002, 'The class does not exist']);
    const byLabel = await move(w.tokens.user, { change_roi_labelindex: 1 }, 'zh');
    expect(byLabel.code).toBe(1002);
    // Nothing was labelled: the image is still unidentified.
    const ui = (await tree(w.tokens.ownAdmin, `category_id=-100&ipp_id=${a1.id}`)).find((n) => n.code === 't:ui')!;
    expect(ui.count).toBe(1);
    // The team's administrator still may (they see the class, marked).
    expect((await move(w.tokens.ownAdmin, { target_id: copepod.id })).code).toBe(1000);
  });

  it("changes visibility only for one's own team; the superadmin names the team; users cannot", async () => {
    const diatom = (await classes(w.tokens.user)).find((c) => c.title === '002Diatom_chain')!;
    const hide = (token: Token, extra: object = {}, lang = 'en') =>
      send(token, 'POST', '/api/roi-index/change-status', { class_id: diatom.id, status: 0, ...extra }, lang);
    expect((await hide(w.tokens.user)).code).toBe(1011);
    expect((await hide(w.tokens.otherAdmin, { group_id: w.teamA })).code).toBe(1011);
    const noTeam = await hide(w.tokens.superadmin, {}, 'zh');
    expect([noTeam.code, noTeam.msg]).toEqual([1002, '请选择团队！']);
    expect((await hide(w.tokens.superadmin, { group_id: 999_999 })).msg).toBe('The team does not exist');
    await okData(w.tokens.superadmin, 'POST', '/api/roi-index/change-status', {
      class_id: diatom.id,
      status: 0,
      group_id: w.teamB,
    });
    expect((await classes(userB)).map((c) => c.id)).not.toContain(diatom.id);
    expect((await classes(w.tokens.user)).map((c) => c.id)).toContain(diatom.id);
    // The superadmin reads the visibility of the team it names; all teams: nothing is hidden.
    expect((await classes(w.tokens.superadmin, `&group_id=${w.teamB}`)).find((c) => c.id === diatom.id)?.visible).toBe(false);
    expect((await classes(w.tokens.superadmin)).find((c) => c.id === diatom.id)?.visible).toBe(true);
  });

  it("lets a team change only its own classes; system and shared classes are the superadmin's; other teams' use protects a class", async () => {
    const created = await okData<{ class_id: number }>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
      title: '009Noctiluca',
      category_id: -100,
      ipp_id: a1.id,
    });
    const id = created.class_id;
    const mine = (await classes(w.tokens.ownAdmin)).find((c) => c.id === id)!;
    expect([mine.owner, mine.editable]).toEqual(['team', true]);
    expect((await classes(w.tokens.otherAdmin)).find((c) => c.id === id)?.editable).toBe(false);
    expect((await classes(w.tokens.user)).find((c) => c.id === id)?.editable).toBe(false);

    // Another team's administrator cannot rename, delete or highlight it.
    const rename = (token: Token, title: string, lang = 'en') =>
      send(token, 'POST', '/api/roi-index/rename', { class_id: id, title }, lang);
    const notOwned = await rename(w.tokens.otherAdmin, '009Other');
    expect([notOwned.code, notOwned.msg]).toEqual([
      1011,
      "This class belongs to another team: only that team's admins or the Super Admin can change it",
    ]);
    expect((await rename(w.tokens.otherAdmin, '009Other', 'zh')).msg).toBe(
      '该类别属于另一个团队，只有该团队的管理员或超级管理员可以修改',
    );
    expect((await send(w.tokens.otherAdmin, 'POST', '/api/roi-index/delete-folder', { class_id: id })).code).toBe(1011);
    expect(
      (await send(w.tokens.otherAdmin, 'POST', '/api/roi-index/change-status', { class_id: id, attention: true })).code,
    ).toBe(1011);
    expect((await classes(w.tokens.otherAdmin)).find((c) => c.id === id)?.title).toBe('009Noctiluca');

    // A system class: no team highlights it for everyone; the superadmin may.
    const copepod = (await classes(w.tokens.user)).find((c) => c.title === '001Copepod')!;
    expect(copepod.owner).toBe('system');
    const shared = await send(w.tokens.ownAdmin, 'POST', '/api/roi-index/change-status', {
      class_id: copepod.id,
      attention: true,
    });
    expect([shared.code, shared.msg]).toEqual([1011, 'This class is shared by all teams: only the Super Admin can change it']);
    await okData(w.tokens.superadmin, 'POST', '/api/roi-index/change-status', { class_id: copepod.id, attention: true });
    expect((await classes(w.tokens.user)).find((c) => c.id === copepod.id)?.attention).toBe(true);

    // The superadmin's classes are shared: no team renames them.
    const sharedClass = await okData<{ class_id: number }>(w.tokens.superadmin, 'POST', '/api/roi-index/save', {
      title: '010Shared',
      category_id: -100,
      ipp_id: a1.id,
    });
    expect((await classes(w.tokens.ownAdmin)).find((c) => c.id === sharedClass.class_id)?.owner).toBe('shared');
    const renameShared = await send(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', {
      class_id: sharedClass.class_id,
      title: '010Mine',
    });
    expect(renameShared.code).toBe(1011);

    // Team B labels its own image with team A's class: team A can no longer rename or delete it; the superadmin can.
    await okData(w.tokens.otherAdmin, 'GET', `/api/roi/set-roi-label-index?roi_id=${bRoi}&roi_labelindex=9`);
    const used = await rename(w.tokens.ownAdmin, '009Noctiluca_scintillans');
    expect([used.code, used.msg]).toEqual([
      1011,
      "Other teams' images carry this class: only the Super Admin can rename or delete it",
    ]);
    const usedDelete = await send(w.tokens.ownAdmin, 'POST', '/api/roi-index/delete-folder', { class_id: id }, 'zh');
    expect(usedDelete.msg).toBe('其他团队的图像也在使用该类别，只有超级管理员可以重命名或删除');
    await okData(w.tokens.superadmin, 'POST', '/api/roi-index/rename', { class_id: id, title: '009Noctiluca_scintillans' });

    // Its own, unused class: the owner renames and deletes it.
    const other = await okData<{ class_id: number }>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
      title: '011Salp',
      category_id: -100,
      ipp_id: a1.id,
    });
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', { class_id: other.class_id, title: '011Salpa' });
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/delete-folder', { class_id: other.class_id });
    expect((await classes(w.tokens.ownAdmin)).map((c) => c.id)).not.toContain(other.class_id);
  });

  it('bounds the classes one team may own, so other teams can still create theirs', async () => {
    for (let i = 0; i < CLASS_LIMIT_PER_TEAM; i++) {
      const res = await newClass(w.tokens.ownAdmin, `${String(100 + i).padStart(3, '0')}Mine${i}`);
      expect(res.code).toBe(1000);
    }
    const over = await newClass(w.tokens.ownAdmin, '300Onemore');
    expect([over.code, over.msg]).toEqual([
      1002,
      `A team can own at most ${CLASS_LIMIT_PER_TEAM} classes (the numbers 001–999 are shared by all teams): delete unused ones first`,
    ]);
    expect((await newClass(w.tokens.ownAdmin, '300Onemore', 'zh')).msg).toBe(
      `每个团队最多拥有 ${CLASS_LIMIT_PER_TEAM} 个类别（编号 001–999 由所有团队共用），请先删除不用的类别`,
    );
    expect((await classes(w.tokens.ownAdmin)).map((c) => c.title)).not.toContain('300Onemore');
    // Team B and the superadmin are not held back by team A.
    const theirs = await send(w.tokens.otherAdmin, 'POST', '/api/roi-index/save', {
      title: '300Theirs',
      category_id: -100,
      ipp_id: b1.id,
    });
    expect(theirs.code).toBe(1000);
    expect((await newClass(w.tokens.superadmin, '301Shared')).code).toBe(1000);
    // Deleting one of its own makes room again.
    const one = (await classes(w.tokens.ownAdmin)).find((c) => c.title === '100Mine0')!;
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/delete-folder', { class_id: one.id });
    expect((await newClass(w.tokens.ownAdmin, '302Onemore')).code).toBe(1000);
  });

  it("gives an imported folder's new class to the station's team, within the same bound", async () => {
    const k = env.db.kysely;
    const made = await k.transaction().execute((trx) => classForFolder(trx, 'Noctiluca', env.clock.now, w.teamA));
    expect(made.created).toBe(true);
    const row = await k.selectFrom('classes').select(['name', 'group_id']).where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: '100Noctiluca', group_id: w.teamA });
    await k
      .insertInto('classes')
      .values(
        Array.from({ length: CLASS_LIMIT_PER_TEAM - 1 }, (_, i) => ({
          name: `${200 + i}Filler${i}`,
          label_index: 200 + i,
          system: 0,
          group_id: w.teamA,
          created_at: env.clock.now,
        })),
      )
      .execute();
    await expect(k.transaction().execute((trx) => classForFolder(trx, 'Salp', env.clock.now, w.teamA))).rejects.toThrow(
      /already owns 100 classes/,
    );
    // An existing class is still found; another team still gets a new one.
    expect((await k.transaction().execute((trx) => classForFolder(trx, 'Copepod', env.clock.now, w.teamA))).created).toBe(false);
    expect((await k.transaction().execute((trx) => classForFolder(trx, 'Salp', env.clock.now, w.teamB))).created).toBe(true);
    // The console's zip import says so in the user's language.
    const zip = await new Promise<Buffer>((resolve, reject) => {
      const file = new yazl.ZipFile();
      void pngOf(++seed).then((png) => {
        file.addBuffer(png, 'set/Doliolid/a.png');
        file.end();
      });
      const chunks: Buffer[] = [];
      file.outputStream.on('data', (c: Buffer) => chunks.push(c));
      file.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
      file.outputStream.on('error', reject);
    });
    for (const [lang, msg] of [
      [
        'en',
        `A team can own at most ${CLASS_LIMIT_PER_TEAM} classes (the numbers 001–999 are shared by all teams): delete unused ones first`,
      ],
      ['zh', `每个团队最多拥有 ${CLASS_LIMIT_PER_TEAM} 个类别（编号 001–999 由所有团队共用），请先删除不用的类别`],
    ] as const) {
      const { payload, headers } = roiMultipart({}, zip);
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/roi/import?dev_id=A1',
        payload,
        headers: { ...headers, 'x-lang': lang, 'x-token': w.tokens.ownAdmin ?? '' },
      });
      expect(body(res)).toMatchObject({ code: 1002, msg, model: { field: 'file' } });
    }
    expect(await k.selectFrom('classes').select('id').where('name', 'like', '%Doliolid').execute()).toEqual([]);
  });
});
