import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { ippFixture } from '@/test/fixtures';
import { completenessFixture, siteRoiFixture, telemetryTrendFixture } from '@/test/monitoring-fixtures';
import { chartOptions } from '@/test/monitoring-mocks';
import { callsTo, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { MISSING_BAND, OFFLINE_BAND } from '../utils/completeness-chart';

vi.mock('@/components/echart/echart', () => import('@/test/monitoring-mocks'));

const BUOY = ippFixture();
const FJORD = ippFixture({ id: 8, dev_id: '21006', site_name: 'Fjord' });

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/ipp/index': () => pageEnvelope([BUOY, FJORD]),
    '/api/roi/get-site-roi': () => okEnvelope(siteRoiFixture()),
    '/api/ipp/telemetry-trend': () => okEnvelope(telemetryTrendFixture()),
    '/api/ipp/completeness': () => okEnvelope(completenessFixture()),
    '/api/ai/corrected-counts': (url) =>
      okEnvelope({
        dev_id: url.searchParams.get('dev_id'),
        start: Number(url.searchParams.get('start')),
        end: Number(url.searchParams.get('end')),
        volume_l: 10,
        uncorrectable: 3,
        items: [
          {
            class_id: 1,
            class_name: '001 Copepod',
            human: 5,
            model_raw: 40,
            model_corrected: 31.5,
            model_low: 25.25,
            model_high: 38,
            other: 2,
            raw: 47,
            corrected: 38.5,
            low: 32.25,
            high: 45,
            concentration_raw: 0.0047,
            concentration_corrected: 0.00385,
            concentration_low: 0.000323,
            concentration_high: 0.045,
          },
        ],
      }),
    ...extra,
  });
}

const siteCalls = (fetchMock: ReturnType<typeof server>) =>
  callsTo(fetchMock, '/api/roi/get-site-roi').map(({ url }) => Object.fromEntries(url.searchParams));

const selectedPeriod = () =>
  screen.getByTestId('detail-period-24h').closest('.ant-segmented')?.querySelector('.ant-segmented-item-selected')?.textContent;

async function openPage(path = '/ipp/ipp-view-detail') {
  const view = renderRoutes(appRouteObjects, [path]);
  await screen.findByTestId('detail-period-24h');
  return view;
}

const originalCreateObjectURL = URL.createObjectURL;
const originalRevokeObjectURL = URL.revokeObjectURL;

beforeEach(async () => {
  await setLanguage('zh');
  signIn('user');
  chartOptions.clear();
});

afterEach(() => {
  URL.createObjectURL = originalCreateObjectURL;
  URL.revokeObjectURL = originalRevokeObjectURL;
});

