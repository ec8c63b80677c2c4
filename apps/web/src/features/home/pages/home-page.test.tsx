import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { formatTime } from '@/lib/format';
import { alarmFixture, alarmSummaryFixture } from '@/test/alarm-fixtures';
import { ippFixture } from '@/test/fixtures';
import { roi24Fixture, roi30Fixture, roiFixture } from '@/test/monitoring-fixtures';
import { chartOptions, mapProps } from '@/test/monitoring-mocks';
import { callsTo, mockServer, pageEnvelope, signIn, START_UP, USER_INFO, type Handler } from '@/test/mock-server';
import { failEnvelope, okEnvelope, renderRoutes } from '@/test/render';

vi.mock('@/components/echart/echart', () => import('@/test/monitoring-mocks'));
vi.mock('@/components/station-map/station-map', () => import('@/test/monitoring-mocks'));

const BUOY = ippFixture({ today_images: 3, last_image_at: new Date(2026, 2, 5, 9, 30).getTime() });
const FJORD = ippFixture({
  id: 8,
  dev_id: '21006',
  site_name: 'Fjord',
  latitude: 60.5,
  longitude: 5.25,
  online: true,
  today_images: 12_345,
});
const WALL = { total: 2, max: 100, items: [roiFixture({ id: 5, favorite: true }), roiFixture({ id: 6, favorite: true })] };
const TILES = 'https://tiles.example.org/{z}/{x}/{y}.png';

const ADMIN_INFO = { ...USER_INFO, role: 'administrator', roles: ['administrator'] };

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(ADMIN_INFO),
    '/api/setting/get-set-init': () =>
      okEnvelope({
        site_title: '',
        logo: 'setting/logo?v=1',
        default_language: 'zh',
        idle_minutes: 30,
        map_tile_url: TILES,
        wall_max: 100,
      }),
    '/api/views/roi24': () => okEnvelope(roi24Fixture()),
    '/api/views/roi30': () => okEnvelope(roi30Fixture()),
    '/api/views/wall': () => okEnvelope(WALL),
    '/api/ipp/index': () => pageEnvelope([BUOY, FJORD]),
    '/api/dashboard/get-last-insert-time': () => okEnvelope({ at: 1_000, received_at: 1_000 }),
    ...extra,
  });
}

const card = (testId: string) => screen.getByTestId(testId);

beforeEach(async () => {
  await setLanguage('zh');
  signIn('administrator');
  chartOptions.clear();
  mapProps.clear();
});

