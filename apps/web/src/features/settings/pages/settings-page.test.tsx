import { DEFAULT_SETTINGS } from '@ipp/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { callsTo, lastBody, mockServer, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';

const INFO = { version: '0.1.0', node: 'v20.20.0', database: 'sqlite', started_at: 1_700_000_000_000, teams: 3, users: 9 };

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/setting/index': () => okEnvelope(DEFAULT_SETTINGS),
    '/api/spi-info/index': () => okEnvelope(INFO),
    '/api/setting/save': (_url, init) => okEnvelope({ ...DEFAULT_SETTINGS, ...(JSON.parse(String(init?.body)) as object) }),
    ...extra,
  });
}

async function openPage() {
  const view = renderRoutes(appRouteObjects, ['/system/config']);
  await screen.findByTestId('config-team_max_users');
  return { ...view, user: userEvent.setup() };
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('superadmin');
});

describe('system configuration', () => {
  it('shows each setting with its unit and range', async () => {
    server();
    await openPage();
    const field = screen.getByTestId('config-idle_minutes').closest('.ant-form-item') as HTMLElement;
    expect(within(field).getByText('范围 1–1440 分钟')).toBeTruthy();
    expect((screen.getByTestId('config-idle_minutes') as HTMLInputElement).value).toBe('30');
  });

  it('sends only the changed fields and confirms with "Configuration successful"', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    const input = screen.getByTestId('config-team_max_users');
    await user.clear(input);
    await user.type(input, '5');
    await user.click(screen.getByTestId('config-save'));
    expect(await screen.findByText('配置成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/setting/save')).toEqual({ team_max_users: 5 });
  });

  it('checks the map tile template at the field and saves it, or clears it to draw the outline only', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    const input = screen.getByTestId('config-map_tile_url') as HTMLInputElement;
    expect(input.value).toBe(DEFAULT_SETTINGS.map_tile_url);
    const field = input.closest('.ant-form-item') as HTMLElement;

    await user.clear(input);
    await user.type(input, 'https://tiles.example.org/{{z}/{{x}.png');
    await waitFor(() => expect(within(field).getByText('请输入包含 {z}、{x}、{y} 的 http(s) 地址，或留空')).toBeTruthy());
    await user.click(screen.getByTestId('config-save'));
    expect(await screen.findByText('请检查必填项！')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/setting/save')).toHaveLength(0);

    await user.clear(input);
    await user.click(screen.getByTestId('config-save'));
    expect(await screen.findByText('配置成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/setting/save')).toEqual({ map_tile_url: '' });
  });

  it('says so instead of saving when nothing changed', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    await user.click(screen.getByTestId('config-save'));
    expect(await screen.findByText('没有修改任何内容')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/setting/save')).toHaveLength(0);
  });

  it('shows the system information card to a superadmin', async () => {
    server();
    await openPage();
    const card = await screen.findByTestId('system-info');
    await waitFor(() => expect(within(card).getByText('v20.20.0')).toBeTruthy());
    expect(within(card).getByText('SQLite')).toBeTruthy();
  });

  it('shows an administrator the configuration read-only', async () => {
    signIn('administrator');
    const fetchMock = server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator' }) });
    await openPage();
    expect((screen.getByTestId('config-team_max_users') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('config-save')).toBeNull();
    expect(screen.queryByTestId('logo-upload')).toBeNull();
    expect(screen.queryByTestId('system-info')).toBeNull();
    expect(callsTo(fetchMock, '/api/spi-info/index')).toHaveLength(0);
  });
});

describe('logo upload', () => {
  it('refuses other file types before sending', async () => {
    const fetchMock = server();
    await openPage();
    fireEvent.change(screen.getByTestId('logo-upload'), {
      target: { files: [new File(['x'], 'logo.gif', { type: 'image/gif' })] },
    });
    expect(await screen.findByText('Logo 必须是 PNG、JPEG 或 WebP 图片')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/setting/logo')).toHaveLength(0);
  });

  it('uploads the file as multipart field "file", shows progress, then the new logo', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = server({
      '/api/setting/logo': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await openPage();
    const file = new File([new Uint8Array(10)], 'logo.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('logo-upload'), { target: { files: [file] } });
    expect(await screen.findByText('正在上传…')).toBeTruthy();
    expect((callsTo(fetchMock, '/api/setting/logo')[0]?.init?.body as FormData).get('file')).toBe(file);
    answer(okEnvelope({ ...DEFAULT_SETTINGS, logo: 'setting/logo?v=abc' }));
    const preview = await screen.findByTestId('logo-preview');
    const img = preview.tagName === 'IMG' ? preview : preview.querySelector('img');
    expect(img?.getAttribute('src')).toBe('/api/setting/logo?v=abc');
  });
});
