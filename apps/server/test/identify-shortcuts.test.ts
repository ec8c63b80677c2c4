import type { ToolbarItem, TreeNode } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

type Token = string | undefined;

/**
 * What the identify screens show around the tree (issue 20): toolbar shortcuts follow their folder or class when it
 * is renamed or deleted, and "show empty classes" lists no class under UI (unidentified images have none).
 */
describe.each(dialects)('identify shortcuts and the UI group on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: { id: number; key: string };

  const okData = async <T>(token: Token, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const res = body(await call(env, token, method, url, payload));
    if (res.code !== 1000) throw new Error(`${method} ${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };
  const shortcuts = (token: Token) => okData<ToolbarItem[]>(token, 'GET', '/api/roi-index/tool-bar');
  const addShortcut = (token: Token, category_id: number, code: string, title: string) =>
    okData<ToolbarItem>(token, 'POST', '/api/roi-index/add-tool-bar', { category_id, code, title });

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    let seed = 0;
    for (const label of [1, 0]) {
      const res = body(
        await uploadRoi(
          env,
          a1.key,
          { captured_at: env.clock.now - 60_000, label_index: label, size_px: 2000 },
          await pngOf(++seed),
        ),
      );
      if (res.code !== 1000) throw new Error(JSON.stringify(res));
    }
  });
  afterEach(() => env.close());

  it('shows a renamed folder under its new name and drops the shortcut of a deleted one', async () => {
    const folder = await okData<{ roi_index_id: number }>(w.tokens.user, 'POST', '/api/roi-index/save', {
      title: '201Work',
      category_id: 0,
    });
    await addShortcut(w.tokens.user, 0, `f:${folder.roi_index_id}`, '201Work');
    await addShortcut(w.tokens.user, -100, 't:ai', 'AI');
    await okData(w.tokens.user, 'POST', '/api/roi-index/rename', { roi_index_id: folder.roi_index_id, title: '202Done' });
    expect((await shortcuts(w.tokens.user)).map((s) => s.title)).toEqual(['202Done', 'AI']);
    await okData(w.tokens.user, 'POST', '/api/roi-index/delete-folder', { roi_index_id: folder.roi_index_id });
    expect((await shortcuts(w.tokens.user)).map((s) => s.title)).toEqual(['AI']);
  });

  it('shows a renamed class under its new name and drops the shortcut of a deleted one', async () => {
    const created = await okData<{ class_id: number; code: string }>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', {
      title: '009Noctiluca',
      category_id: -100,
      ipp_id: a1.id,
    });
    await addShortcut(w.tokens.ownAdmin, -100, created.code, '009Noctiluca');
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/rename', { class_id: created.class_id, title: '009Noctiluca_s' });
    expect((await shortcuts(w.tokens.ownAdmin)).map((s) => [s.code, s.title])).toEqual([[created.code, '009Noctiluca_s']]);
    await okData(w.tokens.ownAdmin, 'POST', '/api/roi-index/delete-folder', { class_id: created.class_id });
    expect(await shortcuts(w.tokens.ownAdmin)).toEqual([]);
  });

  it('lists empty classes under AI and HI when asked, never under UI', async () => {
    const nodes = await okData<TreeNode[]>(
      w.tokens.user,
      'GET',
      `/api/roi-index/index?category_id=-100&ipp_id=${a1.id}&show_empty=1`,
    );
    const group = (code: string) => nodes.find((n) => n.code === code)!;
    expect(group('t:ai').children.length).toBeGreaterThan(1);
    expect(group('t:hi').children.length).toBeGreaterThan(1);
    expect(group('t:ui').children.map((c) => [c.title, c.count])).toEqual([['000Unclassified', 1]]);
  });
});