describe('system overview', () => {
  it('shows a skeleton while loading, then the 24-hour, 30-day and class charts in the viewer time zone', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = server({ '/api/views/roi24': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderRoutes(appRouteObjects, ['/home']);
    await waitFor(() => expect(card('home-roi24').querySelector('.ant-skeleton')).not.toBeNull());
    answer(okEnvelope(roi24Fixture()));

    const roi24 = await screen.findByTestId('home-roi24-chart');
    expect(roi24.getAttribute('aria-label')).toBe('最近 24 小时每小时 ROI 数：2 个站点共 20 个');
    const series = chartOptions.get('home-roi24-chart')?.series as { name: string; stack: string }[];
    expect(series.map((s) => s.name)).toEqual(['Fjord (21006)', 'Yellow Sea buoy (21005)']);
    const tz = String(-new Date().getTimezoneOffset() || 0);
    expect(callsTo(fetchMock, '/api/views/roi24')[0]?.url.searchParams.get('tz')).toBe(tz);
    expect(callsTo(fetchMock, '/api/views/roi30')[0]?.url.searchParams.get('tz')).toBe(tz);

    await screen.findByTestId('home-temp30-chart');
    expect((chartOptions.get('home-temp30-chart')?.xAxis as { data: string[] }).data.at(-1)).toBe('3月5日');
    const pie = chartOptions.get('home-class-chart')?.series as { data: { name: string; value: number }[] }[];
    expect(pie[0]?.data.map((slice) => [slice.name, slice.value])).toEqual([
      ['001 Copepod', 500],
      ['002 Diatom chain', 300],
      ['未分类', 50],
    ]);
  });

  it('lists the stations with followed ones first and puts them on the map with the configured tiles', async () => {
    server();
    renderRoutes(appRouteObjects, ['/home']);
    const stations = await screen.findByTestId('home-stations');
    await waitFor(() => expect(within(stations).getAllByRole('row')).toHaveLength(3));
    const rows = within(stations).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.dataset.testid)).toEqual(['home-station-21006', 'home-station-21005']);
    expect(within(rows[0]!).getByLabelText('已关注')).toBeTruthy();
    expect(rows[0]?.textContent).toContain('1.23 万');
    expect(rows[0]?.textContent).toContain('在线');
    expect(rows[1]?.textContent).toContain('2026-03-05 09:30:00');
    expect(within(rows[1]!).getByRole('link').getAttribute('href')).toBe('/ipp/ipp-view?id=7');

    await screen.findByTestId('home-map');
    await waitFor(() => expect(mapProps.get('home-map')?.tileUrl).toBe(TILES));
    expect(mapProps.get('home-map')?.stations.map((s) => [s.id, s.online, s.latitude])).toEqual([
      [7, false, 36.1],
      [8, true, 60.5],
    ]);
  });

  it('shows the latest favourites on the wall, each opening its image detail', async () => {
    server();
    renderRoutes(appRouteObjects, ['/home']);
    const wall = await screen.findByTestId('home-wall');
    const links = within(wall).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/ipp/ipp-image-detail?id=5', '/ipp/ipp-image-detail?id=6']);
    expect(links[0]?.querySelector('img')?.getAttribute('src')).toBe('/api/roi/thumb/5');
    expect(screen.queryByTestId('home-wall-warning')).toBeNull();
    expect(screen.getByText('显示 2 / 共 2')).toBeTruthy();
  });

  it('warns when there are more favourites than the wall shows', async () => {
    server({ '/api/views/wall': () => okEnvelope({ ...WALL, total: 101, max: 100 }) });
    renderRoutes(appRouteObjects, ['/home']);
    const warning = await screen.findByTestId('home-wall-warning');
    expect(warning.textContent).toContain('收藏的 ROI 共 101 个，收藏墙只显示最新的 100 个');
  });

  it('says "No data sampled" and "No image resource" where there is nothing to show', async () => {
    const quiet = roi30Fixture({ stations: [], classes: [] });
    server({
      '/api/views/roi24': () => okEnvelope(roi24Fixture({ stations: [] })),
      '/api/views/roi30': () => okEnvelope(quiet),
      '/api/views/wall': () => okEnvelope({ total: 0, max: 100, items: [] }),
    });
    renderRoutes(appRouteObjects, ['/home']);
    await waitFor(() => expect(within(card('home-roi24')).getByText('暂无采样数据')).toBeTruthy());
    await waitFor(() => expect(within(card('home-temp30')).getByText('暂无采样数据')).toBeTruthy());
    expect(within(card('home-classes')).getByText('暂无采样数据')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('home-wall')).getByText('暂无图片资源')).toBeTruthy());
    expect(screen.queryByTestId('home-roi24-chart')).toBeNull();
  });

  it('shows a failed chart with Retry, which loads it again', async () => {
    let fail = true;
    server({
      '/api/views/roi24': () => (fail ? failEnvelope(1500, 'Internal error (request r-1)', 500) : okEnvelope(roi24Fixture())),
    });
    renderRoutes(appRouteObjects, ['/home']);
    const failed = await within(await screen.findByTestId('home-roi24')).findByTestId('load-failed');
    expect(failed.textContent).toContain('Internal error (request r-1)');
    fail = false;
    fireEvent.click(within(failed).getByRole('button'));
    expect(await screen.findByTestId('home-roi24-chart')).toBeTruthy();
  });

  it('refetches the overview when an image arrives, and only then', async () => {
    let at = 1_000;
    // A backlog image (captured earlier than the newest) arriving changes the charts too: arrival is what is polled.
    const fetchMock = server({ '/api/dashboard/get-last-insert-time': () => okEnvelope({ at: 500, received_at: at }) });
    const { queryClient } = renderRoutes(appRouteObjects, ['/home']);
    await screen.findByTestId('home-roi24-chart');
    await screen.findByTestId('home-wall');
    const poll = () => queryClient.refetchQueries({ queryKey: ['dashboard', 'last-insert-time'] });
    // The page says when the newest image was captured, not when rows were written.
    await waitFor(() => expect(screen.getByTestId('home-last-data').textContent).toContain(formatTime(500)));
    expect(screen.getByTestId('home-last-data').textContent).not.toContain(formatTime(1_000));

    await poll();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(callsTo(fetchMock, '/api/views/roi24')).toHaveLength(1);

    at = 2_000;
    await poll();
    await waitFor(() => expect(callsTo(fetchMock, '/api/views/roi24')).toHaveLength(2));
    await waitFor(() => expect(callsTo(fetchMock, '/api/views/wall')).toHaveLength(2));
    await waitFor(() => expect(callsTo(fetchMock, '/api/ipp/index')).toHaveLength(2));
    expect(callsTo(fetchMock, '/api/views/roi30')).toHaveLength(2);
  });
});

