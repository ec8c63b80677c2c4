import type { AlarmKind, Measured } from '@ipp/contracts';

/** What a rule reads of its station at one moment. */
export interface StationNow {
  now: number;
  online: boolean;
  /** When the station last reported (null: never). */
  lastOnlineAt: number | null;
  /** When it went offline: its last report, or when it said so if later. */
  offlineSince: number | null;
  latest: Measured | null;
  lastRoiAt: number | null;
  /** The wiper interval of the configuration the console asks for, minutes. */
  wiperIntervalMin?: number;
  /** Biology: individuals per litre of each watched class over its window (concentrationKey); null without water. */
  concentrations?: ReadonlyMap<string, number | null>;
}

export interface RuleLimits {
  kind: AlarmKind;
  threshold: number | null;
  minutes: number | null;
  class_id?: number | null;
}

const HOUR_MS = 3_600_000;

/** A concentration window in whole hours (the hour rollups' grain). */
export const windowHours = (minutes: number | null) => Math.max(1, Math.ceil((minutes ?? 60) / 60));

/**
 * The first hour a biology rule's window reads at `now`: its N whole hours before the current one, and the current
 * hour so far. So the window always holds at least N hours of data: at hh:00 a one-hour rule still reads the hour
 * that just ended instead of an empty one (which cleared a continuing bloom's alarm and raised it again each hour).
 */
export const windowStart = (minutes: number | null, now: number) =>
  Math.floor(now / HOUR_MS) * HOUR_MS - windowHours(minutes) * HOUR_MS;

export const concentrationKey = (classId: number, minutes: number | null) => `${classId}:${windowHours(minutes)}`;

/** Whether the rule's condition holds now, and the reading that shows it (null where there is none). */
export interface Condition {
  firing: boolean;
  value: number | null;
}

const QUIET: Condition = { firing: false, value: null };
const minutesSince = (from: number, now: number) => Math.floor((now - from) / 60_000);

/**
 * One rule on one station now. Readings count only while the station is online (an offline station's last humidity is
 * history, not a leak now); a station that never reported raises nothing (it was never deployed).
 */
export function evaluate(rule: RuleLimits, station: StationNow): Condition {
  const { now, latest } = station;
  const limit = rule.threshold ?? 0;
  const reading = (value: number | null | undefined, above: boolean): Condition =>
    !station.online || value === null || value === undefined ? QUIET : { firing: above ? value > limit : value < limit, value };
  switch (rule.kind) {
    case 'offline': {
      if (station.online || station.offlineSince === null) return QUIET;
      const minutes = minutesSince(station.offlineSince, now);
      return { firing: minutes >= (rule.minutes ?? 0), value: minutes };
    }
    case 'temperature_high':
      return reading(latest?.temperature_c, true);
    case 'humidity_high':
      return reading(latest?.humidity_pct, true);
    case 'storage_low':
      return reading(latest?.storage_gb, false);
    case 'wiper_no_clean': {
      // Intervals since the last clean the device reported; nothing known without one.
      const last = latest?.wiper_last_clean_at;
      if (!station.online || last === null || last === undefined || !station.wiperIntervalMin) return QUIET;
      const intervals = Math.round(((now - last) / 60_000 / station.wiperIntervalMin) * 10) / 10;
      return { firing: intervals > limit, value: intervals };
    }
    case 'wiper_fault':
      return { firing: station.online && latest?.wiper_state === 'fault', value: null };
    case 'no_images': {
      if (!station.online || station.lastOnlineAt === null) return QUIET;
      // Silence counts from the last image, or from when the station came into view if it never sent one.
      const since = station.lastRoiAt ?? station.lastOnlineAt;
      const minutes = minutesSince(since, now);
      return { firing: station.lastRoiAt === null ? false : minutes >= (rule.minutes ?? 0), value: minutes };
    }
    case 'uvc_off_sampling': {
      if (!station.online || !latest) return QUIET;
      const sampling = (latest.volume_5min_ml ?? 0) > 0;
      const off = latest.uvc_illuminator_duty_pct === 0;
      return { firing: sampling && off, value: latest.uvc_illuminator_duty_pct };
    }
    case 'class_concentration': {
      // Biology does not need the station online: a bloom measured in the window stays true until the window passes it.
      if (rule.class_id === null || rule.class_id === undefined) return QUIET;
      const value = station.concentrations?.get(concentrationKey(rule.class_id, rule.minutes));
      return value === null || value === undefined ? QUIET : { firing: value > limit, value };
    }
  }
}
