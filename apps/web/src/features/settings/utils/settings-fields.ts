import { SettingsSchema, type Settings, type SettingsSaveBody } from '@ipp/contracts';

type NumberKey = {
  [K in keyof Settings]: Settings[K] extends number ? K : never;
}[keyof Settings];

export interface NumberField {
  name: NumberKey;
  /** i18n key of the unit shown after the input. */
  unitKey: string;
  min: number;
  max: number;
}

const shape = SettingsSchema.shape;

// Ranges come from the contract schema, so the form offers exactly what the server accepts.
function numberField(name: NumberKey, unitKey: string): NumberField {
  return { name, unitKey, min: shape[name].minValue ?? 0, max: shape[name].maxValue ?? Number.MAX_SAFE_INTEGER };
}

export const TEAM_FIELDS: readonly NumberField[] = [
  numberField('team_max_admins', 'settings.unitPeople'),
  numberField('team_max_users', 'settings.unitPeople'),
];

export const SESSION_FIELDS: readonly NumberField[] = [numberField('idle_minutes', 'settings.unitMinutes')];

export const DEVICE_FIELDS: readonly NumberField[] = [
  numberField('offline_minutes', 'settings.unitMinutes'),
  numberField('recycle_retention_days', 'settings.unitDays'),
  numberField('wall_max', 'settings.unitRois'),
];

export const SITE_TITLE_MAX = shape.site_title.maxLength ?? 64;

/** The map tile template check is the contract's: '' or an http(s) URL holding {z}, {x} and {y}. */
export const isValidTileUrl = (value: string) => shape.map_tile_url.safeParse(value.trim()).success;

/** What the form edits: every setting but the logo, which has its own upload. */
export type SettingsFormValues = Omit<Settings, 'logo'>;

const EDITABLE: readonly (keyof SettingsFormValues)[] = [
  'team_max_admins',
  'team_max_users',
  'idle_minutes',
  'default_language',
  'site_title',
  'offline_minutes',
  'recycle_retention_days',
  'wall_max',
  'map_tile_url',
];

export function formValuesOf(settings: Settings): SettingsFormValues {
  return Object.fromEntries(EDITABLE.map((key) => [key, settings[key]])) as SettingsFormValues;
}

/** Only the settings that differ from the loaded ones are sent, so one save never undoes another's. */
export function changedSettings(original: Settings, values: SettingsFormValues): SettingsSaveBody {
  const body: Record<string, unknown> = {};
  for (const key of EDITABLE) {
    const raw = values[key];
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (value !== original[key]) body[key] = value;
  }
  return body as SettingsSaveBody;
}
