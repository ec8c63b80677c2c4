import fs from 'node:fs/promises';
import path from 'node:path';
import { CATEGORY, CLASS_NAME_PATTERN, IMPORT_LISTED_MAX } from '@ipp/contracts';
import { CSV_BOM, csvRecords } from '@ipp/contracts/csv';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { CLASS_LIMIT_PER_TEAM } from '../classes/classes.ts';
import * as folders from '../identify/folders.repository.ts';
import { idChunks } from '../../db/query-helpers.ts';
import type { RoisService } from '../rois/rois.service.ts';
import * as transferRepo from './transfer.repository.ts';
import { stationTeamByDevId } from '../access/access.repository.ts';
import { allClasses, insertClass } from '../classes/classes.repository.ts';

export type ImportAs = 'hi' | 'reference';

export interface ImportOptions {
  /** A folder holding one sub-folder of images per class. */
  dir: string;
  devId: string;
  /** hi: human-identified ROIs of the station; reference: the same, also filed in the team library (-2). */
  as: ImportAs;
  /** Micrometres per pixel of these images (another instrument's than the station's), stored on each ROI. */
  pixelSizeUm?: number;
  onProgress?: (done: number, total: number, file: string) => void;
}

export interface ImportReport {
  station: string;
  /** images: stored by this import; duplicates: already there, so not stored (issue 37: they were counted as images). */
  classes: { folder: string; class: string; created: boolean; images: number; duplicates: number }[];
  imported: number;
  /** Folder imports: how many capture times came from labels.csv, from file names, from the files' own times. */
  capture_times?: { labels_csv: number; file_name: number; file_time: number };
  /** Images already stored for the station (a re-run, or one image filed under two classes). */
  duplicates: number;
  /**
   * Duplicates whose stored ROI has another class than the file's folder: the same image filed under two classes
   * (in this import or an earlier one). The stored ROI keeps its class; each such file is listed, never dropped
   * silently.
   */
  conflicts: { file: string; class: string; kept: string; roi_id: number }[];
  /** Every conflict; `conflicts` lists the first IMPORT_LISTED_MAX. */
  conflicts_total: number;
  failed: { file: string; reason: string }[];
  /** Every failure; `failed` lists the first IMPORT_LISTED_MAX (issue 37: an answer of 400,000 failures was 39 MB). */
  failed_total: number;
}

/** A failure of an import: listed while the report lists fewer than IMPORT_LISTED_MAX, counted always. */
export function noteFailure(report: ImportReport, failure: { file: string; reason: string }) {
  report.failed_total++;
  if (report.failed.length < IMPORT_LISTED_MAX) report.failed.push(failure);
}

/** A conflict of an import: listed while the report lists fewer than IMPORT_LISTED_MAX, counted always. */
export function noteConflict(report: ImportReport, conflict: ImportReport['conflicts'][number]) {
  report.conflicts_total++;
  if (report.conflicts.length < IMPORT_LISTED_MAX) report.conflicts.push(conflict);
}

export class ImportError extends Error {
  constructor(
    message: string,
    /**
     * noImages: nothing to import; noTable: an EcoTaxa export without its table; tooManyRows: EcoTaxa tables of more
     * than IMPORT_ROWS_MAX objects; classLimit: the station's team owns as many classes as a team may (the console
     * says either in the user's language, without the folder's path).
     */
    readonly kind?: 'noImages' | 'classLimit' | 'noTable' | 'tooManyRows',
  ) {
    super(message);
  }
}

/** The PostgreSQL advisory lock held while an import finds or creates a class. */
const CLASS_CREATION_LOCK = 0x1c1a55;

/** The file names imported as images. */
export const IMAGE = /\.(png|jpe?g|tiff?|bmp|webp|gif)$/i;
/** Capture time in file names of the common plankton cameras: SPC-<camera>-<unix seconds>-... */
const UNIX_SECONDS = /(?:^|[-_])(1\d{9})(?:[-_.]|$)/;

/** When the image was taken: from its name where it says so, else the file's modification time. */
export function captureTimeOf(name: string, mtimeMs: number): number {
  return captureOf(name, mtimeMs).time;
}

/** The capture time and where it came from: a unix time in the file name, else the file's own time. */
export function captureOf(name: string, mtimeMs: number): { time: number; from: 'file_name' | 'file_time' } {
  const m = UNIX_SECONDS.exec(name);
  return m ? { time: Number(m[1]) * 1000, from: 'file_name' } : { time: Math.round(mtimeMs), from: 'file_time' };
}

/** The labels.csv columns read as an image's capture time, the first one present. */
const TIME_COLUMNS = ['captured_at', 'capture_time', 'roi_time', 'time', 'timestamp', 'datetime', 'date_time'];
/** labels.csv is read up to this size (a row is some 200 bytes: 100,000 images). */
const LABELS_MAX = 32 * 1024 * 1024;

