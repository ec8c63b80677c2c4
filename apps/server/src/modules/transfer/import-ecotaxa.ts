import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { RoisService } from '../rois/rois.service.ts';
import { taxaOf } from '../taxa/taxa.service.ts';
import { IMPORT_ROWS_MAX } from '@ipp/contracts';
import { CSV_BOM, csvRecords } from '@ipp/contracts/csv';
import { ECOTAXA_DIALECT, REVIEW_NAMES } from './ecotaxa.ts';
import * as transferRepo from './transfer.repository.ts';
import { stationByDevId } from '../access/access.repository.ts';
import { allClasses } from '../classes/classes.repository.ts';
import {
  ImportError,
  captureTimeOf,
  classForFolder,
  classOfRoi,
  fileInTeamLibrary,
  noteConflict,
  noteFailure,
  type ImportAs,
} from './import-folder.ts';
import type { ImportReport } from './import-folder.ts';

/** A TSV of an EcoTaxa export may hold this many bytes (a million objects' rows are about 300 MB; ours 100k max). */
const TSV_MAX = 64 * 1024 * 1024;

export interface EcotaxaImportOptions {
  /** The unpacked export: one or more `*.tsv` files, each naming its images relative to its own folder. */
  dir: string;
  devId: string;
  /** reference: validated objects are also filed in the team library under their class. */
  as: ImportAs;
  /** Micrometres per pixel of every image of the export (the import's field); else each row's acq_pixel_size_um. */
  pixelSizeUm?: number;
  onProgress?: (done: number, total: number, file: string) => void;
}

/** What one row says (docs/ecotaxa.md "Import"). */
export interface EcotaxaObject {
  /** The TSV and line it came from, for the report. */
  where: string;
  image: string;
  capturedAt: number | null;
  status: 'validated' | 'predicted' | 'dubious' | '';
  category: string;
  /** object_console_class: the class the console's own export came from (its round trip); '' elsewhere. */
  consoleClass: string;
  confidence: number | null;
  /** hi (by hand), ai (by a machine) or ui, where the table says (the console's own exports do); else ''. */
  source: 'hi' | 'ai' | 'ui' | '';
  deviceLabel: number;
  /**
   * The instrument's own size in pixels, as the console exported it: object_instrument_area (object_area in the
   * console's exports before issue 37, which also carry object_label_source); other tables' objects are measured.
   */
  areaPx: number | null;
  review: 0 | 1 | 2 | 3;
  /** acq_pixel_size_um: micrometres per pixel of the acquisition (null: none given). */
  pixelSizeUm: number | null;
  personName: string;
  personEmail: string;
  annotatedAt: number | null;
}

export interface EcotaxaImportReport extends ImportReport {
  ecotaxa: {
    rows: number;
    validated: number;
    predicted: number;
    dubious: number;
    unclassified: number;
    /** Annotators of validated objects that match no user of the station's team (kept without a name). */
    people_unmatched: string[];
  };
}

const STATUS: Record<string, EcotaxaObject['status']> = {
  validated: 'validated',
  v: 'validated',
  predicted: 'predicted',
  p: 'predicted',
  dubious: 'dubious',
  d: 'dubious',
};

