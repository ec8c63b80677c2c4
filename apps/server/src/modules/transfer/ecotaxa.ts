import sharp from 'sharp';
import type { ImageType } from '../../storage/files.ts';
import type * as browse from '../identify/browse.repository.ts';
import { IPP_CONFIG_KEYS, type Taxon } from '@ipp/contracts';
import { CSV_BOM, csvRow, type CsvWriteOptions } from '@ipp/contracts/csv';
import type { ConfigInForce } from '../ipps/config-in-force.ts';
import type { Measures } from '../recognition/features.ts';
import { cellNumber, physicalOf } from '../recognition/physical.ts';

/**
 * The EcoTaxa export's table (docs/ecotaxa.md): one row per ROI, written the way EcoTaxa's import validation reads it
 * (ecotaxa_back py/BO/TSVFile.py). UTF-8 with a byte-order mark, since EcoTaxa reads a file without one as Latin-1;
 * a header of lower-case names, then the type line ([t] text, [f] number); every row has every cell, none holds a
 * tab or a line break.
 *
 * Levels: the station and UTC day is the sample; the acquisition is that day under one configuration version (an EcoTaxa
 * acquisition belongs to exactly one sample), its acq_ fields the instrument's settings in force at capture
 * (modules/ipps/config-in-force.ts); the ROI is the object.
 */
export const ECOTAXA_TSV = 'ecotaxa_export.tsv';
/**
 * The table's dialect: tabs, no quotes (a cell's tabs and line breaks become spaces) and no formula guard, since
 * EcoTaxa reads the values, not a spreadsheet.
 */
export const ECOTAXA_DIALECT = { delimiter: '\t', quotes: false, formulaGuard: false } as const satisfies CsvWriteOptions;

export const ECOTAXA_COLUMNS: readonly (readonly [string, '[t]' | '[f]'])[] = [
  ['img_file_name', '[t]'],
  ['object_id', '[t]'],
  ['object_lat', '[f]'],
  ['object_lon', '[f]'],
  ['object_date', '[t]'],
  ['object_time', '[t]'],
  ['object_annotation_status', '[t]'],
  ['object_annotation_category', '[t]'],
  ['object_annotation_person_name', '[t]'],
  ['object_annotation_person_email', '[t]'],
  ['object_annotation_date', '[t]'],
  ['object_annotation_time', '[t]'],
  // EcoTaxa has no column for a prediction's score (it gives imported predictions 1.0): ours travels as a field.
  ['object_confidence', '[f]'],
  ['object_label_source', '[t]'],
  ['object_device_label', '[f]'],
  ['object_review', '[t]'],
  // The segmented object's area in pixels: the one every µm figure below is computed from (object_area_um2 =
  // object_area × acq_pixel_size_um²). The instrument's own pixel count is object_instrument_area (issue 37).
  ['object_area', '[f]'],
  ['object_width', '[f]'],
  ['object_height', '[f]'],
  // The segmented object in physical units, where the station has a pixel size (empty otherwise).
  ['object_esd_um', '[f]'],
  ['object_area_um2', '[f]'],
  ['object_biovolume_mm3', '[f]'],
  ['sample_id', '[t]'],
  ['sample_volume_l', '[t]'], // EcoTaxa keeps sample fields as text,
  ['acq_id', '[t]'],
  ['acq_instrument', '[t]'],
  ['acq_pixel_size_um', '[t]'],
  // The configuration version in force at capture and its settings; whether the device had confirmed running it by
  // then is the object's (one acquisition can hold both).
  ['acq_config_version', '[t]'],
  ...IPP_CONFIG_KEYS.map((key) => [`acq_${key}`, '[t]'] as const),
  ['object_config_state', '[t]'],
  // The taxon's WoRMS AphiaID where the team's mapping has one, and the console's own class (for a round trip).
  ['object_aphia_id', '[f]'],
  ['object_console_class', '[t]'],
  // The size the instrument reported (its own pixel count, by its own threshold): not the object_area above.
  ['object_instrument_area', '[f]'],
];

export interface EcotaxaStation {
  latitude: number | null;
  longitude: number | null;
  /** Micrometres per pixel; null = not set. */
  pixel_size_um: number | null;
}

/** What the export knows of a sample (a station on one UTC day) and of the ROI's acquisition in it. */
export interface EcotaxaSample {
  /** Litres of water the station sampled that day (telemetry rollups); null when it reported none. */
  volumeL: number | null;
  /** The settings in force at the ROI's capture; null = before the station's configuration history starts. */
  acquisition: ConfigInForce | null;
}

/** The UTC day of a capture time: its start (ms) and its YYYYMMDD. */
export function utcDayOf(time: number): { start: number; ymd: string } {
  const start = Math.floor(time / 86_400_000) * 86_400_000;
  return { start, ymd: ymd(new Date(start).toISOString()) };
}

