import type { AlarmKind, Measured, SeriesComparison, TrendSeriesKey } from '@ipp/contracts';

/** What a rule reads of its station at one moment. */
export interface StationNow {
  now: number;
  online: boolean;
  /** When the station last reported (null: never). */
  lastOnlineAt: number | null;
  /** When it went offline: its last report, or when it said so if later. */
  offlineSince: number | null;
  /** When its current online run began (its first report after being offline); null: not known. */
  onlineSince?: number | null;
  latest: Measured | null;
  lastRoiAt: number | null;
  /** The wiper interval of the configuration the console asks for, minutes. */
  wiperIntervalMin?: number;
  /** Biology: individuals per litre of each watched class over its window (concentrationKey); null without water. */
  concentrations?: ReadonlyMap<string, number | null>;
  /**
   * Rate rules: each watched series' value at the start of its window (seriesBeforeKey), from the last sample at or
   * before it; null: no such sample recent enough to compare with.
   */
  seriesBefore?: ReadonlyMap<string, number | null>;
}

export interface RuleLimits {
  kind: AlarmKind;
  threshold: number | null;
  minutes: number | null;
  class_id?: number | null;
  /** Where an open alarm clears (hysteresis, rules with a limitDirection); null or absent: at the limit. */
  clear_threshold?: number | null;
  series?: TrendSeriesKey | null;
  comparison?: SeriesComparison | null;
  threshold_low?: number | null;
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

export const seriesBeforeKey = (series: TrendSeriesKey, minutes: number | null) => `${series}:${minutes ?? 0}`;

/**
 * A rate rule compares with the last sample at or before its window's start, but not one older than two windows: a
 * station that sent nothing for that long shows no rate either way.
 */
export const rateSampleRange = (minutes: number, now: number) => ({
  atMost: now - minutes * 60_000,
  atLeast: now - 2 * minutes * 60_000,
});

/**
 * Whether the rule's condition holds now, and the reading that shows it (null where there is none). `firing` null:
 * nothing shows either way (the station is offline, or sends no such reading) — an open alarm stays open, none is
 * raised (issue 37: a leak alarm must not clear because the station went silent).
 */
export interface Condition {
  firing: boolean | null;
  value: number | null;
}

const QUIET: Condition = { firing: false, value: null };
const UNKNOWN: Condition = { firing: null, value: null };
const minutesSince = (from: number, now: number) => Math.floor((now - from) / 60_000);

/**
 * One rule on one station now. Readings count only while the station is online (an offline station's last humidity is
 * history, not a leak now, nor the end of one: its alarm stays as it is); a station that never reported raises nothing
 * (it was never deployed). While an alarm of the rule is `open`, a reading is held against the rule's clear level
 * instead of its limit (issue 40: a reading hovering at the limit raises once and clears once).
 */
export function evaluate(rule: RuleLimits, station: StationNow, open = false): Condition {
  const { now, latest } = station;
  const limit = (open ? (rule.clear_threshold ?? rule.threshold) : rule.threshold) ?? 0;
  const reading = (value: number | null | undefined, above: boolean): Condition =>
    !station.online || value === null || value === undefined ? UNKNOWN : { firing: above ? value > limit : value < limit, value };
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
      if (!station.online || last === null || last === undefined || !station.wiperIntervalMin) return UNKNOWN;
      const intervals = Math.round(((now - last) / 60_000 / station.wiperIntervalMin) * 10) / 10;
      return { firing: intervals > limit, value: intervals };
    }
    case 'wiper_fault':
      if (!station.online || !latest?.wiper_state) return UNKNOWN;
      return { firing: latest.wiper_state === 'fault', value: null };
    case 'no_images': {
      if (!station.online || station.lastOnlineAt === null) return UNKNOWN;
      // Never an image: nothing to miss (a station that never sent one raises nothing).
      if (station.lastRoiAt === null) return { firing: false, value: minutesSince(station.lastOnlineAt, now) };
      const limitMs = (rule.minutes ?? 0) * 60_000;
      // An image within the window ends the silence.
      if (now - station.lastRoiAt < limitMs) return { firing: false, value: minutesSince(station.lastRoiAt, now) };
      // Silence counts only while the station is online: from the last image or from when it came back, the later
      // (issue 37: a station back from an outage longer than the window raised the alarm at its first report). Back for
      // less than the window, nothing shows either way: an alarm open from before the outage stays, none is raised.
      const since = Math.max(station.lastRoiAt, station.onlineSince ?? station.lastRoiAt);
      const minutes = minutesSince(since, now);
      return now - since >= limitMs ? { firing: true, value: minutes } : { firing: null, value: minutes };
    }
    case 'uvc_off_sampling': {
      if (!station.online || !latest) return UNKNOWN;
      const sampling = (latest.volume_5min_ml ?? 0) > 0;
      const off = latest.uvc_illuminator_duty_pct === 0;
      return { firing: sampling && off, value: latest.uvc_illuminator_duty_pct };
    }
    case 'series':
      return seriesCondition(rule, station, limit);
    case 'class_concentration': {
      // Biology does not need the station online: a bloom measured in the window stays true until the window passes it.
      if (rule.class_id === null || rule.class_id === undefined) return QUIET;
      const value = station.concentrations?.get(concentrationKey(rule.class_id, rule.minutes));
      return value === null || value === undefined ? QUIET : { firing: value > limit, value };
    }
  }
}

/** A series rule: its series now against the limit (the clear level while open), a band, or its change over a window. */
function seriesCondition(rule: RuleLimits, station: StationNow, limit: number): Condition {
  const value = rule.series ? station.latest?.[rule.series] : null;
  if (!station.online || value === null || value === undefined || !rule.series) return UNKNOWN;
  switch (rule.comparison) {
    case 'above':
      return { firing: value > limit, value };
    case 'below':
      return { firing: value < limit, value };
    case 'outside':
      return { firing: value > (rule.threshold ?? 0) || value < (rule.threshold_low ?? 0), value };
    case 'rate': {
      const before = station.seriesBefore?.get(seriesBeforeKey(rule.series, rule.minutes));
      if (before === null || before === undefined) return UNKNOWN;
      const change = Math.round((value - before) * 1000) / 1000;
      return { firing: Math.abs(change) > (rule.threshold ?? 0), value: change };
    }
    default:
      return QUIET;
  }
}
