import type { Measured, MeasuredKey } from '@ipp/contracts';
import { formatTime } from './format';

export type MeasuredUnit = 'celsius' | 'rh' | 'ml' | 'l' | 'mb' | 'gb' | 'hz' | 'pct' | 'v' | 'a';

interface MeasuredField {
  /** i18n `measured.unit.<unit>`; none for states, counts and times. */
  unit?: MeasuredUnit;
  format: 'number' | 'count' | 'time' | 'wiper';
  /** Most decimals shown (trailing zeros dropped). */
  decimals?: number;
}

const num = (unit: MeasuredUnit, decimals: number): MeasuredField => ({ unit, format: 'number', decimals });

/** How each measured value of the device protocol is shown. */
export const MEASURED_FIELDS: Readonly<Record<MeasuredKey, MeasuredField>> = {
  temperature_c: num('celsius', 1),
  humidity_pct: num('rh', 1),
  volume_5min_ml: num('ml', 1),
  volume_total_l: num('l', 2),
  ram_mb: num('mb', 0),
  storage_gb: num('gb', 1),
  cpu_temp_c: num('celsius', 1),
  gpu_temp_c: num('celsius', 1),
  wiper_state: { format: 'wiper' },
  wiper_clean_count: { format: 'count' },
  wiper_last_clean_at: { format: 'time' },
  uvc_port_frequency_hz: num('hz', 1),
  uvc_port_duty_pct: num('pct', 1),
  uvc_illuminator_frequency_hz: num('hz', 1),
  uvc_illuminator_duty_pct: num('pct', 1),
  uvc_voltage_v: num('v', 2),
  uvc_current_a: num('a', 3),
  lp_current_a: num('a', 3),
  lp_voltage_v: num('v', 2),
  lp_temperature_c: num('celsius', 1),
  cb_current_a: num('a', 3),
  cb_voltage_v: num('v', 2),
};

export const NONE = '—';

export interface MeasuredText {
  /** `measured.unit.<unit>` / `measured.wiper.<state>` in the interface language. */
  t: (key: string) => string;
  formatCount: (count: number) => string;
}

/** One measured value with its unit, as the console shows it; '—' when the device did not report it. */
export function formatMeasured(key: MeasuredKey, value: Measured[MeasuredKey] | undefined, text: MeasuredText): string {
  if (value === null || value === undefined) return NONE;
  const field = MEASURED_FIELDS[key];
  if (typeof value === 'string') return field.format === 'wiper' ? text.t(`measured.wiper.${value}`) : value;
  switch (field.format) {
    case 'count':
      return text.formatCount(value);
    case 'time':
      return formatTime(value);
    default: {
      const shown = String(Number(value.toFixed(field.decimals ?? 2)));
      return field.unit ? `${shown} ${text.t(`measured.unit.${field.unit}`)}` : shown;
    }
  }
}
