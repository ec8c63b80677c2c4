import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { button, confirm, toast } from './support/antd.ts';
import { chromiumAvailable } from './support/browser.ts';
import { expectPath } from './support/console.ts';
import { DEMO_PASSWORD, repoRoot } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const T = {
  zh: {
    saved: '保存成功',
    online: '在线',
    applied: '已应用',
    allWarning: '查询全部数据',
    completeness: '数据完整性',
    historyChange: '帧率: 3.0 fps → 5.0 fps',
    all: '全部',
    exposure: /^曝光时间/,
    exposureChange: '曝光时间: 80 µs → 115 µs',
    alarmsTab: '告警',
    rulesTab: '规则',
    acknowledged: '已确认',
    major: '重要',
    devId: '站点 ID',
    siteName: '站点名称',
    longitude: '经度',
    latitude: '纬度',
    save: '保存',
    keySaved: '我已保存密钥',
    applyOpen: '批量应用设置（1）',
    applyOk: '应用到 1 台',
    download: '下载数据',
    addRule: '新增规则',
    ruleName: '名称',
    ruleMinutes: '持续至少（分钟）',
    note: '备注',
    acknowledge: '确认',
  },
  en: {
    saved: 'Save successful',
    online: 'Online',
    applied: 'Applied',
    historyChange: 'Frame rate: 3.0 fps → 5.0 fps',
    all: 'All',
    exposure: /^Exposure time/,
    exposureChange: 'Exposure time: 80 µs → 115 µs',
    allWarning: 'Querying all the data is very time-consuming',
    completeness: 'Data completeness',
    alarmsTab: 'Alarms',
    rulesTab: 'Rules',
    acknowledged: 'Acknowledged',
    major: 'Major',
    devId: 'Site ID',
    siteName: 'Site name',
    longitude: 'Longitude',
    latitude: 'Latitude',
    save: 'Save',
    keySaved: 'I have saved the key',
    applyOpen: 'Apply settings (1)',
    applyOk: 'Apply to 1',
    download: 'Download data',
    addRule: 'Add rule',
    ruleName: 'Name',
    ruleMinutes: 'For at least (minutes)',
    note: 'Note',
    acknowledge: 'Acknowledge',
  },
} as const;

/**
 * Reloads until the element's text (or, with `attribute`, that attribute) matches; pages poll too, but a reload
 * proves the server state.
 */
async function eventually(page: Page, testId: string, text: string | RegExp, timeoutMs = 60_000, attribute?: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const locator = page.getByTestId(testId);
    const content = (await locator.count())
      ? attribute
        ? await locator.first().getAttribute(attribute)
        : await locator.first().textContent()
      : null;
    if (content !== null && (typeof text === 'string' ? content.includes(text) : text.test(content))) return content;
    if (Date.now() > deadline) throw new Error(`${testId} did not show ${String(text)} in time (last: ${content})`);
    await page.waitForTimeout(1500);
    await page.reload();
    await locator.first().waitFor({ timeout: 20_000 });
  }
}

/**
 * Issue 4 end to end, in Chromium against the real server and the real broker: register an instrument, run the
 * simulator for it over MQTT, watch it come online, change its frame rate and see pending → applied, then read the
 * overview, station preview, station detail with every period, the image detail and download the CSV.
 */