/** Text of a TSV: UTF-8 (with or without its byte-order mark); a file that is not valid UTF-8 is read as Latin-1, as EcoTaxa does. */
export function decodeTsv(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (text.startsWith(CSV_BOM)) return text.slice(1);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** YYYYMMDD or YYYY-MM-DD, and HHMMSS or HH:MM:SS (UTC, as EcoTaxa writes them): ms, or null if unreadable. */
export function timeOf(date: string, time: string): number | null {
  const d = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(date.trim());
  if (!d) return null;
  const t = /^(\d{2}):?(\d{2}):?(\d{2})?$/.exec(time.trim() || '000000');
  if (!t) return null;
  const [y, mo, day, h, mi, s] = [d[1], d[2], d[3], t[1], t[2], t[3] ?? '0'].map(Number) as number[];
  const ms = Date.UTC(y!, mo! - 1, day!, h!, mi!, s!);
  const back = new Date(ms);
  if (back.getUTCDate() !== day || back.getUTCMonth() !== mo! - 1 || h! > 23 || mi! > 59 || s! > 59) return null;
  return ms;
}

/**
 * The objects of one TSV: a header of column names, an optional type line ([t]/[f]), one row per object. Rows that
 * cannot be read are answered in `failed` with the line and why.
 */
export function parseEcotaxaTsv(
  text: string,
  name: string,
  /** The most object rows to read: one more is refused (ImportError tooManyRows) before the rest is read. */
  maxRows = IMPORT_ROWS_MAX,
): { objects: EcotaxaObject[]; failed: { file: string; reason: string }[] } {
  // One record per line: EcoTaxa's tables have no quoting.
  const records = csvRecords(text, ECOTAXA_DIALECT);
  const top = records.next();
  const header = (top.done ? [''] : top.value).map((h) => h.trim().toLowerCase());
  const col = (n: string) => header.indexOf(n);
  const at = {
    image: col('img_file_name'),
    date: col('object_date'),
    time: col('object_time'),
    status: col('object_annotation_status'),
    category: col('object_annotation_category'),
    consoleClass: col('object_console_class'),
    confidence: col('object_confidence'),
    source: col('object_label_source'),
    device: col('object_device_label'),
    // The console's exports since issue 37 name the instrument's count object_instrument_area; earlier ones (known by
    // object_label_source) wrote it as object_area. Another tool's object_area is its own measure: not taken.
    area:
      col('object_instrument_area') >= 0
        ? col('object_instrument_area')
        : col('object_label_source') >= 0
          ? col('object_area')
          : -1,
    review: col('object_review'),
    pixel: col('acq_pixel_size_um'),
    person: col('object_annotation_person_name'),
    email: col('object_annotation_person_email'),
    adate: col('object_annotation_date'),
    atime: col('object_annotation_time'),
  };
  if (at.image < 0) throw new ImportError(`${name}: no img_file_name column (not an EcoTaxa table)`);
  const objects: EcotaxaObject[] = [];
  const failed: { file: string; reason: string }[] = [];
  let line = 1;
  for (const cells of records) {
    line++;
    // The optional type line ([t] text, [f] number), then the objects; empty lines are skipped.
    if (line === 2 && cells.every((c) => /^\[[tf]\]$/i.test(c.trim()))) continue;
    if (cells.every((c) => c.trim() === '')) continue;
    if (objects.length + failed.length >= maxRows)
      throw new ImportError(`more than ${IMPORT_ROWS_MAX} object rows (${name}:${line})`, 'tooManyRows');
    const get = (index: number) => (index < 0 ? '' : (cells[index] ?? '').trim());
    const where = `${name}:${line}`;
    const image = get(at.image);
    if (image === '') {
      failed.push({ file: where, reason: 'img_file_name is empty' });
      continue;
    }
    const rawStatus = get(at.status).toLowerCase();
    const status = STATUS[rawStatus] ?? '';
    if (rawStatus !== '' && !(rawStatus in STATUS)) {
      failed.push({ file: where, reason: `object_annotation_status "${get(at.status)}" is not predicted, validated or dubious` });
      continue;
    }
    // EcoTaxa's display names qualify an ambiguous taxon by its parent: "Oithona<Oithonidae".
    const category = get(at.category).split('<')[0]!.trim();
    if (status !== '' && category === '') {
      failed.push({ file: where, reason: `object_annotation_status "${rawStatus}" without object_annotation_category` });
      continue;
    }
    const confidence = Number.parseFloat(get(at.confidence));
    const device = Number.parseInt(get(at.device), 10);
    const area = Number.parseFloat(get(at.area));
    const pixel = Number.parseFloat(get(at.pixel));
    objects.push({
      where,
      image,
      capturedAt: at.date < 0 ? null : timeOf(get(at.date), get(at.time)),
      status,
      category,
      consoleClass: get(at.consoleClass),
      confidence: Number.isFinite(confidence) && confidence >= 0 && confidence <= 1 ? confidence : null,
      source: (['hi', 'ai', 'ui'] as const).find((v) => v === get(at.source).toLowerCase()) ?? '',
      deviceLabel: Number.isInteger(device) && device > 0 && device <= 999 ? device : 0,
      areaPx: at.area >= 0 && Number.isFinite(area) && area > 0 ? Math.round(area) : null,
      review: Math.max(0, REVIEW_NAMES.indexOf(get(at.review).toLowerCase() as never)) as EcotaxaObject['review'],
      pixelSizeUm: Number.isFinite(pixel) && pixel >= 0.01 && pixel <= 1000 ? pixel : null,
      personName: get(at.person),
      personEmail: get(at.email),
      annotatedAt: at.adate < 0 ? null : timeOf(get(at.adate), get(at.atime)),
    });
  }
  return { objects, failed };
}

/** Every `*.tsv` under a folder (an EcoTaxa export may hold one per sample), in name order. */
async function tsvFilesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string) => {
    for (const e of (await fs.readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.') || e.name === '__MACOSX') continue;
      const full = path.join(folder, e.name);
      if (e.isDirectory()) await walk(full);
      else if (/\.tsv$/i.test(e.name)) out.push(full);
    }
  };
  await walk(dir);
  return out;
}