describe('open alarms card', () => {
  it('counts the open alarms by severity, acknowledged and pending, and lists the latest, each linking to it', async () => {
    const now = Date.now();
    server({
      '/api/alarm/summary': () => okEnvelope(alarmSummaryFixture({ critical: 1, minor: 2 }, { acknowledged: 3, pending: 1 })),
      '/api/alarm/list': () =>
        pageEnvelope(
          [
            alarmFixture({ raised_at: now - 2 * 3_600_000 - 60_000 }),
            alarmFixture({ id: 8, severity: 'minor', rule_name: 'Disk nearly full', silenced: true, raised_at: now - 90_000 }),
          ],
          7,
        ),
    });
    renderRoutes(appRouteObjects, ['/home']);
    const alarms = await screen.findByTestId('home-alarms');
    const list = await within(alarms).findByTestId('home-alarms-list');
    const counts = (testId: string) => within(alarms).getByTestId(testId).textContent;
    await waitFor(() => expect(counts('home-alarms-critical')).toBe('紧急1'));
    expect([counts('home-alarms-major'), counts('home-alarms-minor'), counts('home-alarms-warning')]).toEqual([
      '重要0',
      '次要2',
      '提示0',
    ]);
    expect([counts('home-alarms-acknowledged'), counts('home-alarms-pending')]).toEqual(['已确认3', '待触发1']);
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('紧急');
    expect(rows[0]?.textContent).toContain('2 小时前');
    expect(rows[1]?.textContent).toContain('1 分钟前');
    expect(rows[1]?.textContent).toContain('已静默');
    expect(within(rows[1]!).getByRole('link').textContent).toBe('Daya Bay (21001) Disk nearly full');
    expect(within(rows[1]!).getByRole('link').getAttribute('href')).toBe('/alarms?alarm=8');
    expect(within(alarms).getByText('显示 2 / 共 7')).toBeTruthy();
    expect(within(alarms).getByRole('link', { name: '全部告警' }).getAttribute('href')).toBe('/alarms');
  });

  it('says when no alarm is open, its counts at zero', async () => {
    server();
    renderRoutes(appRouteObjects, ['/home']);
    const alarms = await screen.findByTestId('home-alarms');
    expect(await within(alarms).findByText('没有未解除的告警')).toBeTruthy();
    await waitFor(() => expect(within(alarms).getByTestId('home-alarms-critical').textContent).toBe('紧急0'));
    expect(within(alarms).queryByTestId('home-alarms-list')).toBeNull();
  });
});

describe('logo prompt', () => {
  it('asks a superadmin to upload a logo while there is none, linking to the configuration', async () => {
    signIn('superadmin');
    server({
      '/api/setting/get-set-init': START_UP['/api/setting/get-set-init']!,
      '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    });
    renderRoutes(appRouteObjects, ['/home']);
    const prompt = await screen.findByTestId('home-logo-prompt');
    expect(within(prompt).getByRole('link').getAttribute('href')).toBe('/system/config');
  });

  it('is not shown once there is a logo', async () => {
    signIn('superadmin');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO) });
    renderRoutes(appRouteObjects, ['/home']);
    await screen.findByTestId('home-roi24-chart');
    await screen.findByTestId('home-map');
    expect(screen.queryByTestId('home-logo-prompt')).toBeNull();
  });

  it('is not shown to roles that cannot upload a logo', async () => {
    server({
      '/api/setting/get-set-init': START_UP['/api/setting/get-set-init']!,
    });
    renderRoutes(appRouteObjects, ['/home']);
    await screen.findByTestId('home-roi24-chart');
    await screen.findByTestId('home-map');
    expect(screen.queryByTestId('home-logo-prompt')).toBeNull();
  });
});
