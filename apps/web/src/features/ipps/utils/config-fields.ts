import { DEFAULT_IPP_CONFIG, IPP_CONFIG_HINTS, IppConfigSchema, type IppConfig, type IppConfigKey } from '@ipp/contracts';

/** One editable setting of the instrument, its hard limits read from the contract the server enforces. */
export interface ConfigField {
  key: IppConfigKey;
  /** i18n key of the unit after the input; none for unitless values. */
  unitKey?: string;
  min: number;
  max: number;
  integer: boolean;
  /** Decimals of the spinner step and of the default in the hint (frame rate "3.0", spec §5). */
  decimals: number;
  defaultValue: number;
  recommended?: { min?: number; max?: number; values?: number[] };
}

const shape = IppConfigSchema.shape;

function field(key: IppConfigKey, unitKey?: string, decimals = 0): ConfigField {
  const schema = shape[key];
  return {
    key,
    unitKey,
    min: schema.minValue ?? Number.MIN_SAFE_INTEGER,
    max: schema.maxValue ?? Number.MAX_SAFE_INTEGER,
    integer: schema.isInt,
    decimals,
    defaultValue: DEFAULT_IPP_CONFIG[key],
    recommended: IPP_CONFIG_HINTS[key],
  };
}

export type ConfigSection = 'camera' | 'preprocessing' | 'wiper' | 'uvc';

/** The editable settings by form section (spec §3). */
export const CONFIG_SECTIONS: Readonly<Record<ConfigSection, readonly ConfigField[]>> = {
  camera: [field('exposure_us', 'ipps.unit.us'), field('frame_rate', 'ipps.unit.fps', 1), field('gain')],
  preprocessing: [
    field('focus_threshold'),
    field('size_filter_px', 'ipps.unit.px'),
    field('binarization_threshold'),
    field('background_count'),
    field('background_interval_s', 'ipps.unit.s'),
  ],
  wiper: [field('wiper_interval_min', 'ipps.unit.min'), field('wiper_strokes')],
  uvc: [
    field('uvc_port_frequency_hz', 'ipps.unit.hz'),
    field('uvc_port_duty_pct', 'ipps.unit.pct'),
    field('uvc_illuminator_frequency_hz', 'ipps.unit.hz'),
    field('uvc_illuminator_duty_pct', 'ipps.unit.pct'),
  ],
};

export const CONFIG_FIELDS: readonly ConfigField[] = Object.values(CONFIG_SECTIONS).flat();

export type LimitProblem =
  { kind: 'required' } | { kind: 'integer' } | { kind: 'min'; min: number } | { kind: 'max'; max: number };

/** Why the server would refuse this value, or null when it is inside the limits. */
export function limitProblem(config: ConfigField, value: number | null | undefined): LimitProblem | null {
  if (value === null || value === undefined || Number.isNaN(value)) return { kind: 'required' };
  if (config.integer && !Number.isInteger(value)) return { kind: 'integer' };
  if (value < config.min) return { kind: 'min', min: config.min };
  if (value > config.max) return { kind: 'max', max: config.max };
  return null;
}

/** Spec §5 recommendations are advice: a value outside them is allowed, and the form warns. */
export function isRecommended(config: ConfigField, value: number): boolean {
  const hint = config.recommended;
  if (!hint) return true;
  if (hint.values) return hint.values.includes(value);
  return (hint.min === undefined || value >= hint.min) && (hint.max === undefined || value <= hint.max);
}

export function formatConfigValue(config: ConfigField, value: number): string {
  return value.toFixed(config.decimals);
}

const FIELD_BY_KEY = new Map(CONFIG_FIELDS.map((config) => [config.key, config]));

/** A setting's value with its unit ("100 µs", "3.0 fps"); `unit` translates the unit's key. */
export function configValueText(key: IppConfigKey, value: number, unit: (unitKey: string) => string): string {
  const config = FIELD_BY_KEY.get(key)!;
  const text = formatConfigValue(config, value);
  return config.unitKey ? `${text} ${unit(config.unitKey)}` : text;
}

/** A full configuration from the form's values (every field has passed its limits by then). */
export function configOf(values: Partial<Record<IppConfigKey, number | null>>): IppConfig {
  return Object.fromEntries(CONFIG_FIELDS.map(({ key }) => [key, values[key] ?? DEFAULT_IPP_CONFIG[key]])) as IppConfig;
}
