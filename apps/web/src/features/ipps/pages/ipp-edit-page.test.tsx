import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { ippFixture } from '@/test/fixtures';
import { measuredFixture } from '@/test/monitoring-fixtures';
import { callsTo, failField, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { pickOption } from '@/test/select';

const KEY = 'ippk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const NORTH = {
  id: 4,
  name: 'North',
  admin_account: null,
  admin_name: null,
  superadmin_count: 0,
  admin_count: 1,
  user_count: 1,
  created_at: 1,
};
const ADMIN_INFO = {
  ...USER_INFO,
  id: 30,
  role: 'administrator',
  roles: ['administrator'],
  group_id: 4,
  group: { id: 4, name: 'North' },
};

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/group/index': () => pageEnvelope([NORTH]),
    '/api/ipp/index': () => pageEnvelope([]),
    '/api/site/ipp-one': () => okEnvelope(ippFixture()),
    '/api/ipp/save': (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { id?: number };
      return okEnvelope({ ipp: ippFixture({ ...body, id: body.id ?? 11 }), device_key: body.id ? null : KEY });
    },
    '/api/ipp/rotate-key': () => okEnvelope({ ipp: ippFixture(), device_key: `${KEY}-new` }),
    '/api/ipp/config-history': () => pageEnvelope([]),
    ...extra,
  });
}

async function openForm(path = '/manage/ipp_edit') {
  const view = renderRoutes(appRouteObjects, [path]);
  await screen.findByTestId('ipp-config-frame_rate');
  return { ...view, user: userEvent.setup() };
}

function item(testId: string): HTMLElement {
  const found = screen.getByTestId(testId).closest('.ant-form-item');
  if (!(found instanceof HTMLElement)) throw new Error(`no form item for ${testId}`);
  return found;
}

const fieldError = (testId: string) => item(testId).querySelector('.ant-form-item-explain-error')?.textContent ?? '';
const fieldWarning = (testId: string) => item(testId).querySelector('.ant-form-item-explain-warning')?.textContent ?? '';

async function setNumber(user: ReturnType<typeof userEvent.setup>, testId: string, value: string) {
  const input = screen.getByTestId(testId);
  await user.clear(input);
  await user.type(input, value);
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByTestId('ipp-dev_id'), '21005');
  await user.type(screen.getByTestId('ipp-site_name'), 'Yellow Sea buoy');
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('administrator');
});

