import { MeasuredSchema, type TrendSeriesKey } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { parseStoredConfig } from '../device/device.service.ts';
import { isOnline } from '../ipps/ipps.service.ts';
import { concentrationKey, rateSampleRange, seriesBeforeKey, windowStart, type StationNow } from './alarm-conditions.ts';
import * as repo from './alarms.repository.ts';

/* What the rules read of a station at one moment (alarm-conditions.ts judges it): its state and the watched classes'
   concentrations, from its row and the hour rollups. */

/** Individuals per litre of each class the biology rules watch, over each rule's window (null: no water sampled). */
export async function concentrationsOf(trx: Kysely<Database>, ippId: number, rules: readonly repo.AlarmRuleRow[], now: number) {
  const out = new Map<string, number | null>();
  for (const rule of rules) {
    if (rule.kind !== 'class_concentration' || rule.class_id === null) continue;
    const key = concentrationKey(rule.class_id, rule.minutes);
    if (out.has(key)) continue;
    const { count, volumeL } = await repo.classCountAndVolume(trx, ippId, rule.class_id, windowStart(rule.minutes, now));
    out.set(key, volumeL > 0 ? Math.round((count / volumeL) * 1000) / 1000 : null);
  }
  return out;
}

/** Each rate rule's series at the start of its window (the last sample before it, if recent enough). */
export async function seriesBeforeOf(trx: Kysely<Database>, ippId: number, rules: readonly repo.AlarmRuleRow[], now: number) {
  const out = new Map<string, number | null>();
  for (const rule of rules) {
    const series = rule.series as TrendSeriesKey | null;
    if (rule.kind !== 'series' || rule.comparison !== 'rate' || !series || rule.minutes === null) continue;
    const key = seriesBeforeKey(series, rule.minutes);
    if (out.has(key)) continue;
    const { atLeast, atMost } = rateSampleRange(rule.minutes, now);
    out.set(key, await repo.seriesValueBetween(trx, ippId, series, atLeast, atMost));
  }
  return out;
}

export function stationNow(station: repo.StationForAlarms, now: number, offlineMs: number): StationNow {
  const lastOnlineAt = station.last_online_at === null ? null : Number(station.last_online_at);
  const reportedOffline = station.reported_offline_at === null ? null : Number(station.reported_offline_at);
  const online = isOnline({ last_online_at: lastOnlineAt, reported_offline_at: reportedOffline }, now, offlineMs);
  const parsed = station.latest_telemetry ? MeasuredSchema.safeParse(JSON.parse(station.latest_telemetry)) : null;
  return {
    now,
    online,
    lastOnlineAt,
    offlineSince: lastOnlineAt === null ? null : Math.max(lastOnlineAt, reportedOffline ?? 0),
    onlineSince: station.online_since === null ? null : Number(station.online_since),
    latest: parsed?.success ? parsed.data : null,
    lastRoiAt: station.last_roi_at === null ? null : Number(station.last_roi_at),
    wiperIntervalMin: parseStoredConfig(station.config).wiper_interval_min,
  };
}
