import crypto from 'node:crypto';
import {
  DEFAULT_IPP_CONFIG,
  IPP_CONFIG_KEYS,
  MEASURED_KEYS,
  type IppConfig,
  type RoiAck,
  type RoiDetails,
  type RoiSummary,
} from '@ipp/contracts';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimOptions } from '../../src/simulator/args.ts';
import { PLANKTON_KINDS } from '../../src/simulator/render.ts';
import { runSimulator, type SimulatorHandle } from '../../src/simulator/simulator.ts';
import { startConsoleServer, until, type ConsoleServer, type Station } from './console-server.ts';

const options = (server: ConsoleServer, stations: Station[], over: Partial<SimOptions> = {}): SimOptions => ({
  server: server.url,
  count: 1,
  rate: 15,
  telemetryIntervalS: 0.2,
  devices: stations.map(({ devId, key }) => ({ devId, key })),
  account: 'unused',
  password: 'unused',
  ...over,
});

const appliedOf = (row: { applied_config: string | null }) =>
  row.applied_config === null ? null : (JSON.parse(row.applied_config) as Partial<IppConfig>);

describe('simulator over HTTP against the real server', () => {
  let running: ConsoleServer | undefined;
  let sim: SimulatorHandle | undefined;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  afterEach(async () => {
    await sim?.stop();
    await running?.close();
    sim = undefined;
    running = undefined;
    lines.length = 0;
  });

  it('sends valid telemetry and ROI images with each device key, resends an unanswered image, and applies a configuration change', async () => {
    /** The first image's answer is lost after the server stored it: the device hears 500 and must send it again. */
    const lost: RoiAck[] = [];
    const server = (running = await startConsoleServer({
      beforeReady(app) {
        app.addHook('onSend', async (request, reply, payload) => {
          if (request.url !== '/api/device/rois' || reply.statusCode !== 200 || lost.length > 0) return payload;
          lost.push((JSON.parse(String(payload)) as { data: RoiAck }).data);
          reply.code(500);
          return JSON.stringify({ code: 1500, msg: 'answer lost (test)' });
        });
      },
    }));
    const a = await server.register('SIM-A');
    const b = await server.register('SIM-B');
    sim = await runSimulator(options(server, [a, b]), { log, applyDelayMs: [5, 20] });

    await until('telemetry and images from both devices, and the unanswered image resent', async () => {
      for (const station of [a, b]) {
        if ((await server.telemetryOf(station.id)).length < 3 || (await server.roisOf(station.id)).length < 3) return false;
      }
      return sim!.totals().duplicates > 0;
    });
    // The console shows both stations online, running the configuration it holds.
    for (const station of [a, b]) {
      expect(await server.one(station.id)).toMatchObject({
        online: true,
        config_version: 1,
        applied_config: DEFAULT_IPP_CONFIG,
        pending: [],
      });
    }

    const saved = await server.changeConfig(a.id, { frame_rate: 6, exposure_us: 100 });
    expect(saved).toMatchObject({ config_version: 2, pending: ['exposure_us', 'frame_rate'] });
    await until('the console showing SIM-A running the change', async () => (await server.one(a.id)).pending.length === 0);
    await sim.stop();

    expect(await server.one(a.id)).toMatchObject({
      online: true,
      config_version: 2,
      applied_config: { ...DEFAULT_IPP_CONFIG, frame_rate: 6, exposure_us: 100 },
      pending: [],
    });
    expect(await server.one(b.id)).toMatchObject({ config_version: 1, applied_config: DEFAULT_IPP_CONFIG, pending: [] });
    expect(lines.some((l) => /SIM-A applied config v2 \(.*exposure_us 100.*frame_rate 6/.test(l))).toBe(true);

    // Telemetry: every sample passed the server's validation and was stored once, with every reading.
    const totals = sim.totals();
    expect(totals.telemetryFailures).toBe(0);
    const telemetry = { a: await server.telemetryOf(a.id), b: await server.telemetryOf(b.id) };
    // Counted on acknowledgement: a sample cut off by stop() may be stored without the device hearing back.
    const storedSamples = telemetry.a.length + telemetry.b.length;
    expect(storedSamples).toBeGreaterThanOrEqual(totals.telemetry);
    expect(storedSamples).toBeLessThanOrEqual(totals.telemetry + 2);
    for (const rows of [telemetry.a, telemetry.b]) {
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i]!.at).toBeGreaterThan(rows[i - 1]!.at);
        expect(rows[i]!.volume_total_l!).toBeGreaterThanOrEqual(rows[i - 1]!.volume_total_l!);
      }
      for (const row of rows) {
        for (const key of MEASURED_KEYS) if (key !== 'wiper_last_clean_at') expect(row[key], key).not.toBeNull();
        // Every sample says which configuration runs, all of it.
        expect(Object.keys(appliedOf(row) ?? {}).sort()).toEqual([...IPP_CONFIG_KEYS].sort());
      }
    }
    expect(appliedOf(telemetry.a.at(-1)!)).toMatchObject({ frame_rate: 6, exposure_us: 100 });
    expect(telemetry.b.every((row) => appliedOf(row)?.frame_rate === 3)).toBe(true);

    // Images: stored as sent, each file served by the console is the PNG whose hash the row names.
    expect(totals.imageFailures).toBe(0);
    const rois = [...(await server.roisOf(a.id)), ...(await server.roisOf(b.id))];
    const labels = new Set(Object.values(PLANKTON_KINDS) as number[]);
    for (const roi of rois) {
      expect(roi.mime).toBe('image/png');
      const file = await server.env.app.inject({ method: 'GET', url: `/api/roi/file/${roi.sha256}.png` });
      expect(file.statusCode).toBe(200);
      expect(crypto.createHash('sha256').update(file.rawPayload).digest('hex')).toBe(roi.sha256);
      expect((await sharp(file.rawPayload).metadata()).format).toBe('png');
      expect(roi.size_px).toBeGreaterThanOrEqual(2000);
      if (roi.roi_labelindex === 0) {
        expect(roi.confidence).toBeNull();
        expect(roi.class_id).toBeNull();
      } else {
        expect(labels.has(roi.roi_labelindex)).toBe(true);
        expect(roi.confidence).toBeGreaterThanOrEqual(0.5);
        expect(roi.class_id).not.toBeNull();
      }
    }
    // The image whose answer was lost was sent again, and the retry was recognised: stored once, under its first id.
    expect(lost).toHaveLength(1);
    expect(rois.filter((r) => r.sha256 === lost[0]!.sha256).map((r) => r.id)).toEqual([lost[0]!.roi_id]);
    expect(lines.some((l) => /image upload retry 1 in [\d.]+ s: answer lost \(test\) \(code 1500\)/.test(l))).toBe(true);
    expect(new Set(rois.map((r) => r.sha256)).size).toBe(rois.length);
    // Counted on acknowledgement: an upload cut off by stop() may be stored without the device hearing back.
    expect(totals.images + totals.duplicates).toBeLessThanOrEqual(rois.length);
    expect(totals.images + totals.duplicates).toBeGreaterThanOrEqual(rois.length - 2);

    // The console's gallery shows them, with the telemetry the station sent just before the capture.
    const latest = await server.api<RoiSummary[]>('GET', `/api/views/rois?ipp_id=${a.id}&limit=3`);
    expect(latest.map((r) => r.dev_id)).toEqual(['SIM-A', 'SIM-A', 'SIM-A']);
    const details = await server.api<RoiDetails>('GET', `/api/roi/get-roi-details?roi_id=${latest[0]!.id}`);
    const sampleBefore = telemetry.a.filter((t) => t.at <= details.roi.roi_time).at(-1);
    expect(sampleBefore).toBeDefined();
    expect(details.telemetry?.at).toBe(sampleBefore!.at);
  });

  it('scales the image rate with the applied frame rate and drops particles below the size filter', async () => {
    const server = (running = await startConsoleServer());
    const a = await server.register('SIM-A');
    const b = await server.register('SIM-B');
    await server.changeConfig(a.id, { frame_rate: 0.1 });
    await server.changeConfig(b.id, { frame_rate: 29, size_filter_px: 6000 });
    sim = await runSimulator(options(server, [a, b], { rate: 3 }), { log, applyDelayMs: [1, 2] });
    await until('both configurations applied', () => sim!.devices.every((d) => d.applied.version === 2));
    const before = { a: sim.devices[0]!.stats.images, b: sim.devices[1]!.stats.images };
    await until('30 more images from SIM-B', () => sim!.devices[1]!.stats.images >= before.b + 30);
    await until('the console showing both configurations applied', async () => {
      const shown = [await server.one(a.id), await server.one(b.id)];
      return shown.every((ipp) => ipp.applied_config !== null && ipp.pending.length === 0);
    });
    await sim.stop();

    // At 29 fps SIM-B sends ~290 times as often as SIM-A at 0.1 fps.
    expect(sim.devices[0]!.stats.images - before.a).toBeLessThan(5);
    expect(sim.devices[1]!.stats.filtered).toBeGreaterThan(0);
    expect(await server.one(a.id)).toMatchObject({ applied_config: { frame_rate: 0.1 } });
    expect(await server.one(b.id)).toMatchObject({ applied_config: { frame_rate: 29, size_filter_px: 6000 } });
    // Captured after SIM-B reported running the filter (before, it ran the default one), no image is below it.
    const reported = (await server.telemetryOf(b.id)).find((t) => appliedOf(t)?.size_filter_px === 6000);
    const filtered = (await server.roisOf(b.id)).filter((r) => r.roi_time >= reported!.at);
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((r) => r.size_px >= 6000)).toBe(true);
  });

  it('keeps running and says so when the server refuses its key', async () => {
    const server = (running = await startConsoleServer());
    const a = await server.register('SIM-A');
    await server.rotateKey(a.id);
    sim = await runSimulator(options(server, [a]), { log });
    await until('a refused telemetry', () => sim!.totals().telemetryFailures > 0);
    await sim.stop();

    expect(await server.telemetryOf(a.id)).toEqual([]);
    expect(await server.roisOf(a.id)).toEqual([]);
    expect(sim.totals()).toMatchObject({ telemetry: 0, images: 0 });
    expect(await server.one(a.id)).toMatchObject({ online: false, measured: null, applied_config: null });
    expect(lines.some((l) => l.includes('SIM-A telemetry not delivered') && l.includes('device key was refused'))).toBe(true);
  });

  it('obeys a saturated server (429/503 with Retry-After) and keeps images while offline: every image captured is stored once', async () => {
    // A server that takes one image at a time, each slowed to 40 ms, against four devices sending two at once.
    let throttledAnswers = 0;
    const server = (running = await startConsoleServer({
      config: { INGEST_IN_FLIGHT: 1, INGEST_PER_DEVICE: 1 },
      beforeReady(app) {
        app.addHook('preHandler', async (request) => {
          if (request.url === '/api/device/rois') await new Promise((resolve) => setTimeout(resolve, 40));
        });
        app.addHook('onSend', async (request, reply, payload) => {
          if (request.url === '/api/device/rois' && (reply.statusCode === 429 || reply.statusCode === 503)) {
            expect(Number(reply.getHeader('retry-after'))).toBeGreaterThanOrEqual(1);
            throttledAnswers++;
          }
          return payload;
        });
      },
    }));
    const stations = [];
    for (const id of ['SIM-A', 'SIM-B', 'SIM-C', 'SIM-D']) stations.push(await server.register(id));
    sim = await runSimulator(options(server, stations, { rate: 3 }), { log, parallel: 2 });
    const [first] = sim.devices;
    await until('the server telling devices to retry later', () => sim!.totals().throttled >= 4);
    // SIM-A's link goes down: it keeps capturing, sends nothing, and sends its backlog once back.
    first!.setOffline(true);
    const before = { captured: first!.stats.captured, delivered: first!.stats.images + first!.stats.duplicates };
    await until('SIM-A capturing five images while offline', () => first!.stats.captured >= before.captured + 5);
    // Nothing was acknowledged while offline but what was already on its way.
    expect(first!.stats.images + first!.stats.duplicates).toBeLessThanOrEqual(before.delivered + 2);
    expect(first!.stats.backlog).toBeGreaterThanOrEqual(5);
    first!.setOffline(false);
    await sim.drain();
    await sim.stop();

    const totals = sim.totals();
    expect(totals.throttled).toBe(throttledAnswers);
    expect(totals.imageFailures).toBe(0);
    expect(totals.backlog).toBe(0);
    expect(totals.images + totals.duplicates).toBe(totals.captured);
    // Every image captured is stored once, per device, including those SIM-A captured while offline.
    for (const [i, station] of stations.entries()) {
      const rows = await server.roisOf(station.id);
      expect(rows.length).toBe(sim.devices[i]!.stats.captured);
      expect(new Set(rows.map((r) => r.sha256)).size).toBe(rows.length);
    }
    expect(lines.some((l) => /SIM-A link back: \d+ images to send/.test(l))).toBe(true);
    expect(lines.some((l) => /image upload retry 1 in [\d.]+ s: .*\(code 1003\)/.test(l))).toBe(true);
  });

  it('stops by itself after --duration', async () => {
    const server = (running = await startConsoleServer());
    const stations = [await server.register('SIM-A'), await server.register('SIM-B')];
    sim = await runSimulator(options(server, stations, { durationS: 0.5, rate: 0 }), { log });
    await sim.done;
    const stoppedAt = Date.now();
    expect(lines.at(-1)).toMatch(/stopped; in total: 2 devices/);
    // A running device would send a sample every 0.2 s; give it five chances to show it still runs.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const station of stations) {
      const rows = await server.telemetryOf(station.id);
      expect(rows.length).toBeGreaterThan(0);
      // Samples are stamped when sent: none was sent after the simulator said it stopped.
      expect(rows.every((t) => t.at <= stoppedAt)).toBe(true);
    }
  });
});
