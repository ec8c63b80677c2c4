import {
  TREND_SERIES,
  type Measured,
  type Roi24,
  type Roi30,
  type RoiDetails,
  type RoiSummary,
  type SiteBucket,
  type SiteRoi,
  type TelemetryTrend,
  type Completeness,
} from '@ipp/contracts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Local midnight of 2026-03-05, so labels read the same in every time zone the tests run in. */
export const LOCAL_DAY = new Date(2026, 2, 5).getTime();

export function roiFixture(overrides: Partial<RoiSummary> = {}): RoiSummary {
  const id = overrides.id ?? 101;
  return {
    id,
    ipp_id: 7,
    dev_id: '21005',
    site_name: 'Yellow Sea buoy',
    roi_time: LOCAL_DAY + 9 * HOUR,
    received_at: LOCAL_DAY + 9 * HOUR + 5_000,
    class_id: 1,
    class_name: '001 Copepod',
    roi_labelindex: 1,
    confidence: 0.875,
    hi: 0,
    type: 'ai',
    size_px: 2345,
    pixel_size_um: null,
    bytes: 48_128,
    width: 320,
    height: 240,
    favorite: false,
    url: `roi/file/${id}`,
    thumb_url: `roi/thumb/${id}`,
    flags: [],
    labelled_by: null,
    labelled_by_name: null,
    labelled_at: null,
    ...overrides,
  };
}

export function measuredFixture(overrides: Partial<Measured> = {}): Measured {
  return {
    at: LOCAL_DAY + 8 * HOUR,
    temperature_c: 21.46,
    humidity_pct: 40,
    volume_5min_ml: 12.5,
    volume_total_l: 1523.456,
    ram_mb: 2048,
    storage_gb: 118.2,
    cpu_temp_c: 48.3,
    gpu_temp_c: 45,
    wiper_state: 'idle',
    wiper_clean_count: 12_345,
    wiper_last_clean_at: LOCAL_DAY + 7 * HOUR,
    uvc_port_frequency_hz: 1000,
    uvc_port_duty_pct: 50,
    uvc_illuminator_frequency_hz: 1000,
    uvc_illuminator_duty_pct: 50,
    uvc_voltage_v: 12.04,
    uvc_current_a: 0.351,
    lp_current_a: 0.12,
    lp_voltage_v: 5,
    lp_temperature_c: 30.2,
    cb_current_a: 1.5,
    cb_voltage_v: 12,
    ...overrides,
  };
}

export function detailsFixture(overrides: Partial<RoiDetails> = {}): RoiDetails {
  return { roi: roiFixture(), telemetry: measuredFixture(), previous_id: 100, next_id: 102, ...overrides };
}

const station = (id: number, devId: string, name: string, followed: boolean, online: boolean) => ({
  id,
  dev_id: devId,
  site_name: name,
  followed,
  online,
});

export function roi24Fixture(overrides: Partial<Roi24> = {}): Roi24 {
  const counts = (base: number) => Array.from({ length: 24 }, (_, hour) => (hour % 6 === 0 ? base : 0));
  return {
    start: LOCAL_DAY,
    bucket_ms: HOUR,
    stations: [
      { ...station(8, '21006', 'Fjord', true, true), counts: counts(4) },
      { ...station(7, '21005', 'Yellow Sea buoy', false, false), counts: counts(1) },
    ],
    ...overrides,
  };
}

export function roi30Fixture(overrides: Partial<Roi30> = {}): Roi30 {
  const days = 30;
  const series = (value: (day: number) => number | null) => Array.from({ length: days }, (_, day) => value(day));
  return {
    start: LOCAL_DAY - 29 * DAY,
    bucket_ms: DAY,
    stations: [
      {
        ...station(7, '21005', 'Yellow Sea buoy', false, true),
        rois: series((day) => day * 10) as number[],
        temperature_c: series((day) => (day === 3 ? null : 20 + day / 10)),
        temperature_min_c: series((day) => (day === 3 ? null : 19)),
        temperature_max_c: series((day) => (day === 3 ? null : 22)),
        humidity_pct: series(() => 40),
        volume_l: series(() => 1.5) as number[],
      },
    ],
    classes: [
      { class_id: 1, name: '001 Copepod', count: 500 },
      { class_id: 2, name: '002 Diatom chain', count: 300 },
      { class_id: null, name: null, count: 50 },
    ],
    ...overrides,
  };
}

