import { z } from 'zod';

export const WIPER_STATES = ['idle', 'cleaning', 'fault'] as const;
export type WiperState = (typeof WIPER_STATES)[number];

/** The latest sample as stored: every measured key, null where the device did not report it. */
export const MeasuredSchema = z.object({
  at: z.number().int(),
  temperature_c: z.number().nullable(),
  humidity_pct: z.number().nullable(),
  volume_5min_ml: z.number().nullable(),
  volume_total_l: z.number().nullable(),
  ram_mb: z.number().nullable(),
  storage_gb: z.number().nullable(),
  cpu_temp_c: z.number().nullable(),
  gpu_temp_c: z.number().nullable(),
  wiper_state: z.enum(WIPER_STATES).nullable(),
  wiper_clean_count: z.number().int().nullable(),
  wiper_last_clean_at: z.number().int().nullable(),
  uvc_port_frequency_hz: z.number().nullable(),
  uvc_port_duty_pct: z.number().nullable(),
  uvc_illuminator_frequency_hz: z.number().nullable(),
  uvc_illuminator_duty_pct: z.number().nullable(),
  uvc_voltage_v: z.number().nullable(),
  uvc_current_a: z.number().nullable(),
  lp_current_a: z.number().nullable(),
  lp_voltage_v: z.number().nullable(),
  lp_temperature_c: z.number().nullable(),
  cb_current_a: z.number().nullable(),
  cb_voltage_v: z.number().nullable(),
});
export type Measured = z.infer<typeof MeasuredSchema>;
