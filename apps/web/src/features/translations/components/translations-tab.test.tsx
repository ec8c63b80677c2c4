import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { applyOverrides, i18n, setLanguage } from '@/i18n';
import { callsTo, failField, lastBody, mockServer, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';

const PREVIEW = {
  applied: false,
  added: [{ key: 'route.teams', zh: '队伍管理', en: 'Crews' }],
  changed: [{ key: 'app.name', zh: '浮游台', en: 'Probe Desk', old_zh: null, old_en: 'Old Desk' }],
  unchanged: 4,
};

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/get-lang/lang': (url) =>
      okEnvelope(
        url.searchParams.get('language') === 'en'
          ? [{ key: 'app.name', text: 'Old Desk' }]
          : [{ key: 'route.teams', text: '队伍' }],
      ),
    '/api/get-lang/save': () => okEnvelope({ ok: true }),
    ...extra,
  });
}

async function openPage() {
  const view = renderRoutes(appRouteObjects, ['/manage/system']);
  await screen.findByTestId('lang-cell-app.name-en');
  return { ...view, user: userEvent.setup() };
}

function chooseFile(file: File) {
  fireEvent.change(screen.getByTestId('lang-upload'), { target: { files: [file] } });
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('superadmin');
});

describe('translation table', () => {
  it('shows every bundled string, the override in the cell and the bundled text as placeholder', async () => {
    server();
    await openPage();
    const en = screen.getByTestId('lang-cell-app.name-en') as HTMLTextAreaElement;
    expect(en.value).toBe('Old Desk');
    const zh = screen.getByTestId('lang-cell-app.name-zh') as HTMLTextAreaElement;
    expect(zh.value).toBe('');
    expect(zh.placeholder).toBe('IPP 控制台');
    // The console itself shows the overrides of its language after start.
    await waitFor(() => expect(i18n.t('route.teams')).toBe('队伍'));
    expect(screen.getByTestId('sidebar-menu').textContent).toContain('队伍');
    applyOverrides('zh', []);
  });

  it('saves edited cells with both languages and reloads the overrides', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    await user.type(screen.getByTestId('lang-search'), 'app.name');
    await user.type(screen.getByTestId('lang-cell-app.name-zh'), '浮游台');
    await user.click(screen.getByTestId('lang-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/get-lang/save')).toEqual({ items: [{ key: 'app.name', zh: '浮游台', en: 'Old Desk' }] });
    await waitFor(() => expect(callsTo(fetchMock, '/api/get-lang/lang').length).toBeGreaterThanOrEqual(3));
  });
});

describe('translation file upload', () => {
  it('previews a file with a dry run and applies the same file on Confirm', async () => {
    const fetchMock = server({
      '/api/upload/index': (url) => okEnvelope(url.searchParams.has('dry_run') ? PREVIEW : { ...PREVIEW, applied: true }),
    });
    await openPage();
    const file = new File(['{"zh": {}, "en": {}}'], 'strings.json', { type: 'application/json' });
    chooseFile(file);

    const preview = await screen.findByTestId('lang-preview');
    expect(within(preview).getByText('新增 1 条，修改 1 条，未变 4 条')).toBeTruthy();
    expect(within(preview).getByText('Crews')).toBeTruthy();
    expect(within(preview).getByText('Old Desk')).toBeTruthy();
    const [dryRun] = callsTo(fetchMock, '/api/upload/index');
    expect(dryRun?.url.search).toBe('?action=language&dry_run=1');
    expect((dryRun?.init?.body as FormData).get('file')).toBe(file);

    fireEvent.click(screen.getByTestId('lang-preview-confirm'));
    expect(await screen.findByText('操作成功')).toBeTruthy();
    const [, applied] = callsTo(fetchMock, '/api/upload/index');
    expect(applied?.url.search).toBe('?action=language');
    expect((applied?.init?.body as FormData).get('file')).toBe(file);
    await waitFor(() => expect(screen.queryByTestId('lang-preview')).toBeNull());
  });

  it("shows the server's reason for a malformed file and applies nothing", async () => {
    const fetchMock = server({
      '/api/upload/index': () => failField(1002, 'Line 3: expected the header key,zh,en', 400, 'file'),
    });
    await openPage();
    chooseFile(new File(['nope'], 'bad.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Line 3: expected the header key,zh,en')).toBeTruthy();
    expect(screen.queryByTestId('lang-preview')).toBeNull();
    expect(callsTo(fetchMock, '/api/upload/index')).toHaveLength(1);
  });
});