describe('instrument form: limits at the field', () => {
  it('refuses frame rate 30 with the limit in the current language and accepts 29', async () => {
    const fetchMock = server({ '/api/wyrbac/login/user-info': () => okEnvelope(ADMIN_INFO) });
    const { user } = await openForm();
    await fillRequired(user);
    await setNumber(user, 'ipp-config-frame_rate', '30');
    await waitFor(() => expect(fieldError('ipp-config-frame_rate')).toBe('帧率上限为 29'));
    await user.click(screen.getByTestId('ipp-submit'));
    expect(await screen.findByText('请检查必填项！')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/ipp/save')).toHaveLength(0);

    await setLanguage('en');
    await waitFor(() => expect(fieldError('ipp-config-frame_rate')).toBe('Frame rate is at most 29'));

    await setNumber(user, 'ipp-config-frame_rate', '29');
    await waitFor(() => expect(fieldError('ipp-config-frame_rate')).toBe(''));
    await user.click(screen.getByTestId('ipp-submit'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/ipp/save')).toHaveLength(1));
    expect((lastBody(fetchMock, '/api/ipp/save') as { config: { frame_rate: number } }).config.frame_rate).toBe(29);
  });

  it('refuses fewer than 50 background images and whole-number fields with decimals', async () => {
    server({ '/api/wyrbac/login/user-info': () => okEnvelope(ADMIN_INFO) });
    const { user } = await openForm();
    await setNumber(user, 'ipp-config-background_count', '49');
    await waitFor(() => expect(fieldError('ipp-config-background_count')).toBe('背景图像数量最小为 50'));
    await setNumber(user, 'ipp-config-background_count', '50');
    await waitFor(() => expect(fieldError('ipp-config-background_count')).toBe(''));
    await setNumber(user, 'ipp-config-wiper_strokes', '2.5');
    await waitFor(() => expect(fieldError('ipp-config-wiper_strokes')).toBe('每次清洁行程数须为整数'));
    await user.clear(screen.getByTestId('ipp-config-gain'));
    await waitFor(() => expect(fieldError('ipp-config-gain')).toBe('请输入增益'));
  });

  it('warns outside the recommended range without refusing the value', async () => {
    const fetchMock = server({ '/api/wyrbac/login/user-info': () => okEnvelope(ADMIN_INFO) });
    const { user } = await openForm();
    expect(item('ipp-config-frame_rate').textContent).toContain('推荐 1–7；默认 3.0；允许 0.1–29');
    expect(item('ipp-config-focus_threshold').textContent).toContain('推荐 700 或 800');
    await fillRequired(user);
    await setNumber(user, 'ipp-config-frame_rate', '10');
    await waitFor(() => {
      expect(fieldWarning('ipp-config-frame_rate')).toBe('不在推荐值内（1–7）');
      expect(fieldError('ipp-config-frame_rate')).toBe('');
    });
    await setNumber(user, 'ipp-config-wiper_interval_min', '45');
    await waitFor(() => expect(fieldWarning('ipp-config-wiper_interval_min')).toBe('不在推荐值内（30 或 60）'));
    await user.click(screen.getByTestId('ipp-submit'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/ipp/save')).toHaveLength(1));

    await setLanguage('en');
    await waitFor(() => expect(fieldWarning('ipp-config-frame_rate')).toBe('Outside the recommendation (1–7)'));
  });

  it('requires the site ID and the team ("Please select a Team!")', async () => {
    const fetchMock = server();
    signIn('superadmin');
    const { user } = await openForm();
    await user.click(screen.getByTestId('ipp-submit'));
    await waitFor(() => expect(fieldError('ipp-team')).toBe('请选择团队！'));
    expect(fieldError('ipp-dev_id')).toBe('请输入站点 ID');
    await user.type(screen.getByTestId('ipp-dev_id'), '21 005');
    await waitFor(() => expect(fieldError('ipp-dev_id')).toBe('只能使用字母、数字、_ 和 -'));
    await setNumber(user, 'ipp-latitude', '91');
    await waitFor(() => expect(fieldError('ipp-latitude')).toBe('纬度须在 -90 到 90 之间'));
    expect(callsTo(fetchMock, '/api/ipp/save')).toHaveLength(0);

    await setLanguage('en');
    await waitFor(() => expect(fieldError('ipp-team')).toBe('Please select a Team!'));
  });
});

describe('instrument form: creating', () => {
  it('sends the registry fields with the spec defaults and shows the device key once', async () => {
    const fetchMock = server();
    signIn('superadmin');
    const { user, router } = await openForm();
    await fillRequired(user);
    await user.type(screen.getByTestId('ipp-serial_number'), ' SN-0001 ');
    await pickOption('ipp-country', '中国');
    await setNumber(user, 'ipp-longitude', '121.5');
    await setNumber(user, 'ipp-latitude', '36.1');
    await setNumber(user, 'ipp-pixel_size_um', '1.7');
    await pickOption('ipp-team', 'North');
    await user.click(screen.getByTestId('ipp-submit'));

    const key = await screen.findByTestId('ipp-device-key');
    expect(key.textContent).toBe(KEY);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(/密钥只显示这一次/)).toBeTruthy();
    expect(lastBody(fetchMock, '/api/ipp/save')).toEqual({
      dev_id: '21005',
      site_name: 'Yellow Sea buoy',
      country: 'CN',
      longitude: 121.5,
      latitude: 36.1,
      group_id: 4,
      serial_number: 'SN-0001',
      pixel_size_um: 1.7,
      time_zone: null,
      config: DEFAULT_IPP_CONFIG,
    });

    // Escape does not lose the key; only the button closes it, and then the list shows.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByTestId('ipp-device-key')).toBeTruthy();
    await user.click(screen.getByTestId('ipp-key-copy'));
    expect(await navigator.clipboard.readText()).toBe(KEY);
    await user.click(screen.getByTestId('ipp-key-close'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/ipp'));
    expect(screen.queryByText(KEY)).toBeNull();
    expect(callsTo(fetchMock, '/api/ipp/save')).toHaveLength(1);
  });

  it("puts an administrator's instruments in its own team, which it cannot change", async () => {
    const fetchMock = server({ '/api/wyrbac/login/user-info': () => okEnvelope(ADMIN_INFO) });
    const { user } = await openForm();
    await waitFor(() => expect(within(screen.getByTestId('ipp-team')).getByText('North')).toBeTruthy());
    expect(screen.getByTestId('ipp-team').className).toContain('disabled');
    await fillRequired(user);
    await user.click(screen.getByTestId('ipp-submit'));
    await screen.findByTestId('ipp-device-key');
    expect(lastBody(fetchMock, '/api/ipp/save')).toMatchObject({ group_id: 4, country: '' });
    expect(callsTo(fetchMock, '/api/group/index')).toHaveLength(0);
  });
});

describe('instrument form: editing', () => {
  it('loads the instrument, saves with its id and stays', async () => {
    const fetchMock = server({
      '/api/site/ipp-one': () => okEnvelope(ippFixture({ config: { ...DEFAULT_IPP_CONFIG, frame_rate: 5.5 } })),
    });
    const { user, router } = await openForm('/manage/ipp_edit?id=7');
    expect(lastBody(fetchMock, '/api/site/ipp-one')).toEqual({ id: 7 });
    await waitFor(() => expect((screen.getByTestId('ipp-dev_id') as HTMLInputElement).value).toBe('21005'));
    expect(screen.getByText('仪器配置 · Yellow Sea buoy (21005)')).toBeTruthy();
    expect((screen.getByTestId('ipp-config-frame_rate') as HTMLInputElement).value).toBe('5.5');
    expect(screen.getByTestId('ipp-telemetry-general-online').textContent).toBe('离线');
    expect(screen.getByTestId('ipp-total-images').textContent).toBe('0');
    expect(screen.getByTestId('ipp-measured-temperature_c').textContent).toBe('—');
    await setNumber(user, 'ipp-config-exposure_us', '100');
    await user.click(screen.getByTestId('ipp-submit'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/ipp/save')).toMatchObject({ id: 7, config: { exposure_us: 100, frame_rate: 5.5 } });
    expect(router.state.location.pathname).toBe('/manage/ipp_edit');
    expect(screen.queryByTestId('ipp-device-key')).toBeNull();
  });

  it('puts a server 1002 on config.frame_rate under that field', async () => {
    server({ '/api/ipp/save': () => failField(1002, '帧率上限为 29', 400, 'config.frame_rate') });
    const { user } = await openForm('/manage/ipp_edit?id=7');
    await waitFor(() => expect((screen.getByTestId('ipp-dev_id') as HTMLInputElement).value).toBe('21005'));
    await user.click(screen.getByTestId('ipp-submit'));
    await waitFor(() => expect(fieldError('ipp-config-frame_rate')).toBe('帧率上限为 29'));
    expect(document.querySelector('.ant-message-notice')).toBeNull();
  });

  it('rotates the device key after confirmation and shows the new one', async () => {
    const fetchMock = server();
    const { user, router } = await openForm('/manage/ipp_edit?id=7');
    await user.click(await screen.findByTestId('ipp-rotate-key'));
    expect(callsTo(fetchMock, '/api/ipp/rotate-key')).toHaveLength(0);
    await user.click(await screen.findByTestId('confirm-ok'));
    expect((await screen.findByTestId('ipp-device-key')).textContent).toBe(`${KEY}-new`);
    expect(lastBody(fetchMock, '/api/ipp/rotate-key')).toEqual({ id: 7 });
    await user.click(screen.getByTestId('ipp-key-close'));
    await waitFor(() => expect(screen.queryByTestId('ipp-device-key')).toBeNull());
    expect(router.state.location.pathname).toBe('/manage/ipp_edit');
  });

  it('shows a user the configuration read-only, with nothing to save or rotate', async () => {
    signIn('user');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'user', roles: ['user'], group_id: 4 }) });
    await openForm('/manage/ipp_edit?id=7');
    await waitFor(() => expect((screen.getByTestId('ipp-dev_id') as HTMLInputElement).value).toBe('21005'));
    expect(screen.getByTestId('ipp-read-only')).toBeTruthy();
    expect((screen.getByTestId('ipp-config-frame_rate') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('ipp-dev_id') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('ipp-submit')).toBeNull();
    expect(screen.queryByTestId('ipp-rotate-key')).toBeNull();
  });

  it('offers a user no form to add an instrument', async () => {
    signIn('user');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'user', roles: ['user'], group_id: 4 }) });
    renderRoutes(appRouteObjects, ['/manage/ipp_edit']);
    expect(await screen.findByTestId('ipp-read-only')).toBeTruthy();
    expect(screen.queryByTestId('ipp-dev_id')).toBeNull();
  });
});

describe('instrument form: what the instrument reports', () => {
  const reporting = ippFixture({
    online: true,
    measured: measuredFixture(),
    online_hours: 12.46,
    today_images: 42,
    total_images: 123_456,
    last_image_at: new Date(2026, 2, 5, 9, 30).getTime(),
    latest_roi: { id: 555, thumb_url: 'roi/thumb/555' },
    applied_config: { ...DEFAULT_IPP_CONFIG, frame_rate: 2 },
    pending: ['frame_rate'],
  });

  it('shows the measured values with their units, and the data summary', async () => {
    server({ '/api/site/ipp-one': () => okEnvelope(reporting) });
    await openForm('/manage/ipp_edit?id=7');
    await waitFor(() => expect(screen.getByTestId('ipp-measured-temperature_c').textContent).toBe('21.5 °C'));
    expect(screen.getByTestId('ipp-measured-humidity_pct').textContent).toBe('40 %RH');
    expect(screen.getByTestId('ipp-measured-volume_5min_ml').textContent).toBe('12.5 mL');
    expect(screen.getByTestId('ipp-measured-wiper_state').textContent).toBe('空闲');
    expect(screen.getByTestId('ipp-measured-wiper_clean_count').textContent).toBe('1.23 万');
    expect(screen.getByTestId('ipp-measured-cb_voltage_v').textContent).toBe('12 V');
    expect(screen.getByTestId('ipp-online-hours').textContent).toBe('12.5 小时');
    expect(screen.getByTestId('ipp-today-images').textContent).toBe('42');
    expect(screen.getByTestId('ipp-total-images').textContent).toBe('12.35 万');
    expect(screen.getByTestId('ipp-last-update').textContent).toMatch(/^2026-03-05 09:30:00 UTC([+-]\d+(:\d\d)?)?$/);
    const current = screen.getByTestId('ipp-current-image').querySelector('a');
    expect(current?.getAttribute('href')).toBe('/ipp/ipp-image-detail?id=555');
    expect(current?.querySelector('img')?.getAttribute('src')).toBe('/api/roi/thumb/555');
    expect(screen.getByTestId('ipp-section-general').textContent).toContain('最近数据 2026-03-05 08:00:00');
  });

  it('tags each setting applied or pending, and says how many wait', async () => {
    server({ '/api/site/ipp-one': () => okEnvelope(reporting) });
    await openForm('/manage/ipp_edit?id=7');
    const frameRate = await screen.findByTestId('ipp-config-state-frame_rate');
    expect(frameRate.textContent).toBe('待应用');
    expect(frameRate.dataset.state).toBe('pending');
    const exposure = screen.getByTestId('ipp-config-state-exposure_us');
    expect(exposure.textContent).toBe('已应用');
    expect(exposure.dataset.state).toBe('applied');
    expect(screen.getByTestId('ipp-config-sync').textContent).toContain('仪器尚有 1 项设置未应用');
    expect(screen.getByTestId('ipp-config-sync').textContent).toContain('帧率');

    await setLanguage('en');
    await waitFor(() => expect(screen.getByTestId('ipp-config-state-frame_rate').textContent).toBe('Pending'));
  });

  it('shows no tag while the instrument has never reported its configuration', async () => {
    server();
    await openForm('/manage/ipp_edit?id=7');
    await waitFor(() => expect((screen.getByTestId('ipp-dev_id') as HTMLInputElement).value).toBe('21005'));
    expect(screen.queryByTestId('ipp-config-state-frame_rate')).toBeNull();
    expect(screen.getByTestId('ipp-config-sync').textContent).toContain('仪器尚未报告其配置');
    expect(screen.getByTestId('ipp-measured-temperature_c').textContent).toBe('—');
    expect(screen.getByTestId('ipp-section-general').textContent).toContain('仪器发送遥测数据后显示');
  });

  it('shows the configuration history: each version, who and when, old → new, and whether the device runs it', async () => {
    const v1 = {
      version: 1,
      source: 'register',
      changed_by_name: 'admin_a',
      changed_at: Date.UTC(2026, 2, 1, 0, 0),
      state: 'applied',
      applied_at: Date.UTC(2026, 2, 1, 0, 1),
      changes: Object.entries(DEFAULT_IPP_CONFIG).map(([key, to]) => ({ key, from: null, to })),
      config: DEFAULT_IPP_CONFIG,
    };
    const v2 = {
      ...v1,
      version: 2,
      source: 'bulk',
      changed_by_name: 'admin_b',
      state: 'pending',
      applied_at: null,
      changes: [
        { key: 'exposure_us', from: 80, to: 100 },
        { key: 'frame_rate', from: 3, to: 5 },
      ],
      config: { ...DEFAULT_IPP_CONFIG, exposure_us: 100, frame_rate: 5 },
    };
    const fetchMock = server({ '/api/ipp/config-history': () => pageEnvelope([v2, v1]) });
    await openForm('/manage/ipp_edit?id=7');
    const history = await screen.findByTestId('ipp-config-history');
    expect(callsTo(fetchMock, '/api/ipp/config-history')[0]?.url.searchParams.get('id')).toBe('7');
    const changes = await within(history).findByTestId('ipp-history-changes-2');
    expect(changes.textContent).toBe('曝光时间: 80 µs → 100 µs帧率: 3.0 fps → 5.0 fps');
    expect(within(history).getByText('批量应用')).toBeTruthy();
    expect(within(history).getByText('admin_b')).toBeTruthy();
    expect(within(history).getByTestId('ipp-history-state-2').dataset.state).toBe('pending');
    expect(within(history).getByTestId('ipp-history-state-2').textContent).toBe('待应用');
    expect(within(history).getByTestId('ipp-history-state-1').textContent).toContain('已应用');
    expect(within(history).getByText('初始配置（14 项设置）')).toBeTruthy();
    await setLanguage('en');
    await waitFor(() => expect(within(history).getByTestId('ipp-history-state-2').textContent).toBe('Pending'));
    expect(within(history).getByTestId('ipp-history-changes-2').textContent).toContain('Exposure time: 80 µs → 100 µs');
  });
});
