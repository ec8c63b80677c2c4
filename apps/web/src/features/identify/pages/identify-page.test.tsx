import type { Job, RoiItem, TreeNode } from '@ipp/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { typeRange } from '@/test/date';
import { setLanguage } from '@/i18n';
import { ippFixture } from '@/test/fixtures';
import { callsTo, failField, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { roiFixture } from '@/test/monitoring-fixtures';
import { jsonResponse, okEnvelope, renderRoutes } from '@/test/render';
import { pickOption } from '@/test/select';

const node = (over: Partial<TreeNode>): TreeNode => ({
  code: 'x',
  title: 'x',
  count: 0,
  roi_index_id: null,
  class_id: null,
  attention: false,
  toolbar: false,
  system: true,
  kind: 'group',
  children: [],
  ...over,
});

/** Site images of station 7: 12,345 AI Copepods (an attention class) and 3 unidentified. */
const SITE_TREE = [
  node({
    code: 't:ai',
    title: 'AI',
    count: 12_345,
    children: [node({ code: 't:ai:c:1', title: '001Copepod', count: 12_345, class_id: 1, kind: 'class', attention: true })],
  }),
  node({ code: 't:ui', title: 'UI', count: 3 }),
];
const FOLDER_TREE = [node({ code: 'f:31', title: '101Box', count: 4, roi_index_id: 31, system: false, kind: 'folder' })];

function roiItem(id: number, type: RoiItem['type']): RoiItem {
  return {
    ...roiFixture({ id, type, class_id: type === 'ai' ? 1 : null, class_name: type === 'ai' ? '001Copepod' : null }),
    status: 0,
    collect_status: 0,
    is_demo_image: 0,
    invalid: false,
    ai_top: type === 'ai' ? [{ class_id: 1, p: 0.82 }] : [],
    index: id,
    attention: type === 'ai',
    review_status: 'none',
    deleted_at: null,
  };
}
/** Newest first: three unidentified (the second captured while the wiper cleaned), then two AI-labelled. */
const ITEMS = [
  roiItem(1, 'ui'),
  { ...roiItem(2, 'ui'), flags: ['wiper' as const] },
  roiItem(3, 'ui'),
  roiItem(4, 'ai'),
  roiItem(5, 'ai'),
];

const action = (code: string, over: object = {}) => ({
  code,
  target: 'none',
  confirm: false,
  danger: false,
  no_ai: false,
  single: false,
  ...over,
});

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator', group_id: 4 }),
    '/api/roi/categorys': () =>
      okEnvelope([
        { id: -100, key: 'site', count: 123_456, can_create: true },
        { id: 0, key: 'folders', count: 4, can_create: true },
      ]),
    '/api/ipp/index': () => pageEnvelope([ippFixture({ id: 7 })]),
    '/api/roi-index/index': (url) => okEnvelope(url.searchParams.get('category_id') === '0' ? FOLDER_TREE : SITE_TREE),
    '/api/roi-index/tool-bar': () => okEnvelope([]),
    '/api/roi/index': () =>
      jsonResponse({
        code: 1000,
        data: { items: ITEMS, next: null, count_capped: true },
        model: null,
        count: 100_000,
        index: null,
      }),
    '/api/roi/actions': () =>
      okEnvelope({
        actions: [
          action('51', { target: 'folder', confirm: true }),
          action('61', { confirm: true }),
          action('23', { target: 'class', confirm: true, no_ai: true }),
        ],
        reason: null,
      }),
    '/api/folder/get-folder-by-roi-index': () =>
      jsonResponse({ code: 1000, data: { items: ITEMS, next: null, count_capped: false }, model: null, count: 5, index: null }),
    '/api/roi/get-adjacent-roi': () => okEnvelope({ previous_id: null, next_id: 2 }),
    '/api/roi/save-move': () => okEnvelope({ affected: 2, unchanged: 0, roi_index_id: null, bulk_id: 3 }),
    ...extra,
  });
}