/** The review states by their number (0 none, 1 waiting, 2 approved, 3 rejected), as exports write them. */
export const REVIEW_NAMES = ['', 'pending', 'approved', 'rejected'] as const;

/** A class's name without the label index in front ("001Copepod" → "Copepod"). */
export const taxonOf = (className: string) => className.replace(/^\d{3}/, '');

/** The category EcoTaxa gets: the taxon the station's team maps the class to, else the class's name without digits. */
export const categoryOf = (className: string, taxon: Taxon | null) => taxon?.name ?? taxonOf(className);

/**
 * EcoTaxa's annotation status of an ROI: a hand label is validated, or dubious once a reviewer rejected it; a
 * machine label is predicted (dubious if rejected). Without a class the console knows (unidentified, or an on-device
 * label index no class carries) there is no status, since EcoTaxa refuses a status without a category.
 */
export function annotationStatusOf(r: Pick<browse.RoiItemRow, 'hi' | 'class_name' | 'review_status'>) {
  if (!r.class_name) return '';
  if (r.review_status === 3) return 'dubious';
  return r.hi === 1 ? 'validated' : 'predicted';
}

const ymd = (iso: string) => iso.slice(0, 10).replace(/-/g, '');
const hms = (iso: string) => iso.slice(11, 19).replace(/:/g, '');

/**
 * One ROI's row. `labellerEmail` is the e-mail of the person who gave its hand label: EcoTaxa finds its user by
 * name or by e-mail.
 */
export function ecotaxaLine(
  r: browse.RoiItemRow & { measures: Measures | null },
  file: string,
  s: EcotaxaStation,
  sample: EcotaxaSample,
  labellerEmail: string | null,
  taxon: Taxon | null,
): string {
  const iso = new Date(Number(r.roi_time)).toISOString();
  const status = annotationStatusOf(r);
  const human = status !== '' && r.hi === 1;
  const labelled = human && r.labelled_at !== null ? new Date(Number(r.labelled_at)).toISOString() : null;
  const day = `${r.dev_id}_${ymd(iso)}`;
  const acq = sample.acquisition;
  // The ROI's pixel size: its own where an import gave one (issue 37), else the station's (the item row says which).
  const pixel = r.pixel_size_um;
  const physical = physicalOf(r.measures, pixel);
  // EcoTaxa keeps one pixel size per acquisition: images of another instrument's pixel size are an acquisition apart.
  const acqId = (acq ? `${day}_v${acq.version}` : day) + (pixel !== s.pixel_size_um ? `_px${pixel}` : '');
  const cells = [
    file,
    `${r.dev_id}_${r.id}`,
    s.latitude,
    s.longitude,
    ymd(iso),
    hms(iso),
    status,
    status ? categoryOf(r.class_name!, taxon) : '',
    // EcoTaxa keeps who and when for validated objects only.
    human ? r.labelled_by_name : '',
    human ? labellerEmail : '',
    labelled && ymd(labelled),
    labelled && hms(labelled),
    r.hi === 1 ? '' : r.confidence,
    r.hi === 1 ? 'hi' : r.roi_labelindex === 0 ? 'ui' : 'ai',
    r.roi_labelindex === 0 ? '' : r.roi_labelindex,
    REVIEW_NAMES[r.review_status] ?? '',
    cellNumber(r.measures?.area_px),
    r.width,
    r.height,
    cellNumber(physical?.esd_um),
    cellNumber(physical?.area_um2),
    cellNumber(physical?.biovolume_mm3),
    day,
    sample.volumeL === null ? '' : Number(sample.volumeL.toPrecision(6)),
    acqId,
    'IPP',
    pixel,
    acq?.version,
    ...IPP_CONFIG_KEYS.map((key) => acq?.config[key]),
    acq ? (acq.confirmed ? 'applied' : 'sent') : '',
    status ? taxon?.aphia_id : '',
    r.class_name,
    r.size_px,
  ];
  return csvRow(cells, ECOTAXA_DIALECT);
}

export function ecotaxaHead(): string {
  const names = ECOTAXA_COLUMNS.map((c) => c[0]);
  const types = ECOTAXA_COLUMNS.map((c) => c[1]);
  return CSV_BOM + csvRow(names, ECOTAXA_DIALECT) + '\n' + csvRow(types, ECOTAXA_DIALECT);
}

/**
 * The image as EcoTaxa reads it: PNG and JPEG go as stored; WebP, which EcoTaxa refuses (it reads PNG, JPEG and GIF
 * only, by content), is converted to PNG without loss.
 */
export async function ecotaxaImage(data: Buffer, mime: string): Promise<{ data: Buffer; extension: string }> {
  const type = mime as ImageType;
  if (type === 'image/png') return { data, extension: 'png' };
  if (type === 'image/jpeg') return { data, extension: 'jpg' };
  return { data: await sharp(data).png().toBuffer(), extension: 'png' };
}
