import { setImmediate } from 'node:timers/promises';
import crypto from 'node:crypto';
import { DEFAULT_IPP_CONFIG, TelemetrySampleSchema, type IppConfig } from '@ipp/contracts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { hashToken } from '../security/password.ts';
import type { DeviceService } from '../modules/device/device.service.ts';
import type { RoisService } from '../modules/rois/rois.service.ts';
import { insertConfigVersion } from '../modules/device/config-history.repository.ts';
import { findTeamByName } from '../modules/teams/teams.repository.ts';
import { pickKind, renderRoi } from '../simulator/render.ts';
import { mulberry32 } from '../lib/random.ts';
import { advance, createDeviceState, deviceSeed, sampleTelemetry } from '../simulator/telemetry-model.ts';
import { DEMO_TEAM } from './demo.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The demo stations: three with 30 days of history, one registered but never heard from. Two have a pixel size
 * (sizes in µm and the ecology views); Daya Bay has none, to show what the console says then.
 */
export const DEMO_STATIONS = [
  {
    dev_id: '21001',
    site_name: 'Yellow Sea, Qingdao 黄海青岛',
    country: 'CN',
    latitude: 35.98,
    longitude: 120.62,
    time_zone: 'Asia/Shanghai',
    serial: 'IPP-2024-001',
    pixel_size_um: 5,
  },
  {
    dev_id: '21002',
    site_name: 'Jiaozhou Bay 胶州湾',
    country: 'CN',
    latitude: 36.12,
    longitude: 120.27,
    time_zone: 'Asia/Shanghai',
    serial: 'IPP-2024-002',
    pixel_size_um: 5,
  },
  {
    dev_id: '21003',
    site_name: 'Daya Bay 大亚湾',
    country: 'CN',
    latitude: 22.6,
    longitude: 114.6,
    time_zone: 'Asia/Shanghai',
    serial: 'IPP-2024-003',
  },
  {
    dev_id: '21004',
    site_name: 'Prince William Sound',
    country: 'US',
    latitude: 60.69,
    longitude: -146.95,
    time_zone: 'America/Anchorage',
    serial: 'IPP-2025-004',
  },
] as const;
const WITH_HISTORY = 3;
const DEMO_ADMIN = 'demo_admin';
/** The one change in the demo's configuration history (Qingdao): a longer exposure and a faster frame rate. */
const DEMO_CHANGE: Partial<IppConfig> = { exposure_us: 100, frame_rate: 5 };

/** A configuration change as the console makes it: version 2 and its row in the history, by the demo administrator. */
async function changeDemoConfig(db: Db, ippId: number, config: IppConfig, at: number) {
  const text = JSON.stringify(config);
  await db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('ipps').set({ config: text, config_version: 2, updated_at: at }).where('id', '=', ippId).execute();
    await insertConfigVersion(trx, {
      ipp_id: ippId,
      version: 2,
      config: text,
      source: 'edit',
      changed_by: null,
      changed_by_name: DEMO_ADMIN,
      changed_at: at,
    });
  });
}