describe.skipIf(!chromiumAvailable).each(['en', 'zh'] as const)('live monitoring in Chromium (%s)', (lang) => {
  const app = useConsole({ lang, server: { env: { MQTT_URL } } });
  let simulator: ChildProcess | null = null;
  let simulatorLog = '';
  const t = T[lang];
  const devId = lang === 'en' ? '31001' : '31002';

  // Registered after the console's hooks, so the simulator stops before its server does.
  afterAll(async () => {
    if (simulator && simulator.exitCode === null) {
      const exited = new Promise((r) => simulator?.once('exit', r));
      simulator.kill('SIGTERM');
      await exited;
    }
  });

  it('runs the whole monitoring flow', async () => {
    const page = await app.signIn('demo_admin', DEMO_PASSWORD);
    const { server } = app;
    // The live event stream is open (issue 23): the header says so.
    await page.locator('[data-testid="live-indicator"][data-state="live"]').waitFor({ timeout: 15_000 });

    // Register; the key is shown once.
    await page.goto('/manage/ipp_edit');
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await field(t.devId).fill(devId);
    await field(t.siteName).fill('E2E buoy');
    await field(t.longitude).fill('120.3');
    await field(t.latitude).fill('36.1');
    await page.getByTestId('ipp-config-frame_rate').fill('40');
    await button(page, t.save).click();
    await page
      .getByText(lang === 'zh' ? /29/ : /at most 29/)
      .first()
      .waitFor();
    await page.getByTestId('ipp-config-frame_rate').fill('3');
    await button(page, t.save).click();
    const key = ((await page.getByTestId('ipp-device-key').textContent()) ?? '').match(/ippk_[\w-]{43}/)?.[0];
    expect(key).toBeTruthy();
    await button(page.getByRole('dialog'), t.keySaved).click();
    await expectPath(page, '/manage/ipp');

    // The simulator speaks for it over MQTT (telemetry, applied configuration) and HTTP (images).
    simulator = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/server/src/simulator/cli.ts',
        '--server',
        server.url,
        '--device',
        `${devId}:${key}`,
        '--rate',
        '3',
        '--telemetry-interval',
        '2',
        '--mqtt',
        MQTT_URL,
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    simulator.stdout?.on('data', (d: Buffer) => (simulatorLog += d.toString()));
    simulator.stderr?.on('data', (d: Buffer) => (simulatorLog += d.toString()));
    try {
      await eventually(page, `ipp-status-${devId}`, t.online);
    } catch (error) {
      throw new Error(`${String(error)}\nsimulator:\n${simulatorLog}\nserver:\n${server.log()}`);
    }

    // Change the frame rate: pending until the device reports it applied.
    const id = await page.evaluate(async (dev) => {
      const res = await fetch(`/api/ipp/index?keyword=${dev}`, { headers: { 'x-token': localStorage.getItem('token') ?? '' } });
      return ((await res.json()).data as { id: number }[])[0]?.id;
    }, devId);
    await page.goto(`/manage/ipp_edit?id=${id}`);
    await eventually(page, 'ipp-config-state-frame_rate', 'applied', 60_000, 'data-state');
    expect(await page.getByTestId('ipp-config-state-frame_rate').textContent()).toBe(t.applied);
    await page.getByTestId('ipp-config-frame_rate').fill('5');
    await button(page, t.save).click();
    await toast(page, t.saved);
    const state = page.getByTestId('ipp-config-state-frame_rate');
    // The device applies a change after a second or two: right after saving the setting is normally pending.
    expect(await state.getAttribute('data-state')).toMatch(/^(pending|applied)$/);
    // Issue 23: the page follows the device without a reload — the setting, the page's state and the configuration
    // history's newest version turn "applied" on their own (a marker set on this page would vanish with a reload).
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await page.locator('[data-testid="ipp-config-state-frame_rate"][data-state="applied"]').waitFor({ timeout: 30_000 });
    const newest = page.getByTestId('ipp-config-history').locator('[data-testid^="ipp-history-state-"]').first();
    await page
      .getByTestId('ipp-config-history')
      .locator('[data-testid^="ipp-history-state-"][data-state="applied"]')
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await newest.getAttribute('data-state')).toBe('applied');
    expect(await page.getByTestId('ipp-config-history').textContent()).toContain(t.historyChange);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // Apply settings to several: a second instrument (no device) has a longer exposure; the list copies that one
    // setting onto the simulated instrument, which shows pending, then applied once its device reports it — live.
    const donor = `${devId}9`;
    const saved = await page.evaluate(
      async ([dev, config]) => {
        const res = await fetch('/api/ipp/save', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-token': localStorage.getItem('token') ?? '' },
          body: JSON.stringify({
            dev_id: dev,
            site_name: 'E2E donor',
            country: 'CN',
            longitude: null,
            latitude: null,
            group_id: (
              await (
                await fetch('/api/wyrbac/login/user-info', { headers: { 'x-token': localStorage.getItem('token') ?? '' } })
              ).json()
            ).data.group_id,
            serial_number: '',
            config,
          }),
        });
        return (await res.json()).code as number;
      },
      [donor, { ...DEFAULT_IPP_CONFIG, exposure_us: 115 }] as const,
    );
    expect(saved).toBe(1000);
    await page.goto('/manage/ipp');
    await page.getByTestId(`ipp-row-${devId}`).getByRole('checkbox').click();
    await button(page, t.applyOpen).click();
    await page.getByTestId('ipp-apply-source').click();
    await page.locator('.ant-select-item-option').filter({ hasText: donor }).click();
    await page.locator('.ant-modal').getByText(t.all, { exact: true }).click();
    await page.getByTestId('ipp-apply-keys').getByText(t.exposure).click();
    await button(page.getByRole('dialog'), t.applyOk).click();
    expect(await page.getByTestId(`ipp-apply-outcome-${devId}`).getAttribute('data-changed')).toBe('true');
    // By test id: the dialog's corner cross is a "Close" button too.
    await page.getByTestId('ipp-apply-close').click();
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await page.locator(`[data-testid="ipp-sync-${devId}"][data-state="applied"]`).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await page.goto(`/manage/ipp_edit?id=${id}`);
    expect(await page.getByTestId('ipp-history-changes-3').textContent()).toContain(t.exposureChange);
    expect(await page.getByTestId('ipp-history-state-3').getAttribute('data-state')).toBe('applied');
    expect(Number((await page.getByTestId('ipp-total-images').textContent())?.replace(/\D/g, ''))).toBeGreaterThan(0);

    // Overview: charts, map, wall.
    await page.goto('/home');
    for (const chart of ['home-roi24-chart', 'home-temp30-chart', 'home-class-chart', 'home-map'])
      await page.getByTestId(chart).waitFor();
    await page.getByTestId('home-map').locator('.leaflet-marker-icon, .leaflet-interactive').first().waitFor();

    // Station preview: 30 days and the latest images.
    await page.goto(`/ipp/ipp-view?id=${id}`);
    await page.getByTestId('preview-chart-rois').waitFor();
    await page.getByTestId('preview-chart-env').waitFor();
    const latest = page.getByTestId('preview-latest').locator('img');
    await latest.first().waitFor();
    // Images load through their content-addressed URLs.
    await expect.poll(() => latest.first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    // Image detail with the instrument state at capture time.
    await latest.first().click();
    await expectPath(page, '/ipp/ipp-image-detail');
    await page.getByTestId('image-view').waitFor();
    await page.getByTestId('image-telemetry').waitFor();

    // Station detail: every period; "all" asks first.
    await page.goto(`/ipp/ipp-view-detail?id=${id}`);
    for (const period of ['24h', '3d', '7d', '15d', '1m', '3m', '6m', '1y']) {
      await page.getByTestId(`detail-period-${period}`).click();
      await page.getByTestId('detail-histogram').waitFor();
    }
    await page.getByTestId('detail-period-all').click();
    await page.getByTestId('confirm-ok').last().waitFor();
    expect(await page.locator('.ant-modal').last().textContent()).toContain(t.allWarning);
    await confirm(page);
    await page.getByTestId('detail-histogram').waitFor();
    await page.getByTestId('detail-pie').waitFor();
    await page.getByTestId('detail-concentration').waitFor();
    await expect
      .poll(async () => Number((await page.getByTestId('detail-total').textContent())?.replace(/\D/g, '')))
      .toBeGreaterThan(0);

    // Data completeness (issue 23): the simulator counts the images it makes, so the card compares expected with
    // received for the period.
    await page.getByTestId('completeness-chart').waitFor();
    const totals = page.getByTestId('completeness-totals');
    await expect.poll(async () => Number(await totals.getAttribute('data-received'))).toBeGreaterThan(0);
    await expect.poll(async () => Number((await totals.getAttribute('data-expected')) || 0)).toBeGreaterThan(0);
    expect(await page.getByTestId('completeness-card').textContent()).toContain(t.completeness);

    // CSV download with progress.
    const downloading = page.waitForEvent('download');
    await button(page, t.download).click();
    const download = await downloading;
    const file = path.join(server.dataDir, `download-${lang}.csv`);
    await download.saveAs(file);
    const lines = fs
      .readFileSync(file, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^bucket_start,bucket_end,rois,volume_l,concentration_per_l,.*,bucket_start_utc,bucket_end_utc$/);
    expect(lines.length).toBeGreaterThan(1);
    const total = lines.slice(1).reduce((sum, line) => sum + Number(line.split(',')[2]), 0);
    expect(total).toBeGreaterThan(0);

    // Alarms (issue 23): an offline rule; the instrument stops; the alarm arrives on the open page and in the header
    // without a reload; someone acknowledges it with a note.
    await page.goto('/alarms');
    await page.getByRole('tab', { name: t.rulesTab }).click();
    await button(page, t.addRule).click();
    const ruleForm = page.getByRole('dialog', { name: t.addRule });
    await ruleForm.getByLabel(t.ruleName, { exact: true }).fill('Offline');
    await ruleForm.getByLabel(t.ruleMinutes, { exact: true }).fill('0');
    await button(ruleForm, t.save).click();
    await page.getByTestId('alarm-rule-table').getByText('Offline', { exact: true }).waitFor();
    await page.getByRole('tab', { name: t.alarmsTab }).click();
    await page.getByTestId('alarm-table').waitFor();
    expect(await page.locator('[data-testid^="alarm-state-"]').count()).toBe(0);
    await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
    const exited = new Promise((r) => simulator?.once('exit', r));
    simulator?.kill('SIGTERM');
    await exited;
    const alarmState = page.locator('[data-testid^="alarm-state-"]').first();
    await alarmState.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('alarm-table').textContent()).toContain(`E2E buoy (${devId})`);
    await expect.poll(() => page.getByTestId('alarm-bell').getAttribute('data-active')).toBe('1');
    expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
    const alarmId = ((await alarmState.getAttribute('data-testid')) ?? '').replace('alarm-state-', '');
    // Issue 40: an offline rule weighs "major" unless set otherwise; the bell takes the colour of the heaviest.
    expect(await page.getByTestId(`alarm-severity-${alarmId}`).textContent()).toBe(t.major);
    expect(await page.getByTestId('alarm-bell').getAttribute('data-heaviest')).toBe('major');
    await page.getByTestId(`alarm-ack-${alarmId}`).click();
    const ackForm = page.getByRole('dialog');
    await ackForm.getByLabel(t.note, { exact: true }).fill('checking the cable');
    await button(ackForm, t.acknowledge).click();
    await expect.poll(() => page.getByTestId(`alarm-state-${alarmId}`).textContent()).toBe(t.acknowledged);
    expect(await page.getByTestId('alarm-table').textContent()).toContain('checking the cable');
    await expect.poll(() => page.getByTestId('alarm-bell').getAttribute('data-active')).toBe('0');
  }, 300_000);
});
