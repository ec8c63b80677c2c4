import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { ippFixture } from '@/test/fixtures';
import { callsTo, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { pickOption } from '@/test/select';

const BUOY = ippFixture({ online: true, last_online_at: Date.UTC(2026, 0, 2, 3, 4, 5) });
const FJORD = ippFixture({
  id: 8,
  dev_id: '21006',
  site_name: 'Fjord',
  country: 'NO',
  longitude: -5.25,
  latitude: -60.5,
  wiper_status: 'cleaning',
});
const NOWHERE = ippFixture({
  id: 9,
  dev_id: '21007',
  site_name: '',
  country: '',
  longitude: null,
  latitude: null,
  serial_number: '',
});
const TEAM = {
  id: 4,
  name: 'North',
  admin_account: null,
  admin_name: null,
  superadmin_count: 0,
  admin_count: 1,
  user_count: 1,
  created_at: 1,
};

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/ipp/index': () => pageEnvelope([BUOY, FJORD, NOWHERE], 3),
    '/api/group/index': () => pageEnvelope([TEAM]),
    '/api/ipp/delete': () => okEnvelope({ ok: true }),
    ...extra,
  });
}

async function openPage() {
  const view = renderRoutes(appRouteObjects, ['/manage/ipp']);
  await screen.findByTestId('ipp-row-21005');
  return { ...view, user: userEvent.setup() };
}

const rowText = (devId: string) => screen.getByTestId(`ipp-row-${devId}`).textContent ?? '';

beforeEach(async () => {
  await setLanguage('zh');
  signIn('superadmin');
});