/**
 * A capture time as a labels.csv cell writes it: unix seconds (10 digits, decimals allowed), unix milliseconds
 * (13 digits), or an ISO 8601 date-time (UTC where it names no offset); null for anything else.
 */
export function labelTimeOf(cell: string): number | null {
  const text = cell.trim();
  if (/^\d{9,10}(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (/^\d{12,13}$/.test(text)) return Number(text);
  const iso = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(:\d{2}(\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (!iso) return null;
  const zone = iso[5] ? iso[5].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') : 'Z';
  const ms = Date.parse(`${iso[1]}T${iso[2]}${zone}`);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The capture times a set's labels.csv gives (a `path` column, `<class folder>/<file>`, and a time column of
 * TIME_COLUMNS), by path; empty without such a file or column (the PWSSC sets' labels.csv has no time).
 */
async function labelTimesOf(dir: string): Promise<Map<string, number>> {
  const file = path.join(dir, 'labels.csv');
  const stat = await fs.stat(file).catch(() => null);
  const times = new Map<string, number>();
  if (!stat?.isFile() || stat.size > LABELS_MAX) return times;
  let text = await fs.readFile(file, 'utf8');
  if (text.startsWith(CSV_BOM)) text = text.slice(1);
  const records = csvRecords(text);
  const top = records.next();
  if (top.done) return times;
  const header = top.value.map((h) => h.trim().toLowerCase());
  const at = { path: header.indexOf('path'), time: header.findIndex((h) => TIME_COLUMNS.includes(h)) };
  if (at.path < 0 || at.time < 0) return times;
  for (const cells of records) {
    const time = labelTimeOf(cells[at.time] ?? '');
    const where = (cells[at.path] ?? '').trim().replace(/\\/g, '/');
    if (time !== null && where) times.set(where, time);
  }
  return times;
}

/**
 * The class a folder names: without a trailing `__<digits>`, the EcoTaxa taxon id its "one folder per category"
 * exports append (`detritus__84963` → `detritus`), which would otherwise become part of a class no taxon maps to.
 */
export const folderClassName = (folder: string) => folder.replace(/__\d+$/, '') || folder;

/**
 * Imports a folder-per-class image set (the common layout of labelled plankton data sets) as human-identified ROIs
 * of one station, through the same ingest path as the instruments (files durable before the row, counts in the
 * same transaction). Re-running it is safe: images already stored are counted as duplicates and left alone, so an
 * interrupted import is finished by running it again.
 */
export async function importFolder(db: Db, rois: RoisService, clock: Clock, opts: ImportOptions): Promise<ImportReport> {
  const k = db.kysely;
  const station = await stationTeamByDevId(k, opts.devId);
  if (!station) throw new ImportError(`no station with dev_id ${opts.devId}`);
  const plan = await planOf(opts.dir);
  const total = plan.reduce((a, c) => a + c.files.length, 0);
  if (total === 0) throw new ImportError(`no images under ${opts.dir} (expected one sub-folder of images per class)`, 'noImages');
  const report: ImportReport = {
    station: opts.devId,
    classes: [],
    imported: 0,
    duplicates: 0,
    conflicts: [],
    conflicts_total: 0,
    failed: [],
    failed_total: 0,
    capture_times: { labels_csv: 0, file_name: 0, file_time: 0 },
  };
  const times = report.capture_times!;
  const labelTimes = await labelTimesOf(opts.dir);
  let done = 0;
  for (const entry of plan) {
    const cls = await k
      .transaction()
      .execute((trx) => classForFolder(trx, entry.folder, clock(), station.group_id, db.dialect === 'postgres'));
    const ids: number[] = [];
    let stored = 0;
    let duplicates = 0;
    for (const file of entry.files) {
      const full = path.join(opts.dir, entry.folder, file);
      try {
        const [data, stat] = await Promise.all([fs.readFile(full), fs.stat(full)]);
        // labels.csv's time where it gives one, else the file name's, else the file's own time.
        const listed = labelTimes.get(`${entry.folder}/${file}`);
        const captured = listed === undefined ? captureOf(file, stat.mtimeMs) : { time: listed, from: 'labels_csv' as const };
        const result = await rois.ingest({
          ippId: station.id,
          capturedAt: captured.time,
          labelIndex: 0,
          confidence: null,
          // The segmented object's area, measured at ingest (not the frame).
          sizePx: null,
          data,
          hiClassId: cls.id,
          pixelSizeUm: opts.pixelSizeUm ?? null,
        });
        if (result.stored) {
          // Where the stored images' capture times came from (a duplicate keeps the time it was stored with).
          times[captured.from]++;
          report.imported++;
          stored++;
        } else {
          report.duplicates++;
          duplicates++;
          const kept = await classOfRoi(k, result.roiId);
          if (kept.id !== cls.id)
            noteConflict(report, {
              file: path.join(entry.folder, file),
              class: cls.name,
              kept: kept.name,
              roi_id: result.roiId,
            });
        }
        ids.push(result.roiId);
      } catch (error) {
        noteFailure(report, {
          file: path.join(entry.folder, file),
          reason: error instanceof Error ? error.message : String(error),
        });
      }
      opts.onProgress?.(++done, total, path.join(entry.folder, file));
    }
    if (opts.as === 'reference' && ids.length > 0) await fileInTeamLibrary(k, station.group_id, cls.name, ids, clock());
    report.classes.push({ folder: entry.folder, class: cls.name, created: cls.created, images: stored, duplicates });
  }
  return report;
}

/** The class an ROI carries now (its name; '' when it has none). */
export async function classOfRoi(k: Kysely<Database>, roiId: number): Promise<{ id: number | null; name: string }> {
  const row = await transferRepo.findRoiClass(k, roiId);
  return { id: row?.class_id ?? null, name: row?.name ?? '' };
}

async function planOf(dir: string): Promise<{ folder: string; files: string[] }[]> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    throw new ImportError(`cannot read the folder ${dir}`);
  }
  const plan = [];
  for (const e of entries
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name))) {
    const files = (await fs.readdir(path.join(dir, e.name))).filter((f) => IMAGE.test(f) && !f.startsWith('.')).sort();
    if (files.length > 0) plan.push({ folder: e.name, files });
  }
  return plan;
}

/**
 * The class a folder's images belong to (its name less a trailing `__<digits>`: folderClassName): a folder named by
 * the rule ("012Noctiluca") is that class; otherwise the
 * class whose name after its three digits is the folder's ("Copepod" → "001Copepod"); otherwise a new class with the
 * next free label index from 100 up. A new class belongs to the station's team, within its class limit
 * (docs/decisions.md "Class ownership").
 */
export async function classForFolder(trx: Kysely<Database>, folder: string, now: number, team: number, postgres = false) {
  // Class names and label indexes are unique system-wide: two imports creating classes at once take turns, and the
  // second then finds the first one's class (PostgreSQL; SQLite writes one transaction at a time).
  if (postgres) await transferRepo.lockForTransaction(trx, CLASS_CREATION_LOCK);
  folder = folderClassName(folder);
  const classes = await allClasses(trx);
  const named = (name: string) => classes.find((c) => c.name === name);
  const create = async (name: string, labelIndex: number) => {
    if (classes.filter((c) => c.group_id === team).length >= CLASS_LIMIT_PER_TEAM)
      throw new ImportError(
        `folder ${folder}: the team already owns ${CLASS_LIMIT_PER_TEAM} classes, the most a team may own`,
        'classLimit',
      );
    const id = await insertClass(trx, { name, label_index: labelIndex, group_id: team, created_at: now });
    return { id, name, created: true };
  };
  if (CLASS_NAME_PATTERN.test(folder)) {
    const same = named(folder);
    if (same) return { id: same.id, name: same.name, created: false };
    const label = Number(folder.slice(0, 3));
    const taken = classes.find((c) => c.label_index === label);
    if (taken || label === 0)
      throw new ImportError(
        `folder ${folder}: label index ${folder.slice(0, 3)} is already used by ${taken?.name ?? '000Unclassified'}`,
      );
    return create(folder, label);
  }
  const bare = folder
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^\u4e00-\u9fa5A-Za-z0-9_-]/g, '');
  if (bare === '') throw new ImportError(`folder ${folder}: no usable class name`);
  const match = classes.find((c) => c.name.slice(3).toLowerCase() === bare.toLowerCase());
  if (match) return { id: match.id, name: match.name, created: false };
  const used = new Set(classes.map((c) => c.label_index));
  let label = 100;
  while (used.has(label)) label++;
  if (label > 999) throw new ImportError('no free label index left (000-999)');
  return create(`${String(label).padStart(3, '0')}${bare}`, label);
}

export async function fileInTeamLibrary(db: Kysely<Database>, groupId: number, title: string, roiIds: number[], now: number) {
  await db.transaction().execute(async (trx) => {
    const folder = await folders.ensureFolder(
      trx,
      { category_id: CATEGORY.TEAM, group_id: groupId, ipp_id: null, user_id: null },
      title,
      now,
    );
    const live = new Set<number>();
    for (const part of idChunks(roiIds)) {
      for (const r of await transferRepo.liveRoiIds(trx, part)) live.add(r.id);
    }
    await folders.addMembers(trx, folder.id, roiIds, live, now);
  });
}