const text = (testId: string) => screen.getByTestId(testId).textContent;
const cell = (id: number) => screen.getByTestId(`roi-cell-${id}`);

async function openWorkspace() {
  const view = renderRoutes(appRouteObjects, ['/identify']);
  await screen.findByTestId('roi-cell-5');
  return view;
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('administrator');
});

describe('identify workspace', () => {
  it('opens the first station’s site images with counts of ten thousand and more in 万', async () => {
    const fetchMock = server();
    await openWorkspace();
    expect(text('identify-node-count-t:ai')).toBe('1.23 万');
    expect(text('identify-node-count-t:ui')).toBe('3');
    expect(screen.getByTestId('identify-node-t:ai:c:1').getAttribute('data-attention')).toBe('true');
    // The server stopped counting at 100,000.
    expect(text('identify-total')).toBe('≥ 10.00 万 张');
    expect(text('identify-category')).toContain('站点图像 (12.35 万)');
    const list = callsTo(fetchMock, '/api/roi/index')[0]!.url.searchParams;
    expect(Object.fromEntries(list)).toMatchObject({ category_id: '-100', ipp_id: '7', limit: '200', sorttype: 'desc' });

    // The instrument's state at capture: marked on the thumbnail, and a filter of the list.
    expect(screen.getByTestId('roi-flags-2').querySelector('[title]')?.getAttribute('title')).toBe(
      '采集时雨刷正在清洁（或清洁后一分钟内）',
    );
    expect(screen.queryByTestId('roi-flags-1')).toBeNull();
    await pickOption('identify-flag', '雨刷清洁中');
    await waitFor(() => expect(callsTo(fetchMock, '/api/roi/index').at(-1)!.url.searchParams.get('flag')).toBe('wiper'));

    // A tree node narrows the list to its code.
    fireEvent.click(screen.getByTestId('identify-node-t:ai:c:1'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/roi/index').at(-1)!.url.searchParams.get('code')).toBe('t:ai:c:1'));
  });

  it('selects by click, Shift range and Ctrl toggle, then runs an action on the selection', async () => {
    const fetchMock = server();
    await openWorkspace();
    fireEvent.click(cell(1));
    fireEvent.click(cell(3), { shiftKey: true });
    expect(text('identify-selection-count')).toBe('已选 3 张');
    fireEvent.click(cell(2), { ctrlKey: true });
    expect(text('identify-selection-count')).toBe('已选 2 张');
    expect(cell(2).getAttribute('aria-selected')).toBe('false');
    // The last click is shown in the detail pane.
    await waitFor(() => expect(screen.getByTestId('identify-detail').getAttribute('data-roi')).toBe('2'));

    // Adding to favourites copies them into the favourites gallery: spec §8 asks first.
    fireEvent.click(screen.getByTestId('action-61'));
    const dialog = (await screen.findByTestId('confirm-ok')).closest('.ant-modal') as HTMLElement;
    expect(within(dialog).getByText('对 2 张图像执行此操作，确定吗？')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/roi/save-move')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await screen.findByText('操作成功：2 张已处理，0 张未变化');
    expect(lastBody(fetchMock, '/api/roi/save-move')).toEqual({ type: '61', category_id: -100, roi_ids: [1, 3] });
    await waitFor(() => expect(text('identify-selection-count')).toBe('已选 0 张'));
  });

  it('offers "move to an HI class" only while no AI-labelled ROI is selected', async () => {
    server();
    await openWorkspace();
    fireEvent.click(cell(2));
    expect(screen.getByTestId('action-23')).toBeTruthy();
    fireEvent.click(cell(4), { ctrlKey: true });
    expect(screen.queryByTestId('action-23')).toBeNull();
    expect(screen.getByTestId('action-51')).toBeTruthy();
  });

  it('offers an administrator the classes hidden from the team’s users in the HI class picker, marked hidden', async () => {
    const cls = (id: number, title: string, visible: boolean) => ({
      id,
      title,
      label_index: id,
      system: true,
      visible,
      attention: false,
      owner: 'system',
      editable: false,
      taxon: null,
    });
    const fetchMock = server({
      '/api/tool/sys-init': () => okEnvelope([cls(1, '001桡足类', false), cls(2, '002硅藻链', true)]),
    });
    await openWorkspace();
    fireEvent.click(cell(2));
    fireEvent.click(screen.getByTestId('action-23'));
    await screen.findByTestId('identify-target-class');
    await pickOption('identify-target-class', '001桡足类（已隐藏）');
    fireEvent.click(screen.getByTestId('identify-target-ok'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/roi/save-move')).toEqual({ type: '23', category_id: -100, roi_ids: [2], target_id: 1 }),
    );
  });

  it('copies to a folder chosen in the picker after a confirmation, and shows a refusal with the server’s words', async () => {
    const fetchMock = server();
    await openWorkspace();
    fireEvent.click(cell(1));
    fireEvent.click(screen.getByTestId('action-51'));
    await screen.findByTestId('identify-target-folder');
    await pickOption('identify-target-folder', '101Box (4)');
    fireEvent.click(screen.getByTestId('identify-target-ok'));
    const dialog = (await screen.findByTestId('confirm-ok')).closest('.ant-modal') as HTMLElement;
    expect(within(dialog).getByText('对 1 张图像执行此操作，目标：101Box。确定吗？')).toBeTruthy();
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/roi/save-move')).toEqual({ type: '51', category_id: -100, roi_ids: [1], target_id: 31 }),
    );

    server({ '/api/roi/save-move': () => failField(1011, '不支持此操作', 403, 'type') });
    fireEvent.click(cell(2));
    fireEvent.click(screen.getByTestId('action-61'));
    // The first confirmation may still be closing: this one is the last.
    await waitFor(() => expect(screen.getAllByTestId('confirm-ok')).toHaveLength(2));
    fireEvent.click(screen.getAllByTestId('confirm-ok').at(-1)!);
    await screen.findByText('不支持此操作');
    expect(text('identify-selection-count')).toBe('已选 1 张');
  });

  it('checks a new class name against the naming rule before creating it under HI', async () => {
    const fetchMock = server({
      '/api/roi-index/save': (_url, init) => {
        const { title } = JSON.parse(String(init?.body)) as { title: string };
        return okEnvelope({
          roi_index_id: null,
          class_id: 50,
          title,
          code: 't:hi:c:50',
          roi_index_code: null,
          category_id: -100,
          group_id: null,
          ipp_id: null,
        });
      },
    });
    await openWorkspace();
    fireEvent.click(screen.getByTestId('identify-new-class'));
    const input = await screen.findByTestId('identify-new-class-input');
    fireEvent.click(screen.getByTestId('identify-new-class-ok'));
    await screen.findByText('类别名称不能为空');
    fireEvent.change(input, { target: { value: '12ab' } });
    fireEvent.click(screen.getByTestId('identify-new-class-ok'));
    await screen.findByText('命名不符合规范');
    expect(callsTo(fetchMock, '/api/roi-index/save')).toHaveLength(0);

    fireEvent.change(input, { target: { value: '101Foo' } });
    fireEvent.click(screen.getByTestId('identify-new-class-ok'));
    await screen.findByText('在 HI 下新建类别 101Foo 成功');
    expect(lastBody(fetchMock, '/api/roi-index/save')).toEqual({ title: '101Foo', category_id: -100, ipp_id: 7, parent: 'HI' });
    // A new class is empty: the empty classes are shown so it can be seen.
    await waitFor(() => expect(callsTo(fetchMock, '/api/roi-index/index').at(-1)!.url.searchParams.get('show_empty')).toBe('1'));
  });

  it('counts the reviewed ROIs in the review tree once "reviewed" is chosen, like its list', async () => {
    const reviewTree = (reviewed: boolean) => [
      node({
        code: 't:ai',
        title: 'AI',
        count: reviewed ? 9 : 2,
        children: [node({ code: 't:ai:c:1', title: '001Copepod', count: reviewed ? 9 : 2, class_id: 1, kind: 'class' })],
      }),
    ];
    const fetchMock = server({
      '/api/roi/categorys': () =>
        okEnvelope([
          { id: -100, key: 'site', count: 123_456, can_create: true },
          { id: -7, key: 'review', count: 11, can_create: false },
        ]),
      '/api/roi-index/index': (url) =>
        okEnvelope(
          url.searchParams.get('category_id') === '-7' ? reviewTree(url.searchParams.get('reviewed_type') === '1') : SITE_TREE,
        ),
    });
    await openWorkspace();
    await pickOption('identify-category', '审核');
    await waitFor(() => expect(text('identify-node-count-t:ai')).toBe('2'));
    expect(callsTo(fetchMock, '/api/roi-index/index').at(-1)!.url.searchParams.get('reviewed_type')).toBe('0');
    // The review queue lists the least certain labels first; the site images were newest first.
    const list = () => callsTo(fetchMock, '/api/roi/index').at(-1)!.url.searchParams;
    await waitFor(() => expect(list().get('category_id')).toBe('-7'));
    expect([list().get('diysort'), list().get('sorttype')]).toEqual(['confidence', 'asc']);

    fireEvent.click(screen.getByTestId('identify-reviewed-1'));
    await waitFor(() => expect(text('identify-node-count-t:ai')).toBe('9'));
    const last = callsTo(fetchMock, '/api/roi-index/index').at(-1)!.url;
    expect(last.searchParams.get('category_id')).toBe('-7');
    expect(last.searchParams.get('reviewed_type')).toBe('1');
    expect(callsTo(fetchMock, '/api/roi/index').at(-1)!.url.searchParams.get('reviewed_type')).toBe('1');
    // Other categories do not send it.
    const site = callsTo(fetchMock, '/api/roi-index/index').find((call) => call.url.searchParams.get('category_id') === '-100')!;
    expect(site.url.searchParams.has('reviewed_type')).toBe(false);
    const siteList = callsTo(fetchMock, '/api/roi/index').find((call) => call.url.searchParams.get('category_id') === '-100')!;
    expect([siteList.url.searchParams.get('diysort'), siteList.url.searchParams.get('sorttype')]).toEqual(['Roi_time', 'desc']);
  });

  it('opens a new folder once the tree shows it (the tree gives its node code)', async () => {
    const folders = [...FOLDER_TREE];
    const fetchMock = server({
      '/api/roi-index/index': (url) => okEnvelope(url.searchParams.get('category_id') === '0' ? folders : SITE_TREE),
      '/api/roi-index/save': () => {
        folders.push(node({ code: 'f:32', title: '102New', roi_index_id: 32, system: false, kind: 'folder' }));
        // The folder's stored code is not a tree code: the page lists by the tree code only.
        return okEnvelope({
          roi_index_id: 32,
          class_id: null,
          title: '102New',
          code: 'f:32',
          roi_index_code: 'rf0123456789abcdef',
          category_id: 0,
          group_id: 1,
          ipp_id: null,
        });
      },
    });
    await openWorkspace();
    await pickOption('identify-category', '文件夹');
    await screen.findByTestId('identify-node-f:31');
    fireEvent.click(screen.getByTestId('identify-new-class'));
    fireEvent.change(await screen.findByTestId('identify-new-class-input'), { target: { value: '102New' } });
    fireEvent.click(screen.getByTestId('identify-new-class-ok'));
    await screen.findByText('在 文件夹 下新建类别 102New 成功');
    expect(lastBody(fetchMock, '/api/roi-index/save')).toEqual({ title: '102New', category_id: 0, parent: '文件夹' });
    const folderList = '/api/folder/get-folder-by-roi-index';
    await waitFor(() => expect(callsTo(fetchMock, folderList).at(-1)!.url.searchParams.get('roi_index_id')).toBe('32'));
    const codes = callsTo(fetchMock, '/api/roi/index').map((call) => call.url.searchParams.get('code'));
    expect(codes).not.toContain('rf0123456789abcdef');
  });

  it("lists a folder by spec §9's folder listing, 1000 a page, not by the 200-a-page list", async () => {
    const folderList = '/api/folder/get-folder-by-roi-index';
    const fetchMock = server({
      // A folder of 1,298 images: a first page of 1000, then the 298 left.
      [folderList]: (url) => {
        const page = Number(url.searchParams.get('page'));
        const ids =
          page === 1 ? Array.from({ length: 1000 }, (_, i) => 1000 + i) : Array.from({ length: 298 }, (_, i) => 2000 + i);
        return jsonResponse({
          code: 1000,
          data: { items: ids.map((id) => roiItem(id, 'ui')), next: page === 1 ? 'cursor' : null, count_capped: false },
          model: null,
          count: 1298,
          index: null,
        });
      },
    });
    await openWorkspace();
    await pickOption('identify-category', '文件夹');
    fireEvent.click(await screen.findByTestId('identify-node-f:31'));
    await waitFor(() => expect(callsTo(fetchMock, folderList).length).toBeGreaterThan(0));
    const first = callsTo(fetchMock, folderList)[0]!.url.searchParams;
    expect(Object.fromEntries(first)).toEqual({
      roi_index_id: '31',
      limit: '1000',
      page: '1',
      sorttype: 'desc',
      diysort: 'Roi_time',
    });
    await screen.findByTestId('roi-cell-1000');
    expect(callsTo(fetchMock, '/api/roi/index').filter((call) => call.url.searchParams.get('code') === 'f:31')).toHaveLength(0);
  });
});

function job(over: Partial<Job>): Job {
  return {
    id: 41,
    kind: 'reidentify',
    group_id: 4,
    status: 'queued',
    total: 100,
    done: 0,
    changed: 0,
    ipp_id: 7,
    dev_id: '21005',
    class_id: null,
    class_name: null,
    start_at: null,
    end_at: null,
    model_id: 9,
    user_name: 'admin',
    error: null,
    created_at: 1,
    updated_at: 1,
    ...over,
  };
}

async function submitReidentification() {
  fireEvent.click(screen.getByTestId('identify-reidentify'));
  const dialog = (await screen.findByTestId('identify-reidentify-ok')).closest('.ant-modal') as HTMLElement;
  typeRange(dialog, '2026-03-01 00:00:00', '2026-03-02 00:00:00');
  fireEvent.click(screen.getByTestId('identify-reidentify-ok'));
}

describe('identify workspace: re-identification', () => {
  it('follows the job live, then refreshes the labels and counts and says how many changed', async () => {
    let polls = 0;
    let relabelled = false;
    const tree = () => [
      node({ code: 't:ai', title: 'AI', count: relabelled ? 12_347 : 12_345 }),
      node({ code: 't:ui', title: 'UI', count: relabelled ? 1 : 3 }),
    ];
    const fetchMock = server({
      '/api/roi-index/index': () => okEnvelope(tree()),
      '/api/tool/sys-init': () => okEnvelope([]),
      '/api/roi/re-identify': () => okEnvelope({ job_id: 41, rois: 100 }),
      '/api/ai/job': () => {
        polls += 1;
        if (polls === 1) return okEnvelope(job({ status: 'queued' }));
        if (polls === 2) return okEnvelope(job({ status: 'running', done: 40 }));
        relabelled = true;
        return okEnvelope(job({ status: 'done', done: 100, changed: 7 }));
      },
    });
    await openWorkspace();
    expect(text('identify-node-count-t:ui')).toBe('3');
    const listCalls = callsTo(fetchMock, '/api/roi/index').length;
    await submitReidentification();

    await waitFor(() => expect(text('identify-reidentify-job-count')).toBe('0 / 100'));
    expect(text('identify-reidentify-rois')).toBe('已提交 100 张图像重新识别');
    expect(lastBody(fetchMock, '/api/roi/re-identify')).toMatchObject({
      dev_id: '21005',
      Roi_time_s: '2026-03-01 00:00:00',
      Roi_time_e: '2026-03-02 00:00:00',
    });
    await waitFor(() => expect(text('identify-reidentify-job-count')).toBe('40 / 100'));
    expect(screen.getByTestId('identify-reidentify-job').getAttribute('data-status')).toBe('running');
    expect(screen.getByRole('progressbar', { name: '进度' }).getAttribute('aria-valuenow')).toBe('40');

    expect((await screen.findByTestId('identify-reidentify-job-outcome')).textContent).toBe('标签已变更：7 个');
    expect(callsTo(fetchMock, '/api/ai/job')[0]!.url.searchParams.get('job_id')).toBe('41');
    // The tree's counts and the list are asked for again.
    await waitFor(() => expect(text('identify-node-count-t:ui')).toBe('1'));
    expect(callsTo(fetchMock, '/api/roi/index').length).toBeGreaterThan(listCalls);
    // Finished: no more polling.
    const settled = polls;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(polls).toBe(settled);
  });

  it('cancels the job only after a confirmation, and closing the dialog leaves it running', async () => {
    let cancelled = false;
    const fetchMock = server({
      '/api/tool/sys-init': () => okEnvelope([]),
      '/api/roi/re-identify': () => okEnvelope({ job_id: 41, rois: 100 }),
      '/api/ai/job': () =>
        okEnvelope(job(cancelled ? { status: 'cancelled', done: 40, changed: 2 } : { status: 'running', done: 40 })),
      '/api/ai/jobs/cancel': () => {
        cancelled = true;
        return okEnvelope(job({ status: 'cancelled', done: 40, changed: 2 }));
      },
    });
    await openWorkspace();
    await submitReidentification();
    fireEvent.click(await screen.findByTestId('identify-reidentify-job-cancel'));
    await screen.findByText('停止此任务？已完成的部分保持不变。');
    expect(callsTo(fetchMock, '/api/ai/jobs/cancel')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/ai/jobs/cancel')).toEqual({ job_id: 41 }));
    expect((await screen.findByTestId('identify-reidentify-job-outcome')).textContent).toBe('已取消 · 标签已变更：2 个');
    expect(screen.queryByTestId('identify-reidentify-job-cancel')).toBeNull();

    // A second job: closing the dialog does not cancel it.
    cancelled = false;
    fireEvent.click(screen.getByTestId('identify-reidentify-close'));
    await submitReidentification();
    await screen.findByTestId('identify-reidentify-job-cancel');
    fireEvent.click(screen.getByTestId('identify-reidentify-close'));
    await waitFor(() => expect(screen.queryByTestId('identify-reidentify-job')).toBeNull());
    expect(callsTo(fetchMock, '/api/ai/jobs/cancel')).toHaveLength(1);
  });
});

describe('identify workspace: AI models entry', () => {
  it('is offered to administrators but not to users', async () => {
    server();
    const view = await openWorkspace();
    expect(screen.getByTestId('identify-ai-models')).toBeTruthy();
    view.unmount();

    signIn('user');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'user', group_id: 4 }) });
    await openWorkspace();
    expect(screen.queryByTestId('identify-ai-models')).toBeNull();
    expect(screen.queryByTestId('identify-reidentify')).toBeNull();
  });

  describe('labelling from the keyboard (issue 25)', () => {
    const inPlace = () =>
      okEnvelope({
        actions: [action('81'), action('82', { target: 'class' }), action('83')],
        reason: null,
      });
    const cls = (id: number, title: string, taxon: string | null) => ({
      id,
      title,
      label_index: id,
      system: true,
      visible: true,
      attention: false,
      owner: 'system',
      editable: false,
      taxon: taxon === null ? null : { name: taxon, aphia_id: null, name_zh: null, source: 'starter' },
    });
    const key = (k: string, init: KeyboardEventInit = {}) => fireEvent.keyDown(window, { key: k, ...init });

    it('marks each thumbnail validated, predicted with its confidence, or dubious, with the top 3 on hover', async () => {
      server({
        '/api/roi/index': () =>
          jsonResponse({
            code: 1000,
            data: {
              items: [
                {
                  ...roiItem(4, 'ai'),
                  confidence: 0.826,
                  ai_top: [
                    { class_id: 1, p: 0.826 },
                    { class_id: 2, p: 0.1 },
                  ],
                },
                { ...roiItem(5, 'hi'), class_id: 1, class_name: '001Copepod' },
                { ...roiItem(6, 'ai'), review_status: 'pending' },
              ],
              next: null,
              count_capped: false,
            },
            model: null,
            count: 3,
            index: null,
          }),
        '/api/tool/sys-init': () => okEnvelope([cls(1, '001桡足类', 'Copepoda'), cls(2, '002硅藻链', null)]),
      });
      renderRoutes(appRouteObjects, ['/identify']);
      await screen.findByTestId('roi-cell-6');
      expect(cell(4).getAttribute('data-mark')).toBe('predicted');
      expect(text('roi-mark-4')).toBe('AI 82%');
      // Named by what it shows, then what the mark means (issue 37: the name left out the visible "AI 82%"); the grid
      // is the one Tab stop, its cells hold nothing focusable.
      expect(cell(4).getAttribute('aria-label')).toBeNull();
      expect(cell(4).textContent).toMatch(/^001Copepod ?AI 82% · 模型预测 · /);
      expect(screen.getByTestId('identify-grid').getAttribute('tabindex')).toBe('0');
      expect(cell(4).querySelectorAll('input, button, [tabindex]')).toHaveLength(0);
      await waitFor(() =>
        expect(screen.getByTestId('roi-mark-4').getAttribute('title')).toBe('模型预测\n前 3 名: 001桡足类 82% · 002硅藻链 10%'),
      );
      expect(cell(5).getAttribute('data-mark')).toBe('validated');
      expect(cell(6).getAttribute('data-mark')).toBe('dubious');
    });

    it('validates the focused image with V, sets a class by typing a taxon with C, and undoes with U', async () => {
      let last: object | null = null;
      const fetchMock = server({
        '/api/roi/actions': inPlace,
        '/api/tool/sys-init': () => okEnvelope([cls(1, '001桡足类', 'Copepoda'), cls(2, '002硅藻链', 'Bacillariophyceae')]),
        '/api/roi/save-move': () => {
          last = { bulk_id: 9, code: '82', category_id: -100, affected: 2, created_at: 1, expires_at: Date.now() + 600_000 };
          return okEnvelope({ affected: 2, unchanged: 0, roi_index_id: null, bulk_id: 9 });
        },
        '/api/roi/last-action': () => okEnvelope(last),
        '/api/roi/undo': () => {
          last = null;
          return okEnvelope({ bulk_id: 9, restored: 2, skipped: 0 });
        },
      });
      await openWorkspace();
      // Nothing selected: V validates the focused image alone, asked nothing (it can be undone).
      fireEvent.click(cell(4));
      key('Escape');
      await waitFor(() => expect(text('identify-selection-count')).toBe('已选 0 张'));
      key('v');
      await waitFor(() =>
        expect(lastBody(fetchMock, '/api/roi/save-move')).toEqual({ type: '81', category_id: -100, roi_ids: [4] }),
      );

      // Shift+→ extends the selection; C opens the class picker, typing part of a Latin name finds the class, Enter applies it.
      fireEvent.click(cell(4));
      key('ArrowRight', { shiftKey: true });
      await waitFor(() => expect(text('identify-selection-count')).toBe('已选 2 张'));
      key('c');
      const picker = await screen.findByTestId('identify-target-class');
      const input = picker.querySelector('input')!;
      fireEvent.change(input, { target: { value: 'bacill' } });
      const option = await screen.findByText('002硅藻链');
      fireEvent.click(option);
      await waitFor(() =>
        expect(lastBody(fetchMock, '/api/roi/save-move')).toEqual({
          type: '82',
          category_id: -100,
          roi_ids: [4, 5],
          target_id: 2,
        }),
      );
      // The undo is offered, and U takes the action back.
      await screen.findByTestId('identify-undo');
      expect(text('identify-undo')).toContain('撤销：设置类别（2）');
      key('u');
      await screen.findByText('已撤销：2 张图像已恢复，0 张此后被改动，保持不变');
      expect(lastBody(fetchMock, '/api/roi/undo')).toEqual({ bulk_id: 9 });
    });

    it('does nothing with V, D, C on a demo image of the team gallery, where no button is offered (issue 37)', async () => {
      const fetchMock = server({
        '/api/roi/categorys': () => okEnvelope([{ id: -2, key: 'team', count: 5, can_create: true }]),
        '/api/roi-index/index': () => okEnvelope(FOLDER_TREE),
        '/api/roi/index': () =>
          jsonResponse({
            code: 1000,
            data: {
              items: ITEMS.map((item) => ({ ...item, is_demo_image: item.id === 4 ? 1 : 0 })),
              next: null,
              count_capped: false,
            },
            model: null,
            count: 5,
            index: null,
          }),
        '/api/roi/actions': inPlace,
      });
      await openWorkspace();
      fireEvent.click(cell(4));
      expect(screen.getByTestId('identify-actions-demo')).toBeTruthy();
      key('Escape');
      await waitFor(() => expect(text('identify-selection-count')).toBe('已选 0 张'));
      key('v');
      key('d');
      key('c');
      // The focused image is not a demo one: V acts on it.
      fireEvent.click(cell(3));
      key('Escape');
      await waitFor(() => expect(text('identify-selection-count')).toBe('已选 0 张'));
      key('v');
      await waitFor(() => expect(callsTo(fetchMock, '/api/roi/save-move')).toHaveLength(1));
      expect(lastBody(fetchMock, '/api/roi/save-move')).toEqual({ type: '81', category_id: -2, roi_ids: [3] });
      expect(screen.queryByTestId('identify-target-class')).toBeNull();
    });

    it('lists every key with ?, and selects all matching after a confirmation when more match than are loaded', async () => {
      const fetchMock = server({
        '/api/roi/actions': inPlace,
        '/api/roi/matching-ids': () => okEnvelope({ ids: [1, 2, 3, 4, 5, 6, 7], capped: false }),
      });
      await openWorkspace();
      expect(text('identify-keys-open')).toBe('快捷键（?）');
      key('?');
      const help = await screen.findByTestId('identify-keys-help');
      expect(within(help).getByText('确认预测（选中的图像，或当前图像）')).toBeTruthy();
      expect(within(help).getByText('打开图像详情页')).toBeTruthy();
      fireEvent.click(screen.getByTestId('identify-select-matching'));
      const dialog = (await screen.findAllByTestId('confirm-ok')).at(-1)!.closest('.ant-modal') as HTMLElement;
      expect(within(dialog).getByText('选中符合筛选条件的 7 张图像？操作将作用于全部，无论是否已加载。')).toBeTruthy();
      fireEvent.click(within(dialog).getByTestId('confirm-ok'));
      await waitFor(() => expect(text('identify-selection-count')).toBe('已选 7 张'));
      fireEvent.click(screen.getByTestId('action-83'));
      await waitFor(() =>
        expect(lastBody(fetchMock, '/api/roi/save-move')).toEqual({
          type: '83',
          category_id: -100,
          roi_ids: [1, 2, 3, 4, 5, 6, 7],
        }),
      );
      expect(Object.fromEntries(callsTo(fetchMock, '/api/roi/matching-ids')[0]!.url.searchParams)).toMatchObject({
        category_id: '-100',
        ipp_id: '7',
      });
    });
  });
});
