import { z } from 'zod';
import type { MeasuredKey } from './device.ts';
import { PERIODS, TzQuery } from './views.ts';
import { siteSeriesHead } from './site-series.ts';

/**
 * Engineering trends (issue 23): every numeric telemetry series the instruments send, rolled up per station and
 * hour (and statistics day) as count, sum, minimum and maximum, so a chart over any period of spec §9 reads at most
 * a few hundred rows per station, never the samples.
 */
export const TREND_SERIES = [
  'temperature_c',
  'humidity_pct',
  'cpu_temp_c',
  'gpu_temp_c',
  'ram_mb',
  'storage_gb',
  'lp_current_a',
  'lp_voltage_v',
  'lp_temperature_c',
  'cb_current_a',
  'cb_voltage_v',
  'uvc_port_frequency_hz',
  'uvc_port_duty_pct',
  'uvc_illuminator_frequency_hz',
  'uvc_illuminator_duty_pct',
  'uvc_voltage_v',
  'uvc_current_a',
  'wiper_clean_count',
  'volume_5min_ml',
] as const satisfies readonly MeasuredKey[];
export type TrendSeriesKey = (typeof TREND_SERIES)[number];

/** Each series' unit as written after a number in any language ('' for a count). */
export const TREND_SERIES_UNIT: Readonly<Record<TrendSeriesKey, string>> = {
  temperature_c: '°C',
  humidity_pct: '%RH',
  cpu_temp_c: '°C',
  gpu_temp_c: '°C',
  ram_mb: 'MB',
  storage_gb: 'GB',
  lp_current_a: 'A',
  lp_voltage_v: 'V',
  lp_temperature_c: '°C',
  cb_current_a: 'A',
  cb_voltage_v: 'V',
  uvc_port_frequency_hz: 'Hz',
  uvc_port_duty_pct: '%',
  uvc_illuminator_frequency_hz: 'Hz',
  uvc_illuminator_duty_pct: '%',
  uvc_voltage_v: 'V',
  uvc_current_a: 'A',
  wiper_clean_count: '',
  volume_5min_ml: 'mL',
};

/** How the charts group the series (one chart per group, spec §3's form sections). */
export const TREND_GROUPS = {
  environment: ['temperature_c', 'humidity_pct'],
  compute: ['cpu_temp_c', 'gpu_temp_c', 'ram_mb', 'storage_gb'],
  lowPower: ['lp_current_a', 'lp_voltage_v', 'lp_temperature_c'],
  carrier: ['cb_current_a', 'cb_voltage_v'],
  uvc: [
    'uvc_port_frequency_hz',
    'uvc_port_duty_pct',
    'uvc_illuminator_frequency_hz',
    'uvc_illuminator_duty_pct',
    'uvc_voltage_v',
    'uvc_current_a',
  ],
  wiper: ['wiper_clean_count'],
  sampling: ['volume_5min_ml'],
} as const satisfies Record<string, readonly TrendSeriesKey[]>;
export type TrendGroup = keyof typeof TREND_GROUPS;

export const TelemetryTrendQuerySchema = z.object({
  dev_id: z.string().trim().min(1).max(32),
  period: z.enum(PERIODS).default('7d'),
  points: z.coerce.number().int().min(2).max(400).default(168),
  tz: TzQuery,
});
export type TelemetryTrendQuery = z.infer<typeof TelemetryTrendQuerySchema>;

const values = z.array(z.number().nullable());

/** One series over the buckets: mean, minimum and maximum of the samples in each (null where none reported it). */
export const TrendSeriesSchema = z.object({
  key: z.enum(TREND_SERIES),
  mean: values,
  min: values,
  max: values,
});
export type TrendSeries = z.infer<typeof TrendSeriesSchema>;

/** GET /ipp/telemetry-trend: a station's telemetry over a period, bucketed like the site statistics. */
export const TelemetryTrendSchema = z.object({
  ...siteSeriesHead,
  /** Telemetry samples in each bucket. */
  samples: z.array(z.number().int()),
  /** Share of the samples, %, in which the wiper reported cleaning / a fault; null for a bucket with no samples. */
  wiper_cleaning_pct: values,
  wiper_fault_pct: values,
  /** Every series of TREND_SERIES, in that order. */
  series: z.array(TrendSeriesSchema),
});
export type TelemetryTrend = z.infer<typeof TelemetryTrendSchema>;
