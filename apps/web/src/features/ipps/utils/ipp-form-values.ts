import { DEFAULT_IPP_CONFIG, IppSaveBodySchema, type Ipp, type IppConfigKey, type IppSaveBody } from '@ipp/contracts';
import { CONFIG_FIELDS, configOf } from './config-fields';

export interface IppFormValues {
  dev_id: string;
  site_name: string;
  country: string;
  longitude: number | null;
  latitude: number | null;
  group_id: number | null;
  serial_number: string;
  pixel_size_um: number | null;
  /** IANA zone; null = from the longitude. */
  time_zone: string | null;
  config: Record<IppConfigKey, number | null>;
}

// The field checks are the contract's own, so the form and the server cannot disagree.
const shape = IppSaveBodySchema.shape;
export const DEV_ID_MAX = shape.dev_id.maxLength ?? 32;
export const SITE_NAME_MAX = shape.site_name.maxLength ?? 64;
export const SERIAL_NUMBER_MAX = shape.serial_number.maxLength ?? 64;
export const LONGITUDE = { min: shape.longitude.unwrap().minValue ?? -180, max: shape.longitude.unwrap().maxValue ?? 180 };
export const LATITUDE = { min: shape.latitude.unwrap().minValue ?? -90, max: shape.latitude.unwrap().maxValue ?? 90 };
const pixelSize = shape.pixel_size_um.unwrap().unwrap();
export const PIXEL_SIZE_UM = { min: pixelSize.minValue ?? 0.01, max: pixelSize.maxValue ?? 1000 };
export const isValidDevId = (value: string) => shape.dev_id.safeParse(value).success;

/** Names the server may put in a 1002's model.field, as the form's (dotted) field names. */
export const FORM_FIELDS: readonly string[] = [
  'dev_id',
  'site_name',
  'country',
  'longitude',
  'latitude',
  'group_id',
  'serial_number',
  'pixel_size_um',
  'time_zone',
  ...CONFIG_FIELDS.map(({ key }) => `config.${key}`),
];

/** The form's starting values: the instrument's, or the spec §5 defaults for a new one. */
export function formValuesOf(ipp: Ipp | undefined, defaultTeam: number | null): IppFormValues {
  return {
    dev_id: ipp?.dev_id ?? '',
    site_name: ipp?.site_name ?? '',
    country: ipp?.country ?? '',
    longitude: ipp?.longitude ?? null,
    latitude: ipp?.latitude ?? null,
    group_id: ipp?.group_id ?? defaultTeam,
    serial_number: ipp?.serial_number ?? '',
    pixel_size_um: ipp?.pixel_size_um ?? null,
    time_zone: ipp?.time_zone ?? null,
    config: { ...(ipp?.config ?? DEFAULT_IPP_CONFIG) },
  };
}

export function saveBodyOf(values: IppFormValues, id: number | undefined): IppSaveBody {
  return {
    ...(id === undefined ? {} : { id }),
    dev_id: values.dev_id.trim(),
    site_name: values.site_name.trim(),
    country: values.country,
    longitude: values.longitude ?? null,
    latitude: values.latitude ?? null,
    group_id: values.group_id ?? 0,
    serial_number: values.serial_number.trim(),
    pixel_size_um: values.pixel_size_um ?? null,
    time_zone: values.time_zone ?? null,
    config: configOf(values.config),
  };
}
