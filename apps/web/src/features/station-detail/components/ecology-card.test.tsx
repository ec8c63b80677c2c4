import type { SiteEcology } from '@ipp/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { ippFixture } from '@/test/fixtures';
import { siteRoiFixture } from '@/test/monitoring-fixtures';
import { chartOptions } from '@/test/monitoring-mocks';
import { callsTo, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';

vi.mock('@/components/echart/echart', () => import('@/test/monitoring-mocks'));

const HOUR = 3_600_000;

function ecologyFixture(over: Partial<SiteEcology> = {}): SiteEcology {
  const start = Date.UTC(2026, 2, 5);
  return {
    ipp_id: 7,
    dev_id: '21005',
    site_name: 'Buoy',
    start,
    end: start + 24 * HOUR,
    bucket_ms: HOUR,
    pixel_size_um: 2,
    volume_l: 4,
    classes: [
      { class_id: 1, name: '001 Copepod', count: 2, measured: 2, biovolume_mm3: 3.2e-5 },
      { class_id: null, name: null, count: 1, measured: 0, biovolume_mm3: 0 },
    ],
    selected: [],
    count: 3,
    measured: 2,
    concentration_per_l: 0.75,
    biovolume_mm3: 3.2e-5,
    biovolume_mm3_per_l: 8e-6,
    buckets: Array.from({ length: 24 }, (_, i) => ({
      start: start + i * HOUR,
      volume_l: i === 3 ? 4 : 0,
      count: i === 3 ? 3 : 0,
      concentration_per_l: i === 3 ? 0.75 : null,
      biovolume_mm3: i === 3 ? 3.2e-5 : 0,
      biovolume_mm3_per_l: i === 3 ? 8e-6 : null,
    })),
    nbss: [
      {
        total: true,
        class_id: null,
        name: null,
        slope: -1.02,
        points: [
          { size_class: 9, min_mm3: 4.096e-6, max_mm3: 8.192e-6, esd_um: 22.1, count: 1, biovolume_mm3: 8e-6, nbss_per_l: 0.488 },
          {
            size_class: 11,
            min_mm3: 1.6384e-5,
            max_mm3: 3.2768e-5,
            esd_um: 35.1,
            count: 1,
            biovolume_mm3: 2.4e-5,
            nbss_per_l: 0.366,
          },
        ],
      },
      { total: false, class_id: 1, name: '001 Copepod', slope: null, points: [] },
    ],
    ...over,
  };
}

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/ipp/index': () => pageEnvelope([ippFixture()]),
    '/api/roi/get-site-roi': () => okEnvelope(siteRoiFixture()),
    '/api/ai/corrected-counts': () => okEnvelope({ dev_id: '21005', start: 0, end: 1, volume_l: 0, uncorrectable: 0, items: [] }),
    '/api/ecology/get-site-ecology': () => okEnvelope(ecologyFixture()),
    ...extra,
  });
}

const originalCreateObjectURL = URL.createObjectURL;

beforeEach(async () => {
  await setLanguage('en');
  signIn('administrator');
  chartOptions.clear();
});
afterEach(() => {
  URL.createObjectURL = originalCreateObjectURL;
});

