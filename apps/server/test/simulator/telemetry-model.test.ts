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

  it('reports as sampled in the last 5 minutes exactly what the total grew by over them (mL beside L)', () => {
    for (const frameRate of [3, 6]) {
      const cfg = { ...config, frame_rate: frameRate };
      // One sample every 5 minutes for a day: the total is the sum of the 5-minute volumes (rounding aside).
      let state = createDeviceState(2, START);
      let sumMl = 0;
      let previous = 0;
      for (let i = 1; i <= 288; i++) {
        const at = START + i * 300_000;
        state = advance(state, at, cfg);
        const sample = sampleTelemetry({ index: 2, state }, at, cfg);
        sumMl += sample.volume_5min_ml;
        expect(sample.volume_total_l).toBeGreaterThanOrEqual(previous);
        expect(Math.abs(sample.volume_total_l - sumMl / 1000), `sample ${i} at ${frameRate} fps`).toBeLessThanOrEqual(
          (i * 0.05 + 0.5) / 1000 + 1e-9,
        );
        previous = sample.volume_total_l;
      }
      expect(sumMl / 1000).toBeGreaterThan((100 * frameRate) / 3);
    }
    // Sampled every minute (the live demo): the 5-minute volume is the growth of the total over the last 5 samples,
    // and an instrument deployed 15 s ago has not sampled 5 minutes' worth.
    let state = createDeviceState(4, START);
    const totals: number[] = [];
    for (let i = 0; i <= 60; i++) {
      const at = START + 15_000 + i * 60_000;
      state = advance(state, at, config);
      const sample = sampleTelemetry({ index: 4, state }, at, config);
      totals.push(sample.volume_total_l);
      const fiveMinutesAgo = i >= 5 ? totals[i - 5]! : 0;
      expect(Math.abs(sample.volume_5min_ml / 1000 - (sample.volume_total_l - fiveMinutesAgo)), `minute ${i}`).toBeLessThan(
        0.0011,
      );
    }
    expect(totals[0]).toBeLessThan(0.03);
  });

  it('keeps the wiper readings consistent: a fault is a clean that did not happen, cleaning follows the last clean', () => {
    const cfg = { ...config, wiper_interval_min: 30, wiper_strokes: 3 };
    let faults = 0;
    for (const index of [1, 2, 3, 4]) {
      let state = createDeviceState(index, START);
      let previous: ReturnType<typeof sampleTelemetry> | null = null;
      for (let at = START + 60_000; at <= START + 10 * DAY; at += 60_000) {
        state = advance(state, at, cfg);
        const s = sampleTelemetry({ index, state }, at, cfg);
        if (s.wiper_state === 'fault') {
          faults++;
          // The clean that started this interval failed: the last clean is at least an interval back.
          expect(at - (s.wiper_last_clean_at ?? -Infinity)).toBeGreaterThanOrEqual(30 * 60_000);
        }
        if (s.wiper_state === 'cleaning') expect(at - s.wiper_last_clean_at!).toBeLessThan(3 * 6_000);
        if (previous) {
          const cleans = s.wiper_clean_count - previous.wiper_clean_count;
          expect(cleans === 0 || cleans === 1).toBe(true);
          // The last clean time moves exactly when the count does.
          expect(s.wiper_last_clean_at !== previous.wiper_last_clean_at).toBe(cleans === 1);
        }
        previous = s;
      }
    }
    expect(faults).toBeGreaterThan(0);
  });

  it('keeps the last clean time of an instrument that restarts, and continues a reading minutes old without a gap', () => {
    const lastClean = START - 7 * 60_000;
    const resume = { at: START, volumeTotalL: 10, wiperCleanCount: 5, wiperLastCleanAt: lastClean, storageFreeGb: 100 };
    // Restarted hours later: the instrument was off; it keeps its counters and last clean until it cleans again.
    const later = createDeviceState(1, START + 3 * 3_600_000, { resume });
    const afterRestart = sampleTelemetry({ index: 1, state: later }, START + 3 * 3_600_000 + 1000, config);
    expect(afterRestart.wiper_last_clean_at).toBe(lastClean);
    expect(afterRestart.wiper_clean_count).toBe(5);
    expect(afterRestart.volume_total_l).toBeGreaterThanOrEqual(10);
    // Resumed a minute after its reading: it never stopped, so the minute's water is counted and the 5-minute
    // volume is a full one.
    const soon = createDeviceState(1, START + 60_000, { resume });
    const next = sampleTelemetry({ index: 1, state: soon }, START + 60_000, config);
    expect(next.volume_total_l - 10).toBeGreaterThan(0.04);
    expect(next.volume_5min_ml).toBeGreaterThan(200);
    expect(next.wiper_last_clean_at).toBeGreaterThanOrEqual(lastClean);
  });

  it('continues the counters of an instrument that reported before', () => {
    const state = createDeviceState(1, START, { resume: { volumeTotalL: 1234.5, wiperCleanCount: 99, storageFreeGb: 50 } });
    const sample = sampleTelemetry({ index: 1, state }, START + 60_000, config);
    expect(sample.volume_total_l).toBeGreaterThan(1234.5);
    expect(sample.wiper_clean_count).toBeGreaterThanOrEqual(99);
    expect(sample.storage_gb).toBeLessThanOrEqual(50);
  });
});
