import { z } from 'zod';
import { IppConfigSchema } from './ipps.ts';
import { WIPER_STATES } from './measured.ts';

/**
 * The instrument-facing protocol (docs/device-protocol.md). Devices authenticate with their device key
 * (header `X-Device-Key` on HTTP, field `key` on MQTT), never with a user token.
 */
export const DEVICE_KEY_HEADER = 'x-device-key';

/** Device timestamps: epoch milliseconds or an ISO 8601 string with a zone. */
export const DeviceTimeSchema = z.union([
  z.number().int().min(946_684_800_000).max(4_102_444_800_000),
  z.iso.datetime({ offset: true }).transform((s) => Date.parse(s)),
]);

const reading = (min: number, max: number) => z.number().min(min).max(max).nullable().optional();
const counter = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional();

/**
 * One telemetry sample. Every reading is optional (a device without a sensor leaves it out), but a present
 * reading must be a number in its physical range; one bad value refuses the whole sample.
 */
export const TelemetrySampleSchema = z
  .object({
    at: DeviceTimeSchema,
    temperature_c: reading(-40, 125),
    humidity_pct: reading(0, 100),
    /** Water sampled in the last 5 minutes, mL (spec §9). */
    volume_5min_ml: reading(0, 1_000_000),
    /** Total water sampled since deployment, L (a counter; a drop means the counter was reset). */
    volume_total_l: reading(0, 1e12),
    /**
     * ROIs the device has made since it started (kept after its size filter, whether or not delivered yet): a counter;
     * a drop means it was reset. The console compares it with the images it received (completeness).
     */
    rois_total: counter,
    ram_mb: reading(0, 1_048_576),
    storage_gb: reading(0, 1_048_576),
    cpu_temp_c: reading(-40, 150),
    gpu_temp_c: reading(-40, 150),
    wiper_state: z.enum(WIPER_STATES).nullable().optional(),
    wiper_clean_count: counter,
    wiper_last_clean_at: DeviceTimeSchema.nullable().optional(),
    uvc_port_frequency_hz: reading(0, 100_000),
    uvc_port_duty_pct: reading(0, 100),
    uvc_illuminator_frequency_hz: reading(0, 100_000),
    uvc_illuminator_duty_pct: reading(0, 100),
    uvc_voltage_v: reading(0, 1000),
    uvc_current_a: reading(0, 100),
    lp_current_a: reading(0, 100),
    lp_voltage_v: reading(0, 1000),
    lp_temperature_c: reading(-40, 150),
    cb_current_a: reading(0, 100),
    cb_voltage_v: reading(0, 1000),
    /** The configuration the device is running now; the console marks each setting applied or pending. */
    applied_config: IppConfigSchema.partial().nullable().optional(),
  })
  .strict();
export type TelemetrySampleInput = z.input<typeof TelemetrySampleSchema>;
export type TelemetrySample = z.output<typeof TelemetrySampleSchema>;

/** Measured fields, in the order the instrument form shows them (telemetry keys without `at`/`applied_config`). */
export const MEASURED_KEYS = [
  'temperature_c',
  'humidity_pct',
  'volume_5min_ml',
  'volume_total_l',
  'ram_mb',
  'storage_gb',
  'cpu_temp_c',
  'gpu_temp_c',
  'wiper_state',
  'wiper_clean_count',
  'wiper_last_clean_at',
  'uvc_port_frequency_hz',
  'uvc_port_duty_pct',
  'uvc_illuminator_frequency_hz',
  'uvc_illuminator_duty_pct',
  'uvc_voltage_v',
  'uvc_current_a',
  'lp_current_a',
  'lp_voltage_v',
  'lp_temperature_c',
  'cb_current_a',
  'cb_voltage_v',
] as const;
export type MeasuredKey = (typeof MEASURED_KEYS)[number];

export const TelemetryAckSchema = z.object({
  /** false when this exact sample (same instrument, same `at`) was already stored: a retry. */
  stored: z.boolean(),
  /** The desired configuration's version; a device whose copy is older fetches GET /api/device/config. */
  config_version: z.number().int(),
});
export type TelemetryAck = z.infer<typeof TelemetryAckSchema>;

/** Multipart fields sent with an ROI image (the file part is named `file`). */
export const RoiUploadFieldsSchema = z.object({
  captured_at: z.union([
    z.coerce.number().int().min(946_684_800_000).max(4_102_444_800_000),
    z.iso.datetime({ offset: true }).transform((s) => Date.parse(s)),
  ]),
  /** On-device AI label index; 0 = not labelled. */
  label_index: z.coerce.number().int().min(0).max(10_000).default(0),
  /** On-device AI confidence, 0–1 (absent when not labelled). */
  confidence: z.coerce.number().min(0).max(1).optional(),
  /** Particle area in pixels (compare the size filter of the configuration). */
  size_px: z.coerce.number().int().min(0).max(100_000_000),
});
export type RoiUploadFields = z.infer<typeof RoiUploadFieldsSchema>;

export const RoiAckSchema = z.object({
  roi_id: z.number().int(),
  /** false when the same image was already stored for this instrument (a retry): nothing was added. */
  stored: z.boolean(),
  sha256: z.string(),
});
export type RoiAck = z.infer<typeof RoiAckSchema>;

/** GET /api/device/config and the retained MQTT message on ipp/{dev_id}/config. */
export const DeviceConfigSchema = z.object({
  dev_id: z.string(),
  /** Increases by one at every change made in the console. */
  version: z.number().int(),
  config: IppConfigSchema,
  updated_at: z.number().int(),
});
export type DeviceConfig = z.infer<typeof DeviceConfigSchema>;

/** MQTT ipp/{dev_id}/status: a device's state change and/or the configuration it applied. */
export const DeviceStatusSchema = z
  .object({
    key: z.string().min(1).max(200),
    state: z.enum(['online', 'offline']).optional(),
    applied_config: IppConfigSchema.partial().optional(),
    at: DeviceTimeSchema.optional(),
  })
  .strict();
export type DeviceStatus = z.infer<typeof DeviceStatusSchema>;

/** MQTT ipp/{dev_id}/telemetry: a telemetry sample plus the device key. */
export const MqttTelemetrySchema = TelemetrySampleSchema.extend({ key: z.string().min(1).max(200) }).strict();

export const MQTT_TOPICS = {
  telemetry: (devId: string) => `ipp/${devId}/telemetry`,
  status: (devId: string) => `ipp/${devId}/status`,
  config: (devId: string) => `ipp/${devId}/config`,
} as const;

/** Largest ROI image the server accepts, bytes (413 above). */
export const ROI_MAX_BYTES = 5 * 1024 * 1024;
