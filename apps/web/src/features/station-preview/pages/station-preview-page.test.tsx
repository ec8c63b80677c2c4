import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { ippFixture } from '@/test/fixtures';
import { roi30Fixture, roiFixture } from '@/test/monitoring-fixtures';
import { chartOptions } from '@/test/monitoring-mocks';
import { callsTo, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { pickOption } from '@/test/select';

vi.mock('@/components/echart/echart', () => import('@/test/monitoring-mocks'));

const BUOY = ippFixture({
  online: true,
  online_hours: 1234.56,
  today_images: 42,
  total_images: 123_456,
  last_image_at: new Date(2026, 2, 5, 9, 30).getTime(),
});
const FJORD = ippFixture({ id: 8, dev_id: '21006', site_name: 'Fjord' });

function roi30For(url: URL) {
  const id = Number(url.searchParams.get('ipp_id'));
  const base = roi30Fixture();
  const station = { ...base.stations[0]!, id, dev_id: id === 8 ? '21006' : '21005' };
  return okEnvelope({ ...base, stations: [station] });
}

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/ipp/index': () => pageEnvelope([BUOY, FJORD]),
    '/api/views/roi30': (url) => roi30For(url),
    '/api/views/rois': (url) =>
      okEnvelope([roiFixture({ id: 31, ipp_id: Number(url.searchParams.get('ipp_id')) }), roiFixture({ id: 30 })]),
    ...extra,
  });
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('user');
  chartOptions.clear();
});

describe('station preview', () => {
  it("shows the first station's last 30 days, key facts and latest images", async () => {
    const fetchMock = server();
    renderRoutes(appRouteObjects, ['/ipp/ipp-view']);
    expect(await screen.findByTestId('preview-chart-rois')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/views/roi30')[0]?.url.searchParams.get('ipp_id')).toBe('7');
    const rois = chartOptions.get('preview-chart-rois');
    expect((rois?.series as { data: number[] }[])[0]?.data).toHaveLength(30);
    expect((rois?.xAxis as { data: string[] }).data.at(-1)).toBe('3月5日');
    expect(screen.getByTestId('preview-chart-env')).toBeTruthy();
    expect(screen.getByTestId('preview-chart-volume')).toBeTruthy();

    expect(screen.getByTestId('preview-total-images').textContent).toBe('12.35 万');
    expect(screen.getByTestId('preview-today-images').textContent).toBe('42');
    expect(screen.getByTestId('preview-online-hours').textContent).toBe('1234.6 小时');
    expect(screen.getByTestId('preview-online').textContent).toBe('在线');
    expect(screen.getByTestId('preview-last-image').textContent).toMatch(/^2026-03-05 09:30:00 UTC([+-]\d+(:\d\d)?)?$/);

    const latest = await screen.findByTestId('preview-latest');
    expect(
      within(latest)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/ipp/ipp-image-detail?id=31', '/ipp/ipp-image-detail?id=30']);
    expect(callsTo(fetchMock, '/api/views/rois')[0]?.url.searchParams.get('ipp_id')).toBe('7');
    expect(screen.getByTestId('preview-detail-link').getAttribute('href')).toBe('/ipp/ipp-view-detail?id=7');
  });

  it('opens the station named in the address and remembers a new choice there', async () => {
    const fetchMock = server();
    const { router } = renderRoutes(appRouteObjects, ['/ipp/ipp-view?id=8']);
    await screen.findByTestId('preview-chart-rois');
    expect(callsTo(fetchMock, '/api/views/roi30').map((call) => call.url.searchParams.get('ipp_id'))).toEqual(['8']);
    expect(within(screen.getByTestId('station-select')).getByText('Fjord (21006)')).toBeTruthy();

    await pickOption('station-select', 'Yellow Sea buoy');
    await waitFor(() => expect(router.state.location.search).toBe('?id=7'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/views/roi30').at(-1)?.url.searchParams.get('ipp_id')).toBe('7'));
    await waitFor(() => expect(screen.getByTestId('preview-detail-link').getAttribute('href')).toBe('/ipp/ipp-view-detail?id=7'));
  });

  it('says "No data sampled" and "No image resource" for a station that has sent nothing', async () => {
    const empty = roi30Fixture();
    const station = {
      ...empty.stations[0]!,
      rois: Array(30).fill(0),
      temperature_c: Array(30).fill(null),
      humidity_pct: Array(30).fill(null),
      volume_l: Array(30).fill(0),
    };
    server({
      '/api/views/roi30': () => okEnvelope({ ...empty, stations: [station], classes: [] }),
      '/api/views/rois': () => okEnvelope([]),
    });
    renderRoutes(appRouteObjects, ['/ipp/ipp-view']);
    await waitFor(() => expect(screen.getAllByText('暂无采样数据')).toHaveLength(3));
    expect(screen.queryByTestId('preview-chart-rois')).toBeNull();
    expect(within(await screen.findByTestId('preview-latest')).getByText('暂无图片资源')).toBeTruthy();
  });

  it('says so when the team has no station, or the address names an unknown one', async () => {
    server({ '/api/ipp/index': () => pageEnvelope([]) });
    const first = renderRoutes(appRouteObjects, ['/ipp/ipp-view']);
    expect((await screen.findByTestId('preview-no-stations')).textContent).toContain('暂无站点');
    first.unmount();

    const fetchMock = server();
    renderRoutes(appRouteObjects, ['/ipp/ipp-view?id=99']);
    expect((await screen.findByTestId('preview-not-found')).textContent).toContain('没有这个站点');
    expect(callsTo(fetchMock, '/api/views/roi30')).toHaveLength(0);
  });
});
