import { DEFAULT_IPP_CONFIG, TelemetrySampleSchema } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { advance, createDeviceState, sampleTelemetry, type DeviceState } from '../../src/simulator/telemetry-model.ts';

const START = Date.UTC(2026, 10, 1, 0, 0, 0);
const DAY = 86_400_000;
const config = DEFAULT_IPP_CONFIG;

/** `count` samples evenly over `days`, advancing the state between them as a device does. */
function run(index: number, days: number, count: number, cfg = config) {
  let state: DeviceState = createDeviceState(index, START);
  const samples = [];
  for (let i = 1; i <= count; i++) {
    const at = START + Math.round((i * days * DAY) / count);
    state = advance(state, at, cfg);
    samples.push(sampleTelemetry({ index, state }, at, cfg));
  }
  return { samples, state };
}

describe('telemetry model', () => {
  it('produces 1000 samples over 3 days that all pass the protocol schema, with every reading present', () => {
    const { samples } = run(1, 3, 1000);
    for (const sample of samples) {
      const parsed = TelemetrySampleSchema.safeParse(sample);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      for (const [key, value] of Object.entries(sample)) if (key !== 'wiper_last_clean_at') expect(value, key).not.toBeNull();
    }
  });

  it('keeps volume_total_l a counter and sampled water around 250–600 mL per 5 minutes at 3 fps', () => {
    const { samples } = run(2, 3, 1000);
    for (let i = 1; i < samples.length; i++)
      expect(samples[i]!.volume_total_l).toBeGreaterThanOrEqual(samples[i - 1]!.volume_total_l);
    const volumes = samples.map((s) => s.volume_5min_ml);
    expect(Math.min(...volumes)).toBeGreaterThanOrEqual(250);
    expect(Math.max(...volumes)).toBeLessThanOrEqual(600);
    // About 425 mL per 5 minutes on average: 3 days hold roughly 367 L.
    const total = samples.at(-1)!.volume_total_l;
    expect(total).toBeGreaterThan(250);
    expect(total).toBeLessThan(520);
  });

  it('shows a daily temperature cycle within 14–22 °C, different for each device', () => {
    for (const index of [1, 2, 3]) {
      const { samples } = run(index, 3, 1000);
      for (let day = 0; day < 3; day++) {
        const temps = samples
          .filter((s) => s.at > START + day * DAY && s.at <= START + (day + 1) * DAY)
          .map((s) => s.temperature_c);
        expect(Math.max(...temps) - Math.min(...temps), `device ${index} day ${day}`).toBeGreaterThan(2);
        expect(Math.min(...temps)).toBeGreaterThanOrEqual(13.5);
        expect(Math.max(...temps)).toBeLessThanOrEqual(22.5);
      }
    }
    const mean = (index: number) => run(index, 1, 200).samples.reduce((a, s) => a + s.temperature_c, 0) / 200;
    expect(mean(1)).not.toBeCloseTo(mean(4), 2);
  });

  it('cleans the wiper every wiper_interval_min and reports the UV-C settings it runs', () => {
    const cfg = { ...config, wiper_interval_min: 60, uvc_port_duty_pct: 35, uvc_illuminator_frequency_hz: 2500 };
    const { samples } = run(3, 2, 500, cfg);
    const last = samples.at(-1)!;
    // Two days at one clean per hour: 47 or 48 cleans depending on the device's phase.
    expect(last.wiper_clean_count).toBeGreaterThanOrEqual(47);
    expect(last.wiper_clean_count).toBeLessThanOrEqual(48);
    expect(last.at - last.wiper_last_clean_at!).toBeLessThan(3_600_000);
    expect(last.wiper_last_clean_at! % 1).toBe(0);
    for (let i = 1; i < samples.length; i++)
      expect(samples[i]!.wiper_clean_count).toBeGreaterThanOrEqual(samples[i - 1]!.wiper_clean_count);
    expect(samples.every((s) => s.uvc_port_duty_pct === 35 && s.uvc_illuminator_frequency_hz === 2500)).toBe(true);
    expect(samples.every((s) => s.uvc_port_frequency_hz === config.uvc_port_frequency_hz)).toBe(true);
  });

  it('drains storage slowly and samples more water at a higher frame rate', () => {
    const slow = run(5, 1, 100).samples;
    const fast = run(5, 1, 100, { ...config, frame_rate: 6 }).samples;
    expect(slow.at(-1)!.storage_gb).toBeLessThan(slow[0]!.storage_gb);
    expect(slow[0]!.storage_gb - slow.at(-1)!.storage_gb).toBeLessThan(2);
    expect(fast.at(-1)!.volume_total_l).toBeCloseTo(slow.at(-1)!.volume_total_l * 2, 1);
  });

  it('is deterministic: the same state and time give the same sample, whatever the sampling step', () => {
    const fine = run(7, 1, 1000);
    const coarse = run(7, 1, 10);
    expect(coarse.samples.at(-1)).toEqual(fine.samples.at(-1));
    const state = createDeviceState(7, START);
    expect(sampleTelemetry({ index: 7, state }, START + 1234, config)).toEqual(
      sampleTelemetry({ index: 7, state }, START + 1234, config),
    );
    // The state given is not changed by sampling.
    expect(state.at).toBe(START);
  });

  it('continues the counters of an instrument that reported before', () => {
    const state = createDeviceState(1, START, { resume: { volumeTotalL: 1234.5, wiperCleanCount: 99, storageFreeGb: 50 } });
    const sample = sampleTelemetry({ index: 1, state }, START + 60_000, config);
    expect(sample.volume_total_l).toBeGreaterThan(1234.5);
    expect(sample.wiper_clean_count).toBeGreaterThanOrEqual(99);
    expect(sample.storage_gb).toBeLessThanOrEqual(50);
  });
});