describe('ecology card', () => {
  it('shows concentration and biovolume per litre and the NBSS with its slope, in physical units', async () => {
    const fetchMock = server();
    renderRoutes(appRouteObjects, ['/ipp/ipp-view-detail']);
    const card = await screen.findByTestId('ecology-card');
    expect((await within(card).findByTestId('ecology-concentration')).textContent).toBe('0.75 ind/L');
    expect(within(card).getByTestId('ecology-biovolume').textContent).toBe('3.20e-5 mm³');
    expect(within(card).getByTestId('ecology-biovolume-concentration').textContent).toBe('8.00e-6 mm³/L');
    expect(within(card).getByTestId('ecology-summary').textContent).toContain('3 (2 measured)');
    const series = chartOptions.get('ecology-series')?.series as { name: string; data: (number | null)[] }[];
    expect(series.map((s) => s.name)).toEqual(expect.arrayContaining(['Concentration', 'Biovolume concentration']));
    expect(series.find((s) => s.name === 'Concentration')?.data[3]).toBe(0.75);
    const nbss = chartOptions.get('ecology-nbss');
    expect((nbss?.xAxis as { type: string }).type).toBe('log');
    expect((nbss?.yAxis as { type: string }).type).toBe('log');
    const lines = nbss?.series as { name: string; data: ({ value: number[] } | null)[] }[];
    expect(lines[0]?.name).toBe('Selection (slope -1.02)');
    // Size classes 9 and 11: a gap for the empty class 10 between them; x is the class's geometric middle.
    expect(lines[0]?.data.map((d) => d && d.value[1])).toEqual([0.488, null, 0.366]);
    expect(lines[0]?.data[0]?.value[0]).toBeCloseTo(Math.sqrt(4.096e-6 * 8.192e-6), 12);
    expect(callsTo(fetchMock, '/api/ecology/get-site-ecology')[0]?.url.searchParams.get('classes')).toBeNull();
  });

  it('asks the server for the selected classes only', async () => {
    const fetchMock = server();
    renderRoutes(appRouteObjects, ['/ipp/ipp-view-detail']);
    const card = await screen.findByTestId('ecology-card');
    await within(card).findByTestId('ecology-concentration');
    fireEvent.mouseDown(within(card).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('001 Copepod'));
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/ecology/get-site-ecology').map((c) => c.url.searchParams.get('classes'))).toEqual([
        null,
        '1',
      ]),
    );
  });

  it('says why there is no biovolume without a pixel size, and where an administrator sets it', async () => {
    server({
      '/api/ecology/get-site-ecology': () => okEnvelope(ecologyFixture({ pixel_size_um: null, biovolume_mm3: null, nbss: [] })),
    });
    renderRoutes(appRouteObjects, ['/ipp/ipp-view-detail']);
    const alert = await screen.findByTestId('ecology-no-pixel-size');
    expect(alert.textContent).toContain('This station has no pixel size');
    expect(within(alert).getByRole('link').getAttribute('href')).toBe('/manage/ipp_edit?id=7');
    expect(screen.getByTestId('ecology-biovolume').textContent).toBe('—');
    expect(screen.getByTestId('ecology-nbss-empty')).toBeTruthy();
    expect(screen.getByTestId('ecology-csv-nbss').hasAttribute('disabled')).toBe(true);
  });

  it('tells a plain user to ask an administrator instead of linking to a form they cannot open', async () => {
    signIn('user');
    server({
      '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, roles: ['user'], role: 'user', group_id: 1 }),
      '/api/ecology/get-site-ecology': () => okEnvelope(ecologyFixture({ pixel_size_um: null, nbss: [] })),
    });
    renderRoutes(appRouteObjects, ['/ipp/ipp-view-detail']);
    const alert = await screen.findByTestId('ecology-no-pixel-size');
    expect(within(alert).queryByRole('link')).toBeNull();
    expect(alert.textContent).toContain('Ask an administrator');
  });

  it('downloads the NBSS as CSV for the period and selection', async () => {
    const fetchMock = server({
      '/api/ecology/export-site-ecology': () =>
        new Response('station,series\r\n', {
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="21005-24h-nbss.csv"' },
        }),
    });
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderRoutes(appRouteObjects, ['/ipp/ipp-view-detail']);
    await screen.findByTestId('ecology-concentration');
    fireEvent.click(screen.getByTestId('ecology-csv-nbss'));
    await waitFor(() => expect(clicks).toEqual(['21005-24h-nbss.csv']));
    const query = callsTo(fetchMock, '/api/ecology/export-site-ecology')[0]!.url.searchParams;
    expect([query.get('table'), query.get('period'), query.get('dev_id')]).toEqual(['nbss', '24h', '21005']);
  });
});