describe('instrument list', () => {
  it('asks for the first 100 and shows status, location, site, site ID, serial and wiper status', async () => {
    const fetchMock = server();
    await openPage();
    expect(callsTo(fetchMock, '/api/ipp/index')[0]?.url.search).toBe('?page=1&limit=100');
    expect(screen.getByTestId('ipp-status-21005').textContent).toBe('在线');
    expect(screen.getByTestId('ipp-status-21006').textContent).toBe('离线');
    expect(rowText('21005')).toContain('中国');
    expect(rowText('21005')).toContain('36.1000°N, 121.5000°E');
    expect(rowText('21005')).toContain('Yellow Sea buoy');
    expect(rowText('21005')).toContain('SN-0001');
    expect(rowText('21006')).toContain('60.5000°S, 5.2500°W');
    // Wiper status waits for telemetry, then reads in the interface language.
    expect(within(screen.getByTestId('ipp-row-21005')).getAllByText('—').length).toBeGreaterThan(0);
    expect(rowText('21006')).toContain('清洁中');
    // 21006 is offline: its wiper state is its last report, not a current one.
    expect(screen.getByTestId('ipp-wiper-8').textContent).toMatch(/^最后已知：清洁中（.*）$/);
    expect(screen.getByText('共 3 条')).toBeTruthy();
  });

  it('names countries in the current language, with "Others" for none', async () => {
    server();
    await openPage();
    expect(rowText('21006')).toContain('挪威');
    expect(rowText('21007')).toContain('其他');
    expect(rowText('21007')).toContain('无坐标');

    await setLanguage('en');
    await waitFor(() => expect(rowText('21006')).toContain('Norway'));
    expect(rowText('21005')).toContain('China');
    expect(rowText('21007')).toContain('Others');
    expect(screen.getByTestId('ipp-status-21006').textContent).toBe('Offline');
  });

  it('searches by keyword and team from page 1', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    await user.type(screen.getByTestId('ipp-search'), ' 2100 ');
    await user.click(screen.getByTestId('ipp-search-submit'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/ipp/index').at(-1)?.url.search).toBe('?keyword=2100&page=1&limit=100'));
    await pickOption('ipp-search-team', 'North');
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/ipp/index').at(-1)?.url.search).toBe('?keyword=2100&group_id=4&page=1&limit=100'),
    );
  });

  it('says so when there are no instruments, and when the search finds none', async () => {
    server({ '/api/ipp/index': () => pageEnvelope([]) });
    renderRoutes(appRouteObjects, ['/manage/ipp']);
    expect((await screen.findByTestId('ipp-empty')).textContent).toContain('还没有仪器');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('ipp-search'), 'zzz{Enter}');
    await waitFor(() => expect(screen.getByTestId('ipp-empty').textContent).toContain('没有符合条件的仪器'));
  });

  it('opens configure and view, and deletes after confirmation', async () => {
    const fetchMock = server();
    const { user, router } = await openPage();
    await user.click(screen.getByTestId('ipp-delete-8'));
    expect(callsTo(fetchMock, '/api/ipp/delete')).toHaveLength(0);
    await user.click(await screen.findByTestId('confirm-ok'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/ipp/delete')).toEqual({ id: 8 });

    await user.click(screen.getByTestId('ipp-view-7'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/ipp/ipp-view?id=7'));
    await router.navigate('/manage/ipp');
    await user.click(await screen.findByTestId('ipp-edit-7'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/manage/ipp_edit?id=7'));
  });

  it('gives a user the list without add, delete or a team filter', async () => {
    signIn('user');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'user', roles: ['user'], group_id: 4 }) });
    await openPage();
    expect(screen.queryByTestId('ipp-add')).toBeNull();
    expect(screen.queryByTestId('ipp-delete-7')).toBeNull();
    expect(screen.queryByTestId('ipp-search-team')).toBeNull();
    expect(screen.getByTestId('ipp-edit-7')).toBeTruthy();
    expect(screen.getByTestId('ipp-view-7')).toBeTruthy();
  });

  it('gives an administrator add and delete but no team filter', async () => {
    signIn('administrator');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator', group_id: 4 }) });
    await openPage();
    expect(screen.getByTestId('ipp-add')).toBeTruthy();
    expect(screen.getByTestId('ipp-delete-7')).toBeTruthy();
    expect(screen.queryByTestId('ipp-search-team')).toBeNull();
  });
});

describe('instrument list: configuration state and applying settings to several', () => {
  it('shows each instrument applied, pending or not reported, and sends chosen settings of one to the selected', async () => {
    const reported = { ...BUOY.config };
    const pendingFjord = { ...FJORD, applied_config: { ...FJORD.config, gain: 2 }, pending: ['gain'] };
    const fetchMock = server({
      '/api/ipp/index': () => pageEnvelope([{ ...BUOY, applied_config: reported, pending: [] }, pendingFjord, NOWHERE], 3),
      '/api/ipp/apply-config': () =>
        okEnvelope({
          rows: [
            { id: 8, dev_id: '21006', site_name: 'Fjord', changed: true, config_version: 4, pending: ['exposure_us'] },
            { id: 9, dev_id: '21007', site_name: '', changed: false, config_version: 1, pending: [] },
          ],
        }),
    });
    const { user } = await openPage();
    expect(screen.getByTestId('ipp-sync-21005').dataset.state).toBe('applied');
    expect(screen.getByTestId('ipp-sync-21006').textContent).toBe('1 项待应用');
    expect(screen.getByTestId('ipp-sync-21007').textContent).toBe('未上报');

    // Nothing selected: the action waits for a selection.
    expect((screen.getByTestId('ipp-apply-open') as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(screen.getByTestId('ipp-row-21006')).getByRole('checkbox'));
    await user.click(within(screen.getByTestId('ipp-row-21007')).getByRole('checkbox'));
    expect(screen.getByTestId('ipp-apply-open').textContent).toContain('批量应用设置（2）');
    await user.click(screen.getByTestId('ipp-apply-open'));
    await pickOption('ipp-apply-source', 'Yellow Sea buoy');
    // Only the exposure time: untick all, tick one.
    const keys = await screen.findByTestId('ipp-apply-keys');
    await user.click(screen.getByText('全部'));
    await user.click(within(keys).getByText(/^曝光时间/));
    await user.click(screen.getByTestId('ipp-apply-ok'));
    const result = await screen.findByTestId('ipp-apply-result');
    expect(lastBody(fetchMock, '/api/ipp/apply-config')).toEqual({
      ids: [8, 9],
      config: { exposure_us: BUOY.config.exposure_us },
    });
    expect(within(result).getByTestId('ipp-apply-outcome-21006').textContent).toBe('新版本 v4，已发送');
    expect(within(result).getByTestId('ipp-apply-outcome-21007').textContent).toBe('已是这些设置');
  });

  it('offers no selection or apply action to a plain user', async () => {
    signIn('user');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'user', roles: ['user'], group_id: 4 }) });
    await openPage();
    expect(screen.queryByTestId('ipp-apply-open')).toBeNull();
    expect(within(screen.getByTestId('ipp-row-21006')).queryByRole('checkbox')).toBeNull();
  });
});