/** The station's team's users, to give a validated object's annotator back by e-mail, name or account. */
async function peopleOf(k: Kysely<Database>, team: number) {
  const users = await transferRepo.teamUsers(k, team);
  return (name: string, email: string): number | null => {
    const e = email.toLowerCase();
    const byEmail = e ? users.find((u) => u.email.toLowerCase() === e) : undefined;
    const byName = name ? users.find((u) => u.name === name || u.account === name) : undefined;
    return (byEmail ?? byName)?.id ?? null;
  };
}

/**
 * Imports an EcoTaxa export (docs/ecotaxa.md "Import") into one station, through the instruments' ingest path:
 * validated objects become human-identified ROIs of their class (with their annotator, where one of the team's users
 * is that person, and the annotation time), predicted objects machine labels with their score, dubious objects
 * their label, rejected in review (unless the table's `object_review` says otherwise), objects without a status
 * unidentified. The label given is kept: no model relabels an imported object. A category is found among the
 * classes as an import folder is (by name, with or without its three digits), else created. Re-running it is safe:
 * images already stored are duplicates, and a duplicate that carries another label is reported as a conflict.
 */
export async function importEcotaxa(
  db: Db,
  rois: RoisService,
  clock: Clock,
  opts: EcotaxaImportOptions,
): Promise<EcotaxaImportReport> {
  const k = db.kysely;
  const station = await stationByDevId(k, opts.devId);
  if (!station) throw new ImportError(`no station with dev_id ${opts.devId}`);
  const tables = await tsvFilesOf(opts.dir);
  if (tables.length === 0) throw new ImportError('no EcoTaxa table (*.tsv) in the export', 'noTable');
  const report: EcotaxaImportReport = {
    station: opts.devId,
    classes: [],
    imported: 0,
    duplicates: 0,
    conflicts: [],
    conflicts_total: 0,
    failed: [],
    failed_total: 0,
    ecotaxa: { rows: 0, validated: 0, predicted: 0, dubious: 0, unclassified: 0, people_unmatched: [] },
  };
  const work: { object: EcotaxaObject; file: string }[] = [];
  for (const table of tables) {
    const rel = path.relative(opts.dir, table);
    const stat = await fs.stat(table);
    if (stat.size > TSV_MAX) throw new ImportError(`${rel}: larger than ${TSV_MAX / 1024 / 1024} MB`);
    // The rows of all tables together are bounded: a table of too many is refused here, before any image is read.
    const parsed = parseEcotaxaTsv(decodeTsv(await fs.readFile(table)), rel, IMPORT_ROWS_MAX - report.ecotaxa.rows);
    for (const failure of parsed.failed) noteFailure(report, failure);
    report.ecotaxa.rows += parsed.objects.length + parsed.failed.length;
    const base = path.dirname(table);
    for (const object of parsed.objects) {
      const file = path.resolve(base, object.image);
      if (!file.startsWith(path.resolve(opts.dir) + path.sep)) {
        noteFailure(report, { file: object.where, reason: `img_file_name ${object.image} is outside the export` });
        continue;
      }
      work.push({ object, file });
    }
  }
  if (work.length === 0 && report.failed_total === 0) throw new ImportError('the EcoTaxa table has no objects', 'noTable');
  const classes = new Map<
    string,
    { id: number; name: string; created: boolean; label: number | null; images: number; duplicates: number }
  >();
  const known = await allClasses(k);
  const taxa = await taxaOf(db, station.group_id, known);
  /**
   * The class of a category: the console's own class where its export names one this console has; else the class
   * the station's team maps to that taxon (docs/ecotaxa.md "Taxonomy"; several: a system class first, then the lowest
   * label index); else as an import folder's name (with or without its digits), else a new class.
   */
  const classOf = async (object: EcotaxaObject) => {
    const key = `${object.consoleClass}\t${object.category}`;
    let cls = classes.get(key);
    if (!cls) {
      const wanted = object.category.toLowerCase();
      const exact = known.find((c) => c.name === object.consoleClass);
      const mapped = known
        .filter((c) => taxa.get(c.id)?.name.toLowerCase() === wanted)
        .sort((a, b) => b.system - a.system || (a.label_index ?? 1000) - (b.label_index ?? 1000))[0];
      const found =
        (exact ?? mapped)
          ? { id: (exact ?? mapped)!.id, name: (exact ?? mapped)!.name, created: false }
          : await k
              .transaction()
              .execute((trx) => classForFolder(trx, object.category, clock(), station.group_id, db.dialect === 'postgres'));
      // A class created here has the label index its name starts with (classForFolder names it so).
      const label = known.find((c) => c.id === found.id)?.label_index ?? Number(found.name.slice(0, 3));
      cls = { ...found, label, images: 0, duplicates: 0 };
      classes.set(key, cls);
    }
    return cls;
  };
  const personOf = await peopleOf(k, station.group_id);
  const unmatched = new Set<string>();
  const library = new Map<string, number[]>();
  let done = 0;
  for (const { object, file } of work) {
    try {
      const data = await fs.readFile(file).catch(() => {
        throw new Error(`image ${object.image} is not in the export`);
      });
      const cls = object.status === '' ? null : await classOf(object);
      // By hand: what the console's own export says; in other tables, validated and dubious (a person's verdicts).
      const human = object.source ? object.source === 'hi' : object.status === 'validated' || object.status === 'dubious';
      let labelledBy: number | null = null;
      if (human && (object.personName || object.personEmail)) {
        labelledBy = personOf(object.personName, object.personEmail);
        if (labelledBy === null) unmatched.add(object.personEmail || object.personName);
      }
      const result = await rois.ingest({
        ippId: station.id,
        capturedAt: object.capturedAt ?? captureTimeOf(path.basename(file), (await fs.stat(file)).mtimeMs),
        labelIndex: object.deviceLabel || (cls && !human ? (cls.label ?? 0) : 0),
        confidence: human ? null : object.confidence,
        // The console's own export carries the size its ROI had (an instrument's own measure); others are measured.
        sizePx: object.areaPx,
        data,
        // The image's own pixel size: the import's, else its row's where that differs from the station's.
        pixelSizeUm:
          opts.pixelSizeUm ??
          (object.pixelSizeUm !== null && object.pixelSizeUm !== station.pixel_size_um ? object.pixelSizeUm : null),
        keepLabel: true,
        ...(cls && human ? { hiClassId: cls.id, labelledBy, labelledAt: object.annotatedAt } : {}),
        ...(cls && !human ? { aiClassId: cls.id } : {}),
        reviewStatus: object.review || (object.status === 'dubious' ? 3 : 0),
        reviewedAt: object.review >= 2 || object.status === 'dubious' ? (object.annotatedAt ?? clock()) : null,
      });
      // A class counts the images this import stored under it, and apart those already there (issue 37).
      if (cls && result.stored) cls.images++;
      else if (cls) cls.duplicates++;
      const state = object.status === '' ? 'unclassified' : object.status;
      report.ecotaxa[state]++;
      if (result.stored) report.imported++;
      else {
        report.duplicates++;
        const kept = await classOfRoi(k, result.roiId);
        if (kept.id !== (cls?.id ?? null))
          noteConflict(report, { file: object.where, class: cls?.name ?? '', kept: kept.name, roi_id: result.roiId });
      }
      if (cls && human && opts.as === 'reference') library.set(cls.name, [...(library.get(cls.name) ?? []), result.roiId]);
    } catch (error) {
      noteFailure(report, { file: object.where, reason: error instanceof Error ? error.message : String(error) });
    }
    opts.onProgress?.(++done, work.length, object.image);
  }
  for (const [title, ids] of library) await fileInTeamLibrary(k, station.group_id, title, ids, clock());
  // One line per category and class (a category that two console classes answered is listed twice).
  report.classes = [...classes].map(([key, c]) => ({
    folder: key.split('\t')[1]!,
    class: c.name,
    created: c.created,
    images: c.images,
    duplicates: c.duplicates,
  }));
  report.ecotaxa.people_unmatched = [...unmatched].sort();
  return report;
}