export interface HistoryOptions {
  days?: number;
  /** Telemetry interval of the history, minutes. */
  telemetryEveryMin?: number;
  /** Mean ROIs per station per hour (the last two days get three times as many). */
  roisPerHour?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Fills the demo team with stations and `days` of history through the real ingest path (telemetry and ROI
 * services, so rollups and files are exactly what instruments would have produced). Runs once: a demo team
 * that already has stations is left alone.
 */
export async function seedDemoHistory(
  db: Db,
  clock: Clock,
  devices: DeviceService,
  rois: RoisService,
  options: HistoryOptions = {},
): Promise<{ created: boolean; telemetry: number; rois: number }> {
  const team = await findTeamByName(db.kysely, DEMO_TEAM);
  if (!team) return { created: false, telemetry: 0, rois: 0 };
  const existing = await db.kysely.selectFrom('ipps').select('id').where('group_id', '=', team.id).executeTakeFirst();
  if (existing) return { created: false, telemetry: 0, rois: 0 };
  const days = options.days ?? 30;
  // Every 10 minutes: no gap exceeds the default offline threshold, so the history counts as online time.
  const every = (options.telemetryEveryMin ?? 10) * 60_000;
  const perHour = options.roisPerHour ?? 0.6;
  const now = clock();
  const start = Math.floor((now - days * DAY) / HOUR) * HOUR;

  const ids: number[] = [];
  for (const s of DEMO_STATIONS) {
    const row = await db.kysely
      .insertInto('ipps')
      .values({
        dev_id: s.dev_id,
        site_name: s.site_name,
        country: s.country,
        latitude: s.latitude,
        longitude: s.longitude,
        time_zone: s.time_zone,
        group_id: team.id,
        serial_number: s.serial,
        pixel_size_um: 'pixel_size_um' in s ? s.pixel_size_um : null,
        config: JSON.stringify(DEFAULT_IPP_CONFIG),
        // A key nobody knows; "Rotate key" in the console issues a usable one.
        device_key_hash: hashToken(crypto.randomBytes(32).toString('hex')),
        created_at: start,
        updated_at: start,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
    await insertConfigVersion(db.kysely, {
      ipp_id: row.id,
      version: 1,
      config: JSON.stringify(DEFAULT_IPP_CONFIG),
      source: 'register',
      changed_by: null,
      changed_by_name: DEMO_ADMIN,
      changed_at: start,
    });
  }

  // Plan every ROI first so progress can be reported against a known total.
  const plan: { station: number; at: number; seed: number }[] = [];
  for (let station = 0; station < WITH_HISTORY; station++) {
    const rng = mulberry32(1000 + station);
    for (let hour = start; hour < now; hour += HOUR) {
      const recent = now - hour < 2 * DAY;
      const daily = 0.6 + 0.8 * Math.sin(((hour / HOUR + station * 5) * 2 * Math.PI) / 24) ** 2;
      const mean = perHour * daily * (recent ? 3 : 1);
      const count = Math.floor(mean + rng());
      for (let i = 0; i < count; i++)
        plan.push({ station, at: Math.min(now - 1000, hour + Math.floor(rng() * HOUR)), seed: plan.length + 1 });
    }
  }
  // What each device's image counter (telemetry `rois_total`) counts: every planned image, and for Qingdao four hours,
  // two days ago, in which its uplink lost four images an hour, so the completeness chart shows missing hours.
  const made: number[][] = Array.from({ length: WITH_HISTORY }, () => []);
  for (const item of plan) made[item.station]!.push(item.at);
  const lostFrom = Math.floor(now / HOUR) * HOUR - 2 * DAY - 6 * HOUR;
  for (let hour = Math.max(start, lostFrom); hour < lostFrom + 4 * HOUR; hour += HOUR)
    for (let i = 0; i < 4; i++) made[0]!.push(hour + ((i + 0.5) * HOUR) / 4);
  for (const times of made) times.sort((a, b) => a - b);
  // Every `every` from the start, and a last sample at `now` itself.
  const telemetryTotal = WITH_HISTORY * (Math.ceil((now - start) / every) + 1);
  const total = plan.length + telemetryTotal;
  let done = 0;
  const tick = () => {
    done++;
    if (done % 250 === 0 || done === total) options.onProgress?.(done, total);
  };

  const changeAt = start + Math.floor((days * 2) / 3) * DAY + 10 * HOUR + 7 * 60_000;
  let telemetryCount = 0;
  for (let station = 0; station < WITH_HISTORY; station++) {
    const device = { id: ids[station] as number, dev_id: DEMO_STATIONS[station]!.dev_id, group_id: team.id };
    // Seeded by the site ID, like the live simulator (seed/demo-live.ts): the live readings continue these.
    let state = createDeviceState(station + 1, start, {
      seed: deviceSeed(DEMO_STATIONS[station]!.dev_id),
      longitude: DEMO_STATIONS[station]!.longitude,
    });
    // The history ends exactly now, so the live simulator (seed/demo-live.ts) resumes from a reading minutes old at
    // most and carries on without a gap in the charts or the station's online time.
    let config: IppConfig = DEFAULT_IPP_CONFIG;
    let counted = 0;
    for (let at = start; ; at = Math.min(at + every, now)) {
      // Qingdao's settings were changed once, days ago: its configuration history and its EcoTaxa acquisitions show it.
      if (station === 0 && config === DEFAULT_IPP_CONFIG && at >= changeAt) {
        config = { ...DEFAULT_IPP_CONFIG, ...DEMO_CHANGE };
        await changeDemoConfig(db, device.id, config, changeAt);
      }
      const sample = sampleTelemetry({ index: station + 1, state }, at, config);
      state = advance(state, at, config);
      const times = made[station]!;
      while (counted < times.length && times[counted]! <= at) counted++;
      await devices.ingestTelemetry(
        device,
        TelemetrySampleSchema.parse({ ...sample, rois_total: counted, applied_config: config }),
      );
      telemetryCount++;
      tick();
      if (at >= now) break;
      // Give the event loop back between samples: on SQLite each write is synchronous, so without this the server
      // (already listening) answered no one until all the telemetry was written, about a minute at the first start.
      await setImmediate();
    }
  }

  // Newest first, so the 24-hour charts fill first while the rest is still being written.
  plan.sort((a, b) => b.at - a.at);
  // Render and store ROIs a few at a time (sharp works on its own threads).
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const item = plan[next++]!;
      const rng = mulberry32(item.seed * 7 + 3);
      const kind = pickKind(rng);
      const image = await renderRoi(kind, item.seed);
      await rois.ingest({
        ippId: ids[item.station] as number,
        capturedAt: item.at,
        labelIndex: rng() < 0.05 ? 0 : image.labelIndex,
        confidence: Math.round((0.55 + rng() * 0.44) * 1000) / 1000,
        sizePx: image.sizePx,
        data: image.png,
        isDemo: true,
      });
      tick();
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));

  // A few favourites for the wall.
  const favourites = await db.kysely
    .selectFrom('rois')
    .select(['id', 'roi_time'])
    .orderBy('roi_time', 'desc')
    .limit(18)
    .execute();
  for (const [index, roi] of favourites.entries()) {
    if (index % 2 === 0)
      await db.kysely
        .updateTable('rois')
        .set({ favorite_at: roi.roi_time + 60_000 })
        .where('id', '=', roi.id)
        .execute();
  }
  return { created: true, telemetry: telemetryCount, rois: plan.length };
}
