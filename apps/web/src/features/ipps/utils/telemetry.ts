import type { Ipp, IppConfigKey, MeasuredKey } from '@ipp/contracts';

/** Values of the instrument record itself (not of a telemetry sample), with how each is written. */
export type RecordKey =
  'online' | 'online_hours' | 'last_online' | 'images_today' | 'images_total' | 'last_update' | 'current_image';

export type TelemetryItem = { kind: 'measured'; key: MeasuredKey } | { kind: 'record'; key: RecordKey };

export type TelemetrySection = 'general' | 'wiper' | 'uvc' | 'lowPower' | 'carrier' | 'summary';

const m = (key: MeasuredKey): TelemetryItem => ({ kind: 'measured', key });
const r = (key: RecordKey): TelemetryItem => ({ kind: 'record', key });

/** The read-only values of each form section (spec §3): the record's state and the latest telemetry sample. */
export const TELEMETRY_SECTIONS: Readonly<Record<TelemetrySection, readonly TelemetryItem[]>> = {
  general: [
    r('online'),
    r('online_hours'),
    r('last_online'),
    m('temperature_c'),
    m('humidity_pct'),
    m('volume_5min_ml'),
    m('volume_total_l'),
    m('ram_mb'),
    m('storage_gb'),
    m('cpu_temp_c'),
    m('gpu_temp_c'),
  ],
  wiper: [m('wiper_state'), m('wiper_clean_count'), m('wiper_last_clean_at')],
  uvc: [
    m('uvc_port_frequency_hz'),
    m('uvc_port_duty_pct'),
    m('uvc_illuminator_frequency_hz'),
    m('uvc_illuminator_duty_pct'),
    m('uvc_voltage_v'),
    m('uvc_current_a'),
  ],
  lowPower: [m('lp_current_a'), m('lp_voltage_v'), m('lp_temperature_c')],
  carrier: [m('cb_current_a'), m('cb_voltage_v')],
  summary: [r('images_today'), r('images_total'), r('last_update'), r('current_image')],
};

/** Stable test ids of the values the end-to-end suite reads. */
export const RECORD_TEST_IDS: Readonly<Record<RecordKey, string>> = {
  online: 'ipp-telemetry-general-online',
  online_hours: 'ipp-online-hours',
  last_online: 'ipp-last-online',
  images_today: 'ipp-today-images',
  images_total: 'ipp-total-images',
  last_update: 'ipp-last-update',
  current_image: 'ipp-current-image',
};

export type ConfigState = 'applied' | 'pending';

/**
 * Whether the instrument runs a setting's desired value: pending while the key is in `pending`, applied
 * otherwise; null while the device has never reported its configuration (nothing to compare with).
 */
export function configState(ipp: Pick<Ipp, 'applied_config' | 'pending'> | undefined, key: IppConfigKey): ConfigState | null {
  if (!ipp || ipp.applied_config === null) return null;
  return ipp.pending.includes(key) ? 'pending' : 'applied';
}

export type ConfigSync = 'unknown' | 'applied' | 'pending';

/** Whether the instrument runs its saved configuration: not known yet, all applied, or some settings pending. */
export function configSyncOf(ipp: Pick<Ipp, 'applied_config' | 'pending'>): ConfigSync {
  if (ipp.applied_config === null) return 'unknown';
  return ipp.pending.length === 0 ? 'applied' : 'pending';
}