export function siteBuckets(count: number, start: number, bucketMs: number, perBucket = 10): SiteBucket[] {
  return Array.from({ length: count }, (_, index) => ({
    start: start + index * bucketMs,
    count: perBucket,
    volume_l: 2,
    concentration_per_l: perBucket / 2,
    temperature_c: 20,
    humidity_pct: 40,
  }));
}

export function siteRoiFixture(overrides: Partial<SiteRoi> = {}): SiteRoi {
  const buckets = siteBuckets(24, LOCAL_DAY, HOUR);
  return {
    ipp_id: 7,
    dev_id: '21005',
    site_name: 'Yellow Sea buoy',
    start: LOCAL_DAY,
    end: LOCAL_DAY + DAY,
    bucket_ms: HOUR,
    buckets,
    top_classes: [
      { class_id: 1, name: '001 Copepod', count: 100 },
      { class_id: 2, name: '002 Diatom chain', count: 60 },
      { class_id: 3, name: '003 Dinoflagellate', count: 30 },
      { class_id: 4, name: '004 Appendicularian', count: 20 },
      { class_id: 5, name: '005 Chaetognath', count: 10 },
      { class_id: null, name: null, count: 8 },
    ],
    others: 12,
    total: 240,
    volume_l: 48,
    ...overrides,
  };
}

/** 24 hourly buckets of telemetry: the CPU at 40 + hour °C (±2), the board current missing in the first 12 hours. */
export function telemetryTrendFixture(overrides: Partial<TelemetryTrend> = {}): TelemetryTrend {
  const hours = Array.from({ length: 24 }, (_, i) => i);
  const none = hours.map(() => null);
  return {
    ipp_id: 7,
    dev_id: '21005',
    site_name: 'Yellow Sea buoy',
    start: LOCAL_DAY,
    end: LOCAL_DAY + DAY,
    bucket_ms: HOUR,
    samples: hours.map(() => 60),
    wiper_cleaning_pct: hours.map((h) => (h % 6 === 0 ? 1.7 : 0)),
    wiper_fault_pct: hours.map(() => 0),
    series: TREND_SERIES.map((key) => {
      if (key === 'cpu_temp_c')
        return { key, mean: hours.map((h) => 40 + h), min: hours.map((h) => 38 + h), max: hours.map((h) => 42 + h) };
      if (key === 'cb_current_a') {
        const v = hours.map((h) => (h < 12 ? null : 1.25));
        return { key, mean: v, min: v, max: v };
      }
      return { key, mean: none, min: none, max: none };
    }),
    ...overrides,
  };
}

/** 24 hours of a station: complete hours, two hours that lost images, three hours offline, the device counting. */
export function completenessFixture(overrides: Partial<Completeness> = {}): Completeness {
  const hours = Array.from({ length: 24 }, (_, i) => i);
  const none = { complete: 0, missing: 0, idle: 0, offline: 0, none: 0 };
  const buckets = hours.map((h) => {
    const offline = h >= 3 && h < 6;
    const missing = h === 10 || h === 11;
    return {
      start: LOCAL_DAY + h * HOUR,
      online_s: offline ? 0 : 3600,
      sampling_s: offline ? 0 : 3600,
      frames_expected: offline ? 0 : 10800,
      expected: offline ? 0 : 12,
      received: offline ? 0 : missing ? 3 : 12,
      hours: { ...none, [offline ? 'offline' : missing ? 'missing' : 'complete']: 1 },
    };
  });
  return {
    ipp_id: 7,
    dev_id: '21005',
    site_name: 'Yellow Sea buoy',
    start: LOCAL_DAY,
    end: LOCAL_DAY + DAY,
    bucket_ms: HOUR,
    buckets,
    totals: {
      expected: 252,
      received: 234,
      received_counted: 234,
      received_pct: 92.9,
      missing_hours: 2,
      offline_hours: 3,
      sampling_hours: 21,
    },
    ...overrides,
  };
}
