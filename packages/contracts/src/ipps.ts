import { MAX_ID } from './ids.ts';
import { z } from 'zod';
import { MeasuredSchema } from './measured.ts';
import { PagingQuerySchema } from './paging.ts';

/**
 * The configuration a console user sets for an instrument (spec §3 Camera, Preprocessing, Wiper, UV-C LED),
 * with the hard limits the server enforces. Recommended ranges (spec §5 hints) are in IPP_CONFIG_HINTS: they
 * are shown at the field, not enforced.
 */
export const IppConfigSchema = z.object({
  exposure_us: z.number().int().min(1).max(100_000),
  frame_rate: z.number().min(0.1).max(29),
  gain: z.number().min(0).max(48),
  focus_threshold: z.number().int().min(0).max(10_000),
  size_filter_px: z.number().int().min(0).max(1_000_000),
  binarization_threshold: z.number().int().min(1).max(255),
  background_count: z.number().int().min(50).max(1000),
  background_interval_s: z.number().int().min(1).max(86_400),
  wiper_interval_min: z.number().int().min(1).max(1440),
  wiper_strokes: z.number().int().min(1).max(10),
  uvc_port_frequency_hz: z.number().min(0).max(100_000),
  uvc_port_duty_pct: z.number().min(0).max(100),
  uvc_illuminator_frequency_hz: z.number().min(0).max(100_000),
  uvc_illuminator_duty_pct: z.number().min(0).max(100),
});
export type IppConfig = z.infer<typeof IppConfigSchema>;
export type IppConfigKey = keyof IppConfig;
export const IPP_CONFIG_KEYS = Object.keys(IppConfigSchema.shape) as IppConfigKey[];

/** Defaults of spec §5 (where the spec gives two, the first). */
export const DEFAULT_IPP_CONFIG: IppConfig = {
  exposure_us: 80,
  frame_rate: 3,
  gain: 1,
  focus_threshold: 700,
  size_filter_px: 2000,
  binarization_threshold: 3,
  background_count: 50,
  background_interval_s: 720,
  wiper_interval_min: 30,
  wiper_strokes: 2,
  uvc_port_frequency_hz: 1000,
  uvc_port_duty_pct: 50,
  uvc_illuminator_frequency_hz: 1000,
  uvc_illuminator_duty_pct: 50,
};

/** Recommended values shown at each field (spec §5). */
export const IPP_CONFIG_HINTS: Partial<Record<IppConfigKey, { min?: number; max?: number; values?: number[] }>> = {
  exposure_us: { min: 80, max: 120 },
  frame_rate: { min: 1, max: 7 },
  focus_threshold: { values: [700, 800] },
  size_filter_px: { min: 2000, max: 3000 },
  binarization_threshold: { values: [3, 5] },
  wiper_interval_min: { values: [30, 60] },
  wiper_strokes: { values: [2] },
};

export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;

/** Whether the runtime knows an IANA time zone name ("Asia/Shanghai", "America/Anchorage", "Etc/GMT-8"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The runtime's own spelling of a zone name ("asia/shanghai" → "Asia/Shanghai"); null for '' (none). */
export function canonicalTimeZone(name: string): string | null {
  return name === '' ? null : new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
}

/**
 * A station's clock (issue 23): its IANA time zone, or without one the nautical zone of its longitude (15° per hour,
 * "Etc/GMT-8" = UTC+8), or UTC without a position.
 */
export function stationTimeZone(ipp: { time_zone: string | null; longitude: number | null }): string {
  if (ipp.time_zone) return ipp.time_zone;
  if (ipp.longitude === null) return 'UTC';
  const hours = Math.max(-12, Math.min(12, Math.round(ipp.longitude / 15)));
  // POSIX-style names count west as positive: Etc/GMT-8 is eight hours east.
  return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

/** The registry fields a user edits (spec §3 General). */
export const IppSaveBodySchema = z.object({
  id: z.number().int().positive().max(MAX_ID).optional(),
  /** Site ID (spec: required, e.g. 21005); the instrument's identity on the device protocol. */
  dev_id: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/),
  site_name: z.string().trim().max(64),
  /** ISO 3166-1 alpha-2; '' = Others. */
  country: z.union([z.literal(''), z.string().regex(COUNTRY_CODE_PATTERN)]),
  longitude: z.number().min(-180).max(180).nullable(),
  latitude: z.number().min(-90).max(90).nullable(),
  group_id: z.number().int().positive().max(MAX_ID),
  serial_number: z.string().trim().max(64),
  /**
   * Micrometres of the scene per image pixel, 0.01–1000; null = unknown (sizes stay in pixels). Absent
   * on an edit: unchanged.
   */
  pixel_size_um: z.number().min(0.01).max(1000).nullable().optional(),
  /** The station's IANA time zone (issue 23); null = from its longitude. Absent on an edit: unchanged. */
  time_zone: z
    .string()
    .trim()
    .max(64)
    .refine((name) => name === '' || isTimeZone(name), { message: 'reason.timeZone' })
    .nullable()
    .optional(),
  config: IppConfigSchema,
});
export type IppSaveBody = z.infer<typeof IppSaveBodySchema>;

