import { PLANKTON_KINDS } from '../../src/simulator/render.ts';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { runSimulator, type SimulatorHandle } from '../../src/simulator/simulator.ts';
import type { SimOptions } from '../../src/simulator/args.ts';
import { startFakeDeviceServer, until } from './fake-device-server.ts';

const KEYS = { 'SIM-A': 'ippk_key_of_a', 'SIM-B': 'ippk_key_of_b' };

const baseOptions = (server: string, over: Partial<SimOptions> = {}): SimOptions => ({
  server,
  count: 1,
  rate: 15,
  telemetryIntervalS: 0.2,
  devices: Object.entries(KEYS).map(([devId, key]) => ({ devId, key })),
  account: 'unused',
  password: 'unused',
  ...over,
});

describe('simulator over HTTP (against a server that checks the protocol schemas)', () => {
  let fake: Awaited<ReturnType<typeof startFakeDeviceServer>>;
  let sim: SimulatorHandle | undefined;
  const lines: string[] = [];
  afterEach(async () => {
    await sim?.stop();
    await fake.close();
    lines.length = 0;
  });

  it('sends valid telemetry and ROI images with each device key, and applies a configuration change', async () => {
    fake = await startFakeDeviceServer(KEYS);
    fake.state.failNextRois = 1;
    sim = await runSimulator(baseOptions(fake.url), { log: (l) => lines.push(l), applyDelayMs: [5, 20] });
    const telemetryOf = (devId: string) => fake.state.telemetry.filter((t) => t.devId === devId).map((t) => t.sample);

    await until('telemetry and images from both devices', () =>
      Object.keys(KEYS).every(
        (d) => telemetryOf(d).length >= 3 && fake.state.rois.filter((r) => r.devId === d && r.stored).length >= 3,
      ),
    );
    fake.setConfig('SIM-A', { frame_rate: 6, exposure_us: 100 });
    await until('SIM-A reporting frame_rate 6', () => telemetryOf('SIM-A').some((s) => s.applied_config?.frame_rate === 6));
    await sim.stop();

    expect(fake.state.refused).toEqual([]);
    for (const devId of Object.keys(KEYS)) {
      const samples = telemetryOf(devId);
      for (let i = 1; i < samples.length; i++) {
        expect(samples[i]!.at).toBeGreaterThan(samples[i - 1]!.at);
        expect(samples[i]!.volume_total_l!).toBeGreaterThanOrEqual(samples[i - 1]!.volume_total_l!);
      }
      // Every sample says which configuration runs.
      expect(samples.every((s) => s.applied_config && Object.keys(s.applied_config).length === 14)).toBe(true);
    }
    const a = telemetryOf('SIM-A');
    expect(a.at(-1)!.applied_config).toMatchObject({ frame_rate: 6, exposure_us: 100 });
    expect(telemetryOf('SIM-B').every((s) => s.applied_config?.frame_rate === 3)).toBe(true);
    expect(lines.some((l) => /SIM-A applied config v2 \(.*exposure_us 100.*frame_rate 6/.test(l))).toBe(true);

    const labels = new Set(Object.values(PLANKTON_KINDS) as number[]);
    for (const roi of fake.state.rois) {
      const meta = await sharp(roi.png).metadata();
      expect(meta.format).toBe('png');
      expect(roi.fields.size_px).toBeGreaterThanOrEqual(2000);
      if (roi.fields.label_index === 0) expect(roi.fields.confidence).toBeUndefined();
      else {
        expect(labels.has(roi.fields.label_index)).toBe(true);
        expect(roi.fields.confidence).toBeGreaterThanOrEqual(0.5);
      }
    }
    // The upload answered 500 was sent again, same bytes, and then stored.
    const failed = fake.state.rois[0]!;
    expect(failed.stored).toBe(false);
    expect(fake.state.rois.some((r) => r.sha256 === failed.sha256 && r.stored)).toBe(true);
    // Counted on acknowledgement: an upload cut off by stop() may be stored without the device hearing back.
    const stored = fake.state.rois.filter((r) => r.stored).length;
    expect(sim.totals().images).toBeLessThanOrEqual(stored);
    expect(sim.totals().images).toBeGreaterThanOrEqual(stored - 2);
  });

  it('scales the image rate with the applied frame rate and drops particles below the size filter', async () => {
    fake = await startFakeDeviceServer(KEYS);
    fake.setConfig('SIM-A', { frame_rate: 0.1 });
    fake.setConfig('SIM-B', { frame_rate: 29, size_filter_px: 6000 });
    sim = await runSimulator(baseOptions(fake.url, { rate: 3 }), { log: (l) => lines.push(l), applyDelayMs: [1, 2] });
    await until('both configurations applied', () => sim!.devices.every((d) => d.applied.version === 2));
    const before = { a: sim.devices[0]!.stats.images, b: sim.devices[1]!.stats.images };
    await until('30 more images from SIM-B', () => sim!.devices[1]!.stats.images >= before.b + 30);
    await sim.stop();
    // At 29 fps SIM-B sends ~290 times as often as SIM-A at 0.1 fps.
    expect(sim.devices[0]!.stats.images - before.a).toBeLessThan(5);
    expect(sim.devices[1]!.stats.filtered).toBeGreaterThan(0);
    expect(fake.state.rois.filter((r) => r.devId === 'SIM-B' && r.stored).every((r) => r.fields.size_px >= 6000)).toBe(true);
  });

  it('keeps running and says so when the server refuses its key', async () => {
    fake = await startFakeDeviceServer({ 'SIM-A': 'another-key' });
    sim = await runSimulator(baseOptions(fake.url, { devices: [{ devId: 'SIM-A', key: 'rotated-key' }] }), {
      log: (l) => lines.push(l),
    });
    await until('a refused telemetry', () => sim!.totals().telemetryFailures > 0);
    await sim.stop();
    expect(fake.state.telemetry).toEqual([]);
    expect(lines.some((l) => l.includes('SIM-A telemetry not delivered') && l.includes('device key was refused'))).toBe(true);
  });

  it('stops by itself after --duration', async () => {
    fake = await startFakeDeviceServer(KEYS);
    sim = await runSimulator(baseOptions(fake.url, { durationS: 0.5, rate: 0 }), { log: (l) => lines.push(l) });
    await sim.done;
    expect(lines.at(-1)).toMatch(/stopped; in total: 2 devices/);
    const count = fake.state.telemetry.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fake.state.telemetry.length).toBe(count);
  });
});
