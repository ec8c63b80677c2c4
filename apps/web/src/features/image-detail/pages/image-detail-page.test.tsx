import { MEASURED_KEYS } from '@ipp/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { formatTimeIn } from '@/lib/time-zones';
import { ippFixture } from '@/test/fixtures';
import { detailsFixture, LOCAL_DAY, roiFixture } from '@/test/monitoring-fixtures';
import { callsTo, failField, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';

/** Images 100 … 102 of one station, in capture order. */
function details(url: URL) {
  const id = Number(url.searchParams.get('roi_id'));
  if (id < 100 || id > 102) return failField(1002, 'The image does not exist', 400, 'roi_id');
  return okEnvelope(
    detailsFixture({
      roi: roiFixture({
        id,
        class_name: id === 100 ? null : '001 Copepod',
        class_id: id === 100 ? null : 1,
        flags: id === 102 ? ['wiper', 'temperature'] : [],
      }),
      previous_id: id > 100 ? id - 1 : null,
      next_id: id < 102 ? id + 1 : null,
    }),
  );
}

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/roi/get-roi-details': details,
    '/api/ipp/index': () => pageEnvelope([ippFixture({ id: 7, time_zone: 'Asia/Shanghai' })]),
    '/api/roi/set-favorite': (_url, init) =>
      okEnvelope({ favorite: (JSON.parse(String(init?.body)) as { favorite: boolean }).favorite }),
    ...extra,
  });
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

async function openImage(id: number | string) {
  const view = renderRoutes(appRouteObjects, [`/ipp/ipp-image-detail?id=${id}`]);
  await screen.findByTestId('image-view');
  return view;
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('user');
});

