import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { WEBHOOK_FAILURES } from '@ipp/contracts';
import { durationText, ruleDetails, ruleText, valueText, webhookFailureText } from './alarm-text';

afterEach(async () => {
  await i18n.changeLanguage('zh');
});

const offline = { kind: 'offline' as const, threshold: null, minutes: 1, class_name: null };

describe('alarm durations (issue 37: "41193 min", "离线 1 min 及以上")', () => {
  it('reads minutes as days, hours and minutes in English', async () => {
    await setLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(durationText(t, 41_193)).toBe('28 d 14 h');
    expect(durationText(t, 28 * 1440)).toBe('28 d');
    expect(durationText(t, 185)).toBe('3 h 5 min');
    expect(durationText(t, 120)).toBe('2 h');
    expect(durationText(t, 45)).toBe('45 min');
    expect(valueText(t, { kind: 'offline', value: 41_193 })).toBe('28 d 14 h');
    expect(valueText(t, { kind: 'no_images', value: 61 })).toBe('1 h 1 min');
    expect(ruleText(t, offline)).toBe('Offline for 1 min or more');
    // Other kinds keep their own units.
    expect(valueText(t, { kind: 'humidity_high', value: 81.26 })).toBe('81.3 %');
  });

  it('writes the units in Chinese in Chinese', async () => {
    await setLanguage('zh');
    const t = i18n.t.bind(i18n);
    expect(durationText(t, 41_193)).toBe('28 天 14 小时');
    expect(durationText(t, 185)).toBe('3 小时 5 分钟');
    expect(valueText(t, { kind: 'offline', value: 41_193 })).toBe('28 天 14 小时');
    expect(ruleText(t, offline)).toBe('离线 1 分钟及以上');
    expect(ruleText(t, { ...offline, kind: 'no_images', minutes: 90 })).toBe('在线，1 小时 30 分钟及以上无图像');
  });
});

describe('alarm durations at their edges (issue 40 item 7)', () => {
  it('drops the smaller unit past a day, rounds to whole minutes and never goes negative', async () => {
    await setLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(durationText(t, 0)).toBe('0 min');
    expect(durationText(t, 59.4)).toBe('59 min');
    expect(durationText(t, 59.6)).toBe('1 h');
    expect(durationText(t, 1439)).toBe('23 h 59 min');
    expect(durationText(t, 1440)).toBe('1 d');
    expect(durationText(t, 1441)).toBe('1 d');
    expect(durationText(t, 1500)).toBe('1 d 1 h');
    expect(durationText(t, -5)).toBe('0 min');
    // Both kinds whose reading is minutes, and only those.
    expect(valueText(t, { kind: 'no_images', value: 30 })).toBe('30 min');
    expect(valueText(t, { kind: 'offline', value: 2 * 1440 + 60 })).toBe('2 d 1 h');
    expect(valueText(t, { kind: 'storage_low', value: 1500 })).toBe('1500 GB');
    expect(ruleText(t, { ...offline, minutes: 1440 })).toBe('Offline for 1 d or more');
  });

  it('writes the same edges in Chinese', async () => {
    await setLanguage('zh');
    const t = i18n.t.bind(i18n);
    expect(durationText(t, 45)).toBe('45 分钟');
    expect(durationText(t, 120)).toBe('2 小时');
    expect(durationText(t, 28 * 1440)).toBe('28 天');
    expect(valueText(t, { kind: 'no_images', value: 1439 })).toBe('23 小时 59 分钟');
  });
});

describe('webhook failure classes (issue 37: the zh console showed "timeout")', () => {
  it('names every class the server may send in both languages', async () => {
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(lang);
      const t = i18n.t.bind(i18n);
      const texts = WEBHOOK_FAILURES.map((kind) => webhookFailureText(t, kind));
      // Each class has its own words, none is the raw key or the English class in the Chinese console.
      expect(new Set(texts).size).toBe(WEBHOOK_FAILURES.length);
      for (const text of texts) expect(text).not.toMatch(/^alarms\./);
      if (lang === 'zh') for (const text of texts) expect(text).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(webhookFailureText(i18n.t.bind(i18n), null)).toBe('');
  });
});

describe('rule details and readings without data (issue 40)', () => {
  const base = { kind: 'humidity_high' as const, for_minutes: 0, clear_threshold: null, no_data: 'keep' as const };
  it('says nothing for the defaults and each choice otherwise, in both languages', async () => {
    await setLanguage('en');
    let t = i18n.t.bind(i18n);
    expect(ruleDetails(t, base)).toEqual([]);
    expect(ruleDetails(t, { ...base, for_minutes: 90, clear_threshold: 75, no_data: 'raise' })).toEqual([
      'after 1 h 30 min',
      'clears at 75 % or under',
      'no data: Raise the alarm',
    ]);
    expect(valueText(t, { kind: 'humidity_high', value: null })).toBe('no data');
    expect(valueText(t, { kind: 'wiper_fault', value: null })).toBe('—');
    await setLanguage('zh');
    t = i18n.t.bind(i18n);
    expect(ruleDetails(t, { ...base, kind: 'storage_low', for_minutes: 10, clear_threshold: 12, no_data: 'clear' })).toEqual([
      '持续 10 分钟后触发',
      '升至 12 GB 及以上时解除',
      '无数据：解除告警',
    ]);
    expect(valueText(t, { kind: 'humidity_high', value: null })).toBe('无数据');
  });
});

describe('series rules and routing in words (issue 40, items 3 and 6)', () => {
  const series = {
    kind: 'series' as const,
    threshold: 45,
    minutes: null,
    class_name: null,
    series: 'lp_temperature_c' as const,
    comparison: 'above' as const,
    threshold_low: null,
  };
  it('names the series, comparison and limits with the series’ unit, in English and Chinese', async () => {
    await setLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(ruleText(t, series)).toBe('Low-power board temperature above 45 °C');
    expect(ruleText(t, { ...series, comparison: 'outside', threshold_low: 5 })).toBe(
      'Low-power board temperature outside 5–45 °C',
    );
    expect(ruleText(t, { ...series, comparison: 'rate', threshold: 5, minutes: 10 })).toBe(
      'Low-power board temperature changes by more than 5 °C within 10 min',
    );
    expect(valueText(t, { kind: 'series', series: 'cb_voltage_v', value: 11.46 })).toBe('11.5 V');
    expect(valueText(t, { kind: 'series', series: 'wiper_clean_count', value: 1200 })).toBe('1200');
    const rule = { kind: 'series' as const, series: 'cb_voltage_v' as const, comparison: 'below' as const, for_minutes: 0 };
    expect(
      ruleDetails(t, {
        ...rule,
        clear_threshold: 11.8,
        no_data: 'keep',
        notify_webhook: false,
        notify_user_ids: [3, 4],
        escalate_minutes: 30,
      }),
    ).toEqual(['clears at 11.8 V or over', 'e-mail to 2 people', 'not to the webhook', 'escalates after 30 min']);
    await setLanguage('zh');
    const zh = i18n.t.bind(i18n);
    expect(ruleText(zh, series)).toBe('低功耗板温度高于 45 °C');
    expect(ruleDetails(zh, { ...rule, clear_threshold: null, no_data: 'keep', escalate_minutes: 30 })).toEqual([
      '30 分钟未确认则升级',
    ]);
  });
});
