import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_IPP_CONFIG, ROI_MAX_BYTES } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, get, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';

const MIN = 60_000;

describe.each(dialects)('device protocol on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let ipp: { id: number; key: string };
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    ipp = await registerIpp(env, w.tokens.ownAdmin, w.teamA, '21005');
  });
  afterEach(() => env.close());

  const one = async (id = ipp.id, token = w.tokens.ownAdmin) =>
    body(await call(env, token, 'POST', '/api/site/ipp-one', { id })).data as Record<string, unknown> & {
      online: boolean;
      pending: string[];
      measured: Record<string, unknown> | null;
      online_hours: number;
      config_version: number;
      total_images: number;
      today_images: number;
    };
  const count = async (table: 'telemetry' | 'rois') =>
    Number(
      (
        await env.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('authentication', () => {
    it('takes the device key only: no key, a wrong key, a user token or a rotated key answer 1010', async () => {
      const sample = { at: env.clock.now, temperature_c: 18 };
      for (const res of [
        await telemetry(env, undefined, sample),
        await telemetry(env, 'ippk_wrong', sample),
        await env.app.inject({
          method: 'POST',
          url: '/api/device/telemetry',
          headers: { 'x-token': w.tokens.ownAdmin ?? '', 'x-lang': 'en' },
          payload: sample,
        }),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(body(res)).toMatchObject({ code: 1010, msg: 'The device key is missing or not valid' });
      }
      expect((await telemetry(env, ipp.key, sample)).statusCode).toBe(200);
      await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/rotate-key', { id: ipp.id });
      expect(body(await telemetry(env, ipp.key, { ...sample, at: sample.at + 1 })).code).toBe(1010);
    });

    it('does not accept a device key on console routes', async () => {
      const res = await env.app.inject({ method: 'GET', url: '/api/ipp/index', headers: { 'x-device-key': ipp.key } });
      expect(body(res).code).toBe(1010);
    });
  });

  describe('telemetry', () => {
    it('stores a sample, shows it as the measured values and counts a retry once', async () => {
      const sample = {
        at: env.clock.now,
        temperature_c: 17.5,
        humidity_pct: 41,
        wiper_state: 'idle',
        ram_mb: 2048,
        cb_voltage_v: 12.1,
      };
      expect(body(await telemetry(env, ipp.key, sample)).data).toEqual({ stored: true, config_version: 1 });
      expect(body(await telemetry(env, ipp.key, sample)).data).toEqual({ stored: false, config_version: 1 });
      expect(await count('telemetry')).toBe(1);
      const shown = await one();
      expect(shown.online).toBe(true);
      expect(shown.wiper_status).toBe('idle');
      expect(shown.measured).toMatchObject({
        at: env.clock.now,
        temperature_c: 17.5,
        humidity_pct: 41,
        ram_mb: 2048,
        cb_voltage_v: 12.1,
        gpu_temp_c: null,
      });
    });

    it('refuses an invalid sample whole, naming the field in the caller language, and stores nothing', async () => {
      const cases: [object, string][] = [
        [{ at: env.clock.now, temperature_c: 500 }, 'temperature_c'],
        [{ at: env.clock.now, humidity_pct: 'wet' }, 'humidity_pct'],
        [{ at: env.clock.now, temprature_c: 12 }, 'temprature_c'],
        [{ temperature_c: 12 }, 'at'],
        [{ at: env.clock.now + 60 * MIN, temperature_c: 12 }, 'at'],
        [{ at: env.clock.now, wiper_state: 'dancing' }, 'wiper_state'],
        [{ at: env.clock.now, applied_config: { frame_rate: 40 } }, 'applied_config.frame_rate'],
      ];
      for (const [sample, field] of cases) {
        const res = await telemetry(env, ipp.key, sample);
        expect(res.statusCode, JSON.stringify(sample)).toBe(400);
        expect(body(res).code).toBe(1002);
        expect(body(res).model?.field).toBe(field);
      }
      const zh = body(await telemetry(env, ipp.key, { at: env.clock.now, temperature_c: 500 }, 'zh'));
      expect(zh.msg).toContain('不能大于');
      expect(await count('telemetry')).toBe(0);
      expect((await one()).measured).toBeNull();
    });

    it('is online while samples arrive within the offline threshold and sums online hours from the gaps', async () => {
      const start = env.clock.now;
      // Console sessions expire when idle; sign in again after each jump of the clock.
      const fresh = async () => one(ipp.id, await login(env, 'admin_a'));
      // An hour of samples every 5 minutes, then a 2-hour silence, then 10 more minutes.
      for (let t = 0; t <= 60; t += 5) {
        env.clock.now = start + t * MIN;
        await telemetry(env, ipp.key, { at: env.clock.now, temperature_c: 15 });
      }
      expect((await fresh()).online).toBe(true);
      env.clock.now = start + 60 * MIN + 11 * MIN;
      expect((await fresh()).online).toBe(false);
      for (const t of [180, 190]) {
        env.clock.now = start + t * MIN;
        await telemetry(env, ipp.key, { at: env.clock.now, temperature_c: 15 });
      }
      const shown = await fresh();
      expect(shown.online).toBe(true);
      expect(shown.online_hours).toBeCloseTo(70 / 60, 2);
      // The threshold is a system setting.
      const saved = body(await call(env, await login(env, 'su'), 'POST', '/api/setting/save', { offline_minutes: 1 }));
      expect(saved.code).toBe(1000);
      env.clock.now += 2 * MIN;
      expect((await fresh()).online).toBe(false);
    });

    it('shows each setting pending until the device reports applying it, and versions the configuration', async () => {
      await telemetry(env, ipp.key, { at: env.clock.now, applied_config: DEFAULT_IPP_CONFIG });
      expect((await one()).pending).toEqual([]);
      const desired = { ...DEFAULT_IPP_CONFIG, frame_rate: 5, exposure_us: 100 };
      const saved = body(
        await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/save', {
          id: ipp.id,
          dev_id: '21005',
          site_name: 'Site',
          country: 'CN',
          longitude: null,
          latitude: null,
          group_id: w.teamA,
          serial_number: '',
          config: desired,
        }),
      );
      expect(saved.data).toMatchObject({ ipp: { config_version: 2, pending: ['exposure_us', 'frame_rate'] } });
      const fetched = await env.app.inject({ method: 'GET', url: '/api/device/config', headers: { 'x-device-key': ipp.key } });
      expect(body(fetched).data).toMatchObject({ dev_id: '21005', version: 2, config: desired });
      env.clock.advance(MIN);
      const ack = body(
        await telemetry(env, ipp.key, { at: env.clock.now, applied_config: { ...DEFAULT_IPP_CONFIG, frame_rate: 5 } }),
      );
      expect(ack.data).toEqual({ stored: true, config_version: 2 });
      expect((await one()).pending).toEqual(['exposure_us']);
      env.clock.advance(MIN);
      await telemetry(env, ipp.key, { at: env.clock.now, applied_config: desired });
      expect((await one()).pending).toEqual([]);
      // An older report arriving late does not undo the newer one.
      await telemetry(env, ipp.key, { at: env.clock.now - 30_000, applied_config: DEFAULT_IPP_CONFIG });
      expect((await one()).pending).toEqual([]);
    });
  });

  describe('ROI upload', () => {
    const fields = (over: object = {}) => ({
      captured_at: Date.UTC(2026, 10, 22, 7, 30),
      label_index: 1,
      confidence: 0.93,
      size_px: 2400,
      ...over,
    });

    it('stores a sniffed image durably with a thumbnail, maps the label to its class and counts a retry once', async () => {
      const png = await pngOf(1);
      const first = await uploadRoi(env, ipp.key, fields(), png);
      expect(first.statusCode).toBe(200);
      const ack = body(first).data as { roi_id: number; stored: boolean; sha256: string };
      expect(ack.stored).toBe(true);
      // Acknowledged means the files are on disk.
      const blobDir = path.join(env.config.DATA_DIR, 'blobs', ack.sha256.slice(0, 2), ack.sha256.slice(2, 4));
      expect(fs.readFileSync(path.join(blobDir, `${ack.sha256}.png`)).equals(png)).toBe(true);
      expect(fs.existsSync(path.join(blobDir, `${ack.sha256}.thumb.webp`))).toBe(true);
      const retry = body(await uploadRoi(env, ipp.key, fields(), png)).data;
      expect(retry).toEqual({ roi_id: ack.roi_id, stored: false, sha256: ack.sha256 });
      expect(await count('rois')).toBe(1);
      const details = body(await get(env, `/api/roi/get-roi-details?roi_id=${ack.roi_id}`, w.tokens.user)).data as {
        roi: Record<string, unknown>;
      };
      expect(details.roi).toMatchObject({
        id: ack.roi_id,
        dev_id: '21005',
        class_name: '001Copepod',
        type: 'ai',
        roi_labelindex: 1,
        confidence: 0.93,
        size_px: 2400,
        width: 24,
        height: 24,
        bytes: png.length,
        url: `roi/file/${ack.sha256}.png`,
        thumb_url: `roi/file/${ack.sha256}.thumb.webp`,
      });
      expect((await one()).total_images).toBe(1);
    });

    it('serves images by content address with an ETag and immutable caching', async () => {
      const png = await pngOf(2);
      const { sha256 } = body(await uploadRoi(env, ipp.key, fields(), png)).data as { sha256: string };
      const res = await get(env, `/api/roi/file/${sha256}.png`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.rawPayload.equals(png)).toBe(true);
      const again = await env.app.inject({
        method: 'GET',
        url: `/api/roi/file/${sha256}.png`,
        headers: { 'if-none-match': String(res.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      const thumb = await get(env, `/api/roi/file/${sha256}.thumb.webp`);
      expect(thumb.headers['content-type']).toBe('image/webp');
      expect((await get(env, `/api/roi/file/${'0'.repeat(64)}.png`)).statusCode).toBe(404);
      expect(body(await get(env, '/api/roi/file/..%2F..%2Fetc%2Fpasswd')).code).toBe(1002);
    });

    it('refuses non-images (415), oversized files (413) and bad metadata, storing nothing', async () => {
      const text = Buffer.from('GIF89a-not really; named roi.png');
      const notImage = await uploadRoi(env, ipp.key, fields(), text);
      expect(notImage.statusCode).toBe(415);
      expect(body(notImage)).toMatchObject({ code: 1002, model: { field: 'file' } });
      // PNG magic bytes but not decodable.
      const broken = Buffer.concat([(await pngOf(3)).subarray(0, 40), Buffer.alloc(200)]);
      expect((await uploadRoi(env, ipp.key, fields(), broken)).statusCode).toBe(415);
      const huge = Buffer.concat([await pngOf(4), Buffer.alloc(ROI_MAX_BYTES)]);
      const tooLarge = await uploadRoi(env, ipp.key, fields(), huge);
      expect(tooLarge.statusCode).toBe(413);
      expect(body(tooLarge).code).toBe(1002);
      for (const [bad, field] of [
        [fields({ captured_at: 'yesterday' }), 'captured_at'],
        [fields({ size_px: -1 }), 'size_px'],
        [fields({ confidence: 1.5 }), 'confidence'],
        [fields({ label_index: 'copepod' }), 'label_index'],
      ] as const) {
        const res = await uploadRoi(env, ipp.key, bad, await pngOf(5));
        expect(res.statusCode).toBe(400);
        expect(body(res).model?.field).toBe(field);
      }
      expect(body(await uploadRoi(env, ipp.key, fields(), null)).model?.field).toBe('file');
      expect(await count('rois')).toBe(0);
      expect(fs.existsSync(path.join(env.config.DATA_DIR, 'blobs'))).toBe(false);
    });

    it('keeps an unknown label as not classified', async () => {
      const { roi_id } = body(await uploadRoi(env, ipp.key, fields({ label_index: 999 }), await pngOf(6))).data as {
        roi_id: number;
      };
      const details = body(await get(env, `/api/roi/get-roi-details?roi_id=${roi_id}`, w.tokens.user)).data as { roi: object };
      expect(details.roi).toMatchObject({ class_id: null, class_name: null, roi_labelindex: 999, type: 'ai' });
      const unlabelled = body(await uploadRoi(env, ipp.key, fields({ label_index: 0 }), await pngOf(7))).data as {
        roi_id: number;
      };
      expect(
        (body(await get(env, `/api/roi/get-roi-details?roi_id=${unlabelled.roi_id}`, w.tokens.user)).data as { roi: object }).roi,
      ).toMatchObject({ type: 'ui' });
    });

    it('takes the same image sent at once by retries and by other instruments: every upload succeeds, one ROI each', async () => {
      // Issue 20: two writers of one blob shared a temporary file name, and most of such uploads answered 500. Five
      // instruments send it four times each at once (four: what INGEST_PER_DEVICE lets one instrument have in flight).
      const stations = [ipp];
      for (const devId of ['21006', '21007', '21008', '21009'])
        stations.push(await registerIpp(env, w.tokens.ownAdmin, w.teamA, devId));
      const png = await pngOf(9, 64);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => uploadRoi(env, stations[i % 5]!.key, fields(), png)),
      );
      expect(answers.map((a) => [a.statusCode, body(a).code])).toEqual(Array.from({ length: 20 }, () => [200, 1000]));
      const acks = answers.map((a) => body(a).data as { roi_id: number; stored: boolean; sha256: string });
      // Each station has the image once; every retry answers that station's one ROI.
      const rows = await env.db.kysely.selectFrom('rois').select(['id', 'ipp_id', 'sha256']).orderBy('id').execute();
      expect(rows.map((r) => r.ipp_id).sort()).toEqual(stations.map((s) => s.id).sort());
      const idOf = new Map(rows.map((r) => [r.ipp_id, r.id]));
      acks.forEach((ack, i) => expect(ack.roi_id).toBe(idOf.get(stations[i % 5]!.id)));
      expect(acks.filter((a) => a.stored)).toHaveLength(5);
      for (const station of stations) expect((await one(station.id)).total_images).toBe(1);
      // One original and one thumbnail on disk, no temporary file left behind.
      const dir = path.join(env.config.DATA_DIR, 'blobs', acks[0]!.sha256.slice(0, 2), acks[0]!.sha256.slice(2, 4));
      expect(fs.readdirSync(dir).sort()).toEqual([`${acks[0]!.sha256}.png`, `${acks[0]!.sha256}.thumb.webp`]);
      expect(fs.readFileSync(path.join(dir, `${acks[0]!.sha256}.png`)).equals(png)).toBe(true);
    });

    it('refuses to remove an instrument that still has images', async () => {
      await uploadRoi(env, ipp.key, fields(), await pngOf(8));
      const res = body(await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/delete', { id: ipp.id }));
      expect(res).toMatchObject({ code: 1001, msg: 'The instrument still has 1 image(s); delete or move them first' });
      expect(await count('rois')).toBe(1);
    });
  });
});