describe('data detail', () => {
  it("loads the first station's last 24 hours: figures, histogram, top-6 pie with Others, concentration", async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = server({ '/api/roi/get-site-roi': () => new Promise<Response>((resolve) => (answer = resolve)) });
    await openPage();
    await waitFor(() => expect(document.querySelector('.ant-skeleton')).not.toBeNull());
    answer(okEnvelope(siteRoiFixture({ total: 123_456 })));

    expect((await screen.findByTestId('detail-total')).textContent).toBe('12.35 万');
    expect(screen.getByTestId('detail-mean-concentration').textContent).toBe('2572.00 个/L');
    expect(siteCalls(fetchMock)).toEqual([
      { dev_id: '21005', period: '24h', points: '24', tz: String(-new Date().getTimezoneOffset() || 0) },
    ]);
    const histogram = chartOptions.get('detail-histogram');
    expect((histogram?.series as { data: number[] }[])[0]?.data).toHaveLength(24);
    expect((histogram?.xAxis as { data: string[] }).data.slice(0, 2)).toEqual(['00:00', '01:00']);
    const pie = (chartOptions.get('detail-pie')?.series as { data: { name: string; value: number }[] }[])[0]?.data;
    expect(pie?.map((slice) => slice.name)).toEqual([
      '001 Copepod',
      '002 Diatom chain',
      '003 Dinoflagellate',
      '004 Appendicularian',
      '005 Chaetognath',
      '未分类',
      '其他',
    ]);
    expect(pie?.at(-1)?.value).toBe(12);
    expect((chartOptions.get('detail-concentration')?.series as { data: number[] }[])[0]?.data[0]).toBe(5);
  });

  it('shows corrected abundance beside the raw counts, for the range of the statistics', async () => {
    const fetchMock = server();
    await openPage();
    const card = await screen.findByTestId('corrected-counts-card');
    expect(within(card).getByText('校正后的丰度')).toBeTruthy();
    expect((await within(card).findByTestId('corrected-raw-1')).textContent).toBe('47');
    expect(within(card).getByTestId('corrected-value-1').textContent).toBe('38.5 (32.3–45.0)');
    // Per litre in 3 significant figures: real concentrations are 0.001-0.1 ind/L (issue 38: "0.01 (0.01–0.01)").
    expect(within(card).getByTestId('corrected-concentration-1').textContent).toBe('0.00385 (0.000323–0.045)');
    expect(within(card).getByText(/3 张图像由校正功能之前训练的模型标注/)).toBeTruthy();
    const site = siteRoiFixture();
    const query = Object.fromEntries(callsTo(fetchMock, '/api/ai/corrected-counts')[0]!.url.searchParams);
    expect(query).toEqual({ dev_id: '21005', start: String(site.start), end: String(site.end) });
  });

  it('draws the engineering trends of the chosen group: mean inside the min–max band, gaps where nothing was reported', async () => {
    const fetchMock = server();
    await openPage();
    const card = await screen.findByTestId('trends-card');
    expect(within(card).getByText('工程趋势')).toBeTruthy();
    expect(Object.fromEntries(callsTo(fetchMock, '/api/ipp/telemetry-trend')[0]!.url.searchParams)).toMatchObject({
      dev_id: '21005',
      period: '24h',
      points: '24',
    });
    // Environment first: neither series was reported, so each says so instead of drawing an empty axis.
    expect(await within(card).findAllByText('此时段内未上报')).toHaveLength(2);

    fireEvent.click(within(card).getByText('计算单元'));
    await within(card).findByTestId('trend-cpu_temp_c');
    const cpu = chartOptions.get('trend-cpu_temp_c')!;
    const series = cpu.series as { name: string; data: (number | null)[]; stack?: string }[];
    expect(series.find((s) => s.name === '平均值')?.data.slice(0, 2)).toEqual([40, 41]);
    // The band: the minimum, then the width up to the maximum, stacked.
    const band = series.filter((s) => s.stack === 'band');
    expect(band.map((s) => s.data[0])).toEqual([38, 4]);
    expect((cpu.yAxis as { name: string }).name).toBe('°C');

    fireEvent.click(within(card).getByText('载板'));
    await within(card).findByTestId('trend-cb_current_a');
    const cb = (chartOptions.get('trend-cb_current_a')!.series as { name: string; data: (number | null)[] }[]).find(
      (s) => s.name === '平均值',
    )!;
    expect(cb.data.slice(10, 14)).toEqual([null, null, 1.25, 1.25]);

    fireEvent.click(within(card).getByText('雨刷'));
    await within(card).findByTestId('trend-wiper_states');
    const wiper = chartOptions.get('trend-wiper_states')!.series as { name: string; data: number[] }[];
    expect(wiper.map((s) => s.name)).toEqual(['清洁中', '故障']);
    expect(wiper[0]!.data[0]).toBe(1.7);
  });

  it('shows images received against expected, with the hours missing images and offline banded', async () => {
    const fetchMock = server();
    await openPage();
    const card = await screen.findByTestId('completeness-card');
    expect(within(card).getByText('数据完整性')).toBeTruthy();
    expect(Object.fromEntries(callsTo(fetchMock, '/api/ipp/completeness')[0]!.url.searchParams)).toMatchObject({
      dev_id: '21005',
      period: '24h',
      points: '24',
    });
    expect((await within(card).findByTestId('completeness-totals')).textContent).toContain(
      '已接收 234 / 应有 252 张图像（92.9%）',
    );
    expect(within(card).getByTestId('completeness-missing-hours').textContent).toBe('缺图 2 小时');
    expect(within(card).getByTestId('completeness-offline-hours').textContent).toBe('离线 3 小时');
    await within(card).findByTestId('completeness-chart');
    const option = chartOptions.get('completeness-chart')!;
    const series = option.series as { name: string; data: (number | null | { itemStyle: { color: string } })[] }[];
    expect(series.map((s) => s.name)).toEqual(['已接收', '未接收', 'bands']);
    expect(series[1]!.data.slice(9, 13)).toEqual([0, 9, 9, 0]);
    // Red bands behind hours 10–11, grey behind hours 3–5, nothing behind the others.
    const bands = series[2]!.data.map((d) => (d && typeof d === 'object' ? d.itemStyle.color : null));
    expect(bands.flatMap((c, i) => (c === MISSING_BAND ? [i] : []))).toEqual([10, 11]);
    expect(bands.flatMap((c, i) => (c === OFFLINE_BAND ? [i] : []))).toEqual([3, 4, 5]);
    expect(bands.filter((c) => c === null)).toHaveLength(19);
  });

  it('says so when the station has no reports in the period', async () => {
    server({
      '/api/ipp/completeness': () =>
        okEnvelope(
          completenessFixture({
            buckets: completenessFixture().buckets.map((b) => ({
              ...b,
              online_s: 0,
              received: 0,
              expected: null,
              hours: { complete: 0, missing: 0, idle: 0, offline: 0, none: 1 },
            })),
          }),
        ),
    });
    await openPage();
    expect((await screen.findByTestId('completeness-empty')).textContent).toContain('没有上报');
  });

  it('says so when the station sent no telemetry in the period', async () => {
    server({ '/api/ipp/telemetry-trend': () => okEnvelope(telemetryTrendFixture({ samples: new Array(24).fill(0) })) });
    await openPage();
    expect((await screen.findByTestId('trends-empty')).textContent).toContain('没有上报遥测数据');
  });

  it('queries the chosen period with its number of points', async () => {
    const fetchMock = server();
    await openPage('/ipp/ipp-view-detail?id=8');
    await screen.findByTestId('detail-histogram');
    fireEvent.click(screen.getByTestId('detail-period-7d'));
    await waitFor(() => expect(siteCalls(fetchMock).at(-1)).toMatchObject({ dev_id: '21006', period: '7d', points: '42' }));
  });

  it('keeps its station and period while another page is shown (kept alive)', async () => {
    const fetchMock = server();
    const { router } = await openPage('/ipp/ipp-view-detail?id=8');
    await screen.findByTestId('detail-histogram');
    fireEvent.click(screen.getByTestId('detail-period-7d'));
    await waitFor(() => expect(siteCalls(fetchMock)).toHaveLength(2));

    await router.navigate('/about');
    await router.navigate('/ipp/ipp-view-detail');
    await waitFor(() => expect(selectedPeriod()).toBe('7 天'));
    expect(within(screen.getByTestId('station-select')).getByText('Fjord (21006)')).toBeTruthy();
    expect(siteCalls(fetchMock).map((query) => [query.dev_id, query.period])).toEqual([
      ['21006', '24h'],
      ['21006', '7d'],
    ]);
  });

  it('asks before querying all the data, and queries only after OK', async () => {
    const fetchMock = server();
    await openPage();
    await screen.findByTestId('detail-histogram');

    fireEvent.click(screen.getByTestId('detail-period-all'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('查询全部数据非常耗时，确定要继续吗？');
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(siteCalls(fetchMock).map((query) => query.period)).toEqual(['24h']);
    expect(selectedPeriod()).toBe('最近 24 小时');

    fireEvent.click(screen.getByTestId('detail-period-all'));
    // The cancelled dialog may still be fading out: the newest OK button is this one's.
    await waitFor(() => expect(screen.getAllByTestId('confirm-ok')).toHaveLength(2));
    fireEvent.click(screen.getAllByTestId('confirm-ok').at(-1)!);
    await waitFor(() => expect(siteCalls(fetchMock).map((query) => query.period)).toEqual(['24h', 'all']));
    expect(siteCalls(fetchMock)[1]?.points).toBe('120');
    await waitFor(() => expect(selectedPeriod()).toBe('全部'));
  });

  it('says "No data sampled" for a period without images', async () => {
    server({ '/api/roi/get-site-roi': () => okEnvelope(siteRoiFixture({ total: 0, top_classes: [], others: 0, volume_l: 0 })) });
    await openPage();
    expect((await screen.findByTestId('detail-empty')).textContent).toContain('暂无采样数据');
    expect(screen.getByTestId('detail-total').textContent).toBe('0');
    expect(screen.queryByTestId('detail-histogram')).toBeNull();
  });

  it('downloads the CSV with a progress bar and saves it under the server’s name', async () => {
    const csv = 'start,count\n2026-03-05 00:00,10\n2026-03-05 01:00,10\n';
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const fetchMock = server({
      '/api/roi/export-site-data': () =>
        new Response(new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) }), {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Length': String(csv.length),
            'Content-Disposition': 'attachment; filename="21005-24h.csv"',
          },
        }),
    });
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });

    await openPage();
    await screen.findByTestId('detail-histogram');
    fireEvent.click(screen.getByTestId('detail-download'));
    const progress = await screen.findByTestId('detail-download-progress');
    expect(callsTo(fetchMock, '/api/roi/export-site-data')[0]?.url.searchParams.get('period')).toBe('24h');

    controller?.enqueue(new TextEncoder().encode(csv.slice(0, csv.length / 2)));
    await waitFor(() => expect(within(progress).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50'));
    controller?.enqueue(new TextEncoder().encode(csv.slice(csv.length / 2)));
    controller?.close();

    await waitFor(() => expect(clicks).toEqual(['21005-24h.csv']));
    expect(await saved[0]?.text()).toBe(csv);
    expect(await screen.findByText('下载完成')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('detail-download-progress')).toBeNull());
    expect(screen.getByTestId('detail-download')).toBeTruthy();
  });
});