describe('image detail', () => {
  it('shows the original image with what is known of it and the instrument state at capture', async () => {
    server();
    await openImage(101);
    expect(screen.getByTestId('image-view').getAttribute('src')).toBe('/api/roi/file/101');
    expect(screen.getByTestId('image-meta-station').querySelector('a')?.getAttribute('href')).toBe('/ipp/ipp-view?id=7');
    expect(text('image-meta-station')).toBe('Yellow Sea buoy (21005)');
    expect(text('image-meta-captured')).toMatch(/^2026-03-05 09:00:00 UTC([+-]\d+(:\d\d)?)?$/);
    expect(text('image-meta-received')).toMatch(/^2026-03-05 09:00:05 UTC([+-]\d+(:\d\d)?)?$/);
    expect(text('image-meta-class')).toBe('001 Copepod');
    expect(text('image-meta-type')).toBe('AI（机器识别）');
    expect(text('image-meta-confidence')).toBe('87.5 %');
    expect(text('image-meta-label-index')).toBe('1');
    expect(text('image-meta-size')).toBe('2345 px²');
    expect(text('image-meta-dimensions')).toBe('320 × 240 px');
    expect(text('image-meta-file-size')).toBe('47.00 KB');
    expect(text('image-flags')).toBe('无');

    expect(text('image-telemetry-temperature_c')).toBe('21.5 °C');
    expect(text('image-telemetry-wiper_state')).toBe('空闲');
    expect(text('image-telemetry-wiper_clean_count')).toBe('1.23 万');
    expect(text('image-telemetry-uvc_current_a')).toBe('0.351 A');
  });

  it('steps to the previous and next image by button and by arrow key, and stops at the ends', async () => {
    const fetchMock = server();
    const { router } = await openImage(101);
    fireEvent.click(screen.getByTestId('image-next'));
    await waitFor(() => expect(router.state.location.search).toBe('?id=102'));
    await waitFor(() => expect(screen.getByTestId('image-view').getAttribute('src')).toBe('/api/roi/file/102'));
    expect((screen.getByTestId('image-next') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(router.state.location.search).toBe('?id=102');

    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    await waitFor(() => expect(router.state.location.search).toBe('?id=101'));
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    await waitFor(() => expect(router.state.location.search).toBe('?id=100'));
    await waitFor(() => expect(text('image-meta-class')).toBe('未分类'));
    expect((screen.getByTestId('image-prev') as HTMLButtonElement).disabled).toBe(true);
    // Each image was asked for (the neighbours ahead of time), none twice.
    const asked = callsTo(fetchMock, '/api/roi/get-roi-details').map((call) => call.url.searchParams.get('roi_id'));
    expect(new Set(asked)).toEqual(new Set(['100', '101', '102']));
  });

  it('flags what the instrument was doing at capture, with the full reason on each tag', async () => {
    server();
    await openImage(102);
    const flags = screen.getByTestId('image-flags');
    expect(flags.textContent).toBe('雨刷温度');
    expect([...flags.querySelectorAll('.ant-tag')].map((tag) => tag.getAttribute('title'))).toEqual([
      '采集时雨刷正在清洁（或清洁后一分钟内）',
      '采集时舱内温度超出 0–35 °C',
    ]);
  });

  it("says each time's zone, and on hover the station's own clock and UTC", async () => {
    server();
    await openImage(101);
    const captured = screen.getByTestId('image-meta-captured').firstElementChild as HTMLElement;
    fireEvent.mouseEnter(captured);
    const at = LOCAL_DAY + 9 * 3_600_000;
    const tooltip = await screen.findByRole('tooltip');
    await waitFor(() =>
      expect(tooltip.textContent).toBe(
        `站点时间：${formatTimeIn(at, 'Asia/Shanghai')} UTC+8（Asia/Shanghai）UTC：${formatTimeIn(at, 'UTC')}`,
      ),
    );
  });

  it('ignores arrow keys while the user types', async () => {
    server();
    const { router } = await openImage(101);
    const input = document.createElement('input');
    document.body.append(input);
    fireEvent.keyDown(input, { key: 'ArrowLeft' });
    expect(router.state.location.search).toBe('?id=101');
    input.remove();
  });

  it('marks and unmarks the image as a favorite, each after a confirmation (spec §8)', async () => {
    const fetchMock = server();
    await openImage(101);
    const button = screen.getByTestId('image-favorite');
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    // Nothing is sent until the confirmation is accepted.
    expect((await screen.findAllByText('将此图像加入收藏？')).length).toBeGreaterThan(0);
    expect(callsTo(fetchMock, '/api/roi/set-favorite')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('image-favorite').getAttribute('aria-pressed')).toBe('true'));
    expect(lastBody(fetchMock, '/api/roi/set-favorite')).toEqual({ roi_id: 101, favorite: true });
    expect(text('image-favorite')).toContain('取消收藏');
    fireEvent.click(screen.getByTestId('image-favorite'));
    expect((await screen.findAllByText('将此图像移出收藏？')).length).toBeGreaterThan(0);
    fireEvent.click((await screen.findAllByTestId('confirm-ok')).at(-1)!);
    await waitFor(() => expect(screen.getByTestId('image-favorite').getAttribute('aria-pressed')).toBe('false'));
    expect(lastBody(fetchMock, '/api/roi/set-favorite')).toEqual({ roi_id: 101, favorite: false });
  });

  it('shows "—" for every instrument value when no sample was near the capture time', async () => {
    server({ '/api/roi/get-roi-details': () => okEnvelope(detailsFixture({ telemetry: null })) });
    await openImage(101);
    expect(screen.getByTestId('image-telemetry').textContent).toContain('采集时间附近没有仪器数据');
    for (const key of MEASURED_KEYS) expect(text(`image-telemetry-${key}`)).toBe('—');
  });

  it('says "No image resource" for an unknown image, without a toast', async () => {
    server();
    renderRoutes(appRouteObjects, ['/ipp/ipp-image-detail?id=999']);
    expect((await screen.findByTestId('image-missing')).textContent).toContain('暂无图片资源');
    expect(document.querySelector('.ant-message-notice')).toBeNull();
  });

  it('says "No image resource" without asking when the address has no image id', async () => {
    const fetchMock = server();
    renderRoutes(appRouteObjects, ['/ipp/ipp-image-detail']);
    expect(await screen.findByTestId('image-missing')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/roi/get-roi-details')).toHaveLength(0);
  });

  it('offers Retry when the network fails', async () => {
    let down = true;
    server({ '/api/roi/get-roi-details': (url) => (down ? Promise.reject(new TypeError('offline')) : details(url)) });
    renderRoutes(appRouteObjects, ['/ipp/ipp-image-detail?id=101']);
    const failed = await screen.findByTestId('load-failed');
    down = false;
    fireEvent.click(failed.querySelector('button')!);
    expect(await screen.findByTestId('image-view')).toBeTruthy();
  });
});