/** An instrument as the console shows it. Measured values arrive with telemetry (null until then). */
export const IppSchema = z.object({
  id: z.number().int(),
  dev_id: z.string(),
  site_name: z.string(),
  country: z.string(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  group_id: z.number().int(),
  group_name: z.string().nullable(),
  serial_number: z.string(),
  /** Micrometres per image pixel; null = not set. */
  pixel_size_um: z.number().nullable(),
  /** The station's IANA time zone; null = from its longitude (stationTimeZone). */
  time_zone: z.string().nullable(),
  online: z.boolean(),
  last_online_at: z.number().int().nullable(),
  wiper_status: z.string().nullable(),
  /** The desired configuration (what the console asks for). */
  config: IppConfigSchema,
  /** Increases at every configuration change; devices compare it with their copy. */
  config_version: z.number().int(),
  /** The configuration the device last reported running; null until it reports. */
  applied_config: IppConfigSchema.partial().nullable(),
  /** Settings whose desired value the device has not reported applying yet. */
  pending: z.array(z.enum(Object.keys(IppConfigSchema.shape) as [IppConfigKey, ...IppConfigKey[]])),
  /** Latest telemetry (the form's measured values); null until the first sample. */
  measured: MeasuredSchema.nullable(),
  /** Hours online in total, summed from telemetry gaps no longer than the offline threshold. */
  online_hours: z.number(),
  /** Data summary: images captured since the server's local midnight, in total, and the latest one. */
  today_images: z.number().int(),
  total_images: z.number().int(),
  last_image_at: z.number().int().nullable(),
  latest_roi: z.object({ id: z.number().int(), thumb_url: z.string() }).nullable(),
  created_at: z.number().int(),
});
export type Ipp = z.infer<typeof IppSchema>;

export const IppIndexQuerySchema = PagingQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** Matches site name, site ID (dev_id) or serial number. */
  keyword: z.string().trim().max(64).optional(),
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
});
export type IppIndexQuery = z.infer<typeof IppIndexQuerySchema>;

/**
 * The settings whose desired value the device has not reported running. A device that never reported a configuration
 * has nothing pending (nothing is known); one that left a setting out of its report has that setting pending.
 */
export function pendingKeys(config: IppConfig, applied: Partial<IppConfig> | null): IppConfigKey[] {
  return applied === null ? [] : IPP_CONFIG_KEYS.filter((key) => applied[key] !== config[key]);
}

const IppConfigKeySchema = z.enum(IPP_CONFIG_KEYS as [IppConfigKey, ...IppConfigKey[]]);

/** How a configuration version came to be: registering, editing the form, applying to several, or the history's start. */
export const CONFIG_SOURCES = ['register', 'edit', 'bulk', 'migration'] as const;

/**
 * One configuration version of an instrument (issue 23, configuration audit). `changes` are the settings that differ
 * from the version before (`from` null: the first version). `state`: applied = the device reported running it;
 * pending = the current version, not reported yet; superseded = replaced before the device reported running it.
 */
export const IppConfigChangeSchema = z.object({
  version: z.number().int(),
  source: z.enum(CONFIG_SOURCES),
  changed_by_name: z.string().nullable(),
  changed_at: z.number().int(),
  state: z.enum(['applied', 'pending', 'superseded']),
  applied_at: z.number().int().nullable(),
  changes: z.array(z.object({ key: IppConfigKeySchema, from: z.number().nullable(), to: z.number() })),
  config: IppConfigSchema,
});
export type IppConfigChange = z.infer<typeof IppConfigChangeSchema>;

/** GET /ipp/config-history: an instrument's configuration versions, newest first. */
export const IppConfigHistoryQuerySchema = PagingQuerySchema.extend({
  id: z.coerce.number().int().positive().max(MAX_ID),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
export type IppConfigHistoryQuery = z.infer<typeof IppConfigHistoryQuerySchema>;

/** The most instruments one "apply to several" call changes. */
export const MAX_APPLY_CONFIG_IPPS = 200;

/**
 * POST /ipp/apply-config: set some settings on several instruments at once. Each instrument whose configuration
 * changes gets a new version (one transaction for all); the others are left as they are.
 */
export const IppApplyConfigBodySchema = z.object({
  ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(MAX_APPLY_CONFIG_IPPS),
  config: IppConfigSchema.partial()
    .strict()
    .refine((c) => Object.keys(c).length > 0, { message: 'reason.noSettings' }),
});
export type IppApplyConfigBody = z.infer<typeof IppApplyConfigBodySchema>;

export const IppApplyConfigResultSchema = z.object({
  rows: z.array(
    z.object({
      id: z.number().int(),
      dev_id: z.string(),
      site_name: z.string(),
      /** false: the instrument already had these settings; no new version. */
      changed: z.boolean(),
      config_version: z.number().int(),
      pending: z.array(IppConfigKeySchema),
    }),
  ),
});
export type IppApplyConfigResult = z.infer<typeof IppApplyConfigResultSchema>;

/** Creation and key rotation answer the device key once; only its hash is kept. */
export const IppWithKeySchema = z.object({ ipp: IppSchema, device_key: z.string() });
export type IppWithKey = z.infer<typeof IppWithKeySchema>;

/** POST /ipp/save: the device key on creation, null on a configuration change. */
export const IppSaveResultSchema = z.object({ ipp: IppSchema, device_key: z.string().nullable() });
export type IppSaveResult = z.infer<typeof IppSaveResultSchema>;

/** User config of spec §3: the team and the stations a user follows (shown first on overview pages). */
export const GroupViewSchema = z.object({
  group_id: z.number().int().nullable(),
  loc: z.array(z.object({ id: z.number().int(), dev_id: z.string() })),
});
export type GroupView = z.infer<typeof GroupViewSchema>;

export const GroupViewSaveBodySchema = z.object({
  group_id: z.number().int().positive().max(MAX_ID).nullable(),
  ids: z.array(z.number().int().positive().max(MAX_ID)).max(500),
});
export type GroupViewSaveBody = z.infer<typeof GroupViewSaveBodySchema>;
