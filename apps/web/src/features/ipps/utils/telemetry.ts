import type { Ipp } from '@ipp/contracts';

/** How a measured value is written: a number with its unit, a count (spec §9), a time, a file size, or text. */
export type TelemetryFormat = 'number' | 'count' | 'time' | 'size' | 'text' | 'status';

export interface TelemetryItem {
  key: string;
  unitKey?: string;
  format: TelemetryFormat;
}

export type TelemetrySection = 'general' | 'wiper' | 'uvc' | 'lowPower' | 'carrier' | 'summary';

const item = (key: string, format: TelemetryFormat = 'number', unitKey?: string): TelemetryItem => ({ key, format, unitKey });

/** The read-only values of each form section (spec §3), reported by the instrument. */
export const TELEMETRY_SECTIONS: Readonly<Record<TelemetrySection, readonly TelemetryItem[]>> = {
  general: [
    item('online', 'status'),
    item('online_hours', 'number', 'ipps.unit.hours'),
    item('last_online', 'time'),
    item('internal_temperature', 'number', 'ipps.unit.celsius'),
    item('internal_humidity', 'number', 'ipps.unit.rh'),
    item('sample_volume_5min', 'number', 'ipps.unit.ml'),
    item('sample_volume_total', 'number', 'ipps.unit.l'),
    item('ram', 'number', 'ipps.unit.mb'),
    item('storage', 'number', 'ipps.unit.gb'),
    item('cpu_temperature', 'number', 'ipps.unit.celsius'),
    item('gpu_temperature', 'number', 'ipps.unit.celsius'),
  ],
  wiper: [item('wiper_status', 'text'), item('wiper_total', 'count'), item('wiper_last', 'time')],
  uvc: [item('uvc_voltage', 'number', 'ipps.unit.v'), item('uvc_current', 'number', 'ipps.unit.a')],
  lowPower: [
    item('current', 'number', 'ipps.unit.a'),
    item('voltage', 'number', 'ipps.unit.v'),
    item('temperature', 'number', 'ipps.unit.celsius'),
  ],
  carrier: [item('current', 'number', 'ipps.unit.a'), item('voltage', 'number', 'ipps.unit.v')],
  summary: [
    item('images_today', 'count'),
    item('images_total', 'count'),
    item('last_update', 'time'),
    item('current_image', 'size'),
  ],
};

export type TelemetryValue = number | string | boolean | null;

/**
 * The values known today: online state and wiper status come with the instrument record; the others
 * arrive with device telemetry (a later issue) and read '—' until then.
 */
export function telemetryOf(section: TelemetrySection, ipp: Ipp | undefined): Record<string, TelemetryValue> {
  if (!ipp) return {};
  if (section === 'general') return { online: ipp.online, last_online: ipp.last_online_at };
  if (section === 'wiper') return { wiper_status: ipp.wiper_status };
  return {};
}
