import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IMPORT_ROWS_MAX, ResultCode, type ImportProgress, type ImportReport, type Lang } from '@ipp/contracts';
import type { FastifyRequest } from 'fastify';
import yauzl from 'yauzl';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { translate, type MessageKey, type MessageParams } from '../../http/messages.ts';
import { saveUpload } from '../../http/upload.ts';
import { visibleStationTeamByDevId } from '../access/stations.ts';
import { CLASS_LIMIT_PER_TEAM } from '../classes/classes.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { importEcotaxa } from './import-ecotaxa.ts';
import * as progressRepo from './import-progress.repository.ts';
import { IMAGE, ImportError, importFolder, type ImportAs } from './import-folder.ts';

/** What an EcoTaxa import unpacks: images and the export's tables. */
const ECOTAXA_ENTRY = (name: string) => IMAGE.test(name) || /\.tsv$/i.test(name);
/** A class-folder zip: its images, and a labels.csv that may give their capture times. */
const IMAGE_ENTRY = (name: string) => IMAGE.test(name) || /(^|\/)labels\.csv$/i.test(name);

const MB = 1024 * 1024;
export const IMPORT_ZIP_MAX = 512 * MB;
/**
 * Entries in one zip (the central directory's count, folders and skipped files included): with a zip of at most
 * 512 MB, 10 KB an image on average.
 */
export const IMPORT_ENTRIES_MAX = 50_000;
/**
 * What a zip may unpack to: at most 10 times its own size (images are stored nearly uncompressed: a labelled set
 * unpacks to about its zip's size, uncompressed TIFF or BMP to a few times it), never less than 64 MB nor more than
 * 1 GB. A zip bomb (issue 20: 299 KB that unpacked to 300 MB) is refused with 413.
 */
export function unpackedLimit(zipBytes: number) {
  return Math.min(1024 * MB, Math.max(64 * MB, 10 * zipBytes));
}
/** A temporary import folder older than this was left by a stopped server: removed by the next import. */
const STALE_MS = 24 * 3_600_000;

const badZip = (reason: string) => new AppError(ResultCode.BAD_PARAM, 'badZip', { reason }, 'file');
const unpacksTooLarge = (limit: number) =>
  new AppError(ResultCode.BAD_PARAM, 'zipTooLarge', { max: `${Math.round(limit / MB)} MB` }, 'file', 413);
const tooManyEntries = () =>
  new AppError(ResultCode.BAD_PARAM, 'zipTooManyEntries', { max: String(IMPORT_ENTRIES_MAX) }, 'file', 413);

/**
 * The console's import (administrators): a zip of one folder of images per class, unpacked to a temporary folder
 * under DATA_DIR/tmp and imported like `npm run import`. Entry names are checked (no absolute paths or '..'); only
 * image entries are unpacked; the entry count and the unpacked size are bounded, by the sizes the zip declares before
 * anything is unpacked and by the bytes actually inflated while unpacking. Nothing the client sees names a server
 * path, and the temporary folder and every file handle are gone when the call answers, whatever happened.
 */
export class ImportUploadService {
  constructor(
    private readonly db: Db,
    private readonly rois: RoisService,
    private readonly clock: Clock,
    /** Where the temporary import folders go (DATA_DIR/tmp: the disk that holds the images). */
    private readonly workRoot: string,
  ) {}

  async run(
    actor: UserRow,
    request: FastifyRequest,
    query: { dev_id: string; as: ImportAs; format: 'folders' | 'ecotaxa'; pixel_size_um?: number; progress_id?: string },
  ): Promise<ImportReport> {
    await visibleStationTeamByDevId(this.db.kysely, actor, query.dev_id);
    if (!request.isMultipart()) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
    const progress = await this.progressOf(actor, query.progress_id, Number(request.headers['content-length']) || 0);
    try {
      const report = await this.unpackAndImport(request, query, progress.set);
      await progress.set({ phase: 'done', report: JSON.stringify(report) }, true);
      return report;
    } catch (error) {
      const known =
        error instanceof AppError
          ? { key: error.key, params: error.params }
          : { key: 'internal', params: { requestId: request.id } };
      await progress.set({ phase: 'failed', error: JSON.stringify(known) }, true).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The progress row of a named import (none when the caller named none). Updates are written one after another, at
   * most every quarter second; phase changes and the end at once. The end writes the last counts with the outcome.
   */
  private async progressOf(actor: UserRow, id: string | undefined, total: number) {
    type Changes = Parameters<typeof progressRepo.setProgress>[2];
    if (id === undefined) return { set: async (_changes: Changes, _now?: boolean) => undefined };
    if (!(await progressRepo.startProgress(this.db.kysely, id, actor.id, total, this.clock())))
      throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'progress_id', reasonKey: 'reason.taken' }, 'progress_id');
    const state = { phase: 'upload', done: 0, total };
    let last = 0;
    let queue: Promise<unknown> = Promise.resolve();
    return {
      set: (changes: Changes, now = false) => {
        const at = this.clock();
        const end = changes.phase === 'done' || changes.phase === 'failed';
        const moved = changes.phase !== undefined && changes.phase !== state.phase;
        if (!end) Object.assign(state, changes);
        if (!now && !moved && at - last < 250) return queue.then(() => undefined);
        last = at;
        const row = end ? { ...changes, done: state.total > 0 && changes.phase === 'done' ? state.total : state.done } : changes;
        queue = queue.then(() => progressRepo.setProgress(this.db.kysely, id, row, at)).catch(() => undefined);
        return queue.then(() => undefined);
      },
    };
  }

  private async unpackAndImport(
    request: FastifyRequest,
    query: { dev_id: string; as: ImportAs; format: 'folders' | 'ecotaxa'; pixel_size_um?: number },
    progress: (changes: { phase: string; done?: number; total?: number }, now?: boolean) => Promise<void>,
  ): Promise<ImportReport> {
    await this.removeStale();
    const work = await fsp.mkdtemp(path.join(this.workRoot, 'import-'));
    // Server paths in a message become paths inside the zip (or an ellipsis): the client never sees where we unpack.
    const root = path.join(work, 'x');
    const scrub = (text: string) =>
      text
        .split(root + path.sep)
        .join('')
        .split(root)
        .join('')
        .split(work)
        .join('…');
    try {
      const zipPath = path.join(work, 'upload.zip');
      // Progress writes are best effort: an import does not fail for want of one.
      const tell = (changes: { phase: string; done?: number; total?: number }, now?: boolean) => {
        void progress(changes, now).catch(() => undefined);
      };
      const { bytes } = await saveUpload(request, zipPath, IMPORT_ZIP_MAX, `${IMPORT_ZIP_MAX / MB} MB`, (done) =>
        tell({ phase: 'upload', done }),
      );
      await progress({ phase: 'unpack', done: 0, total: bytes }, true);
      await fsp.mkdir(root);
      const ecotaxa = query.format === 'ecotaxa';
      await unzipTo(zipPath, root, unpackedLimit(bytes), ecotaxa ? ECOTAXA_ENTRY : IMAGE_ENTRY);
      await fsp.rm(zipPath, { force: true });
      const onProgress = (done: number, total: number) => tell({ phase: 'import', done, total }, done === 1);
      const options = {
        devId: query.dev_id,
        as: query.as,
        onProgress,
        ...(query.pixel_size_um === undefined ? {} : { pixelSizeUm: query.pixel_size_um }),
      };
      const report = ecotaxa
        ? await importEcotaxa(this.db, this.rois, this.clock, { ...options, dir: root })
        : await importFolder(this.db, this.rois, this.clock, { ...options, dir: classRoot(root) });
      return {
        ...report,
        conflicts: report.conflicts.map((c) => ({ ...c, file: scrub(c.file) })),
        failed: report.failed.map((f) => ({ file: scrub(f.file), reason: scrub(f.reason) })),
      };
    } catch (error) {
      if (error instanceof ImportError) {
        if (error.kind === 'noImages') throw new AppError(ResultCode.BAD_PARAM, 'zipNoImages', {}, 'file');
        if (error.kind === 'noTable') throw new AppError(ResultCode.BAD_PARAM, 'zipNoEcotaxaTable', {}, 'file');
        if (error.kind === 'tooManyRows')
          throw new AppError(ResultCode.BAD_PARAM, 'ecotaxaTooManyRows', { max: String(IMPORT_ROWS_MAX) }, 'file', 413);
        if (error.kind === 'classLimit')
          throw new AppError(ResultCode.BAD_PARAM, 'classLimit', { max: CLASS_LIMIT_PER_TEAM }, 'file');
        throw badZip(scrub(error.message));
      }
      if (error instanceof AppError && error.key === 'badZip') throw badZip(scrub(String(error.params.reason ?? '')));
      throw error;
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
  }

  /** The caller's named import: how far it is, its report once done, its error (in `lang`) once failed. */
  async progress(actor: UserRow, id: string, lang: Lang): Promise<ImportProgress> {
    const row = await progressRepo.findProgress(this.db.kysely, id);
    if (!row || row.user_id !== actor.id) throw new AppError(ResultCode.BAD_PARAM, 'importNotFound', {}, 'progress_id');
    const error = row.error ? (JSON.parse(row.error) as { key: MessageKey; params: MessageParams }) : null;
    return {
      phase: row.phase as ImportProgress['phase'],
      done: Number(row.done),
      total: Number(row.total),
      report: row.report ? (JSON.parse(row.report) as ImportReport) : null,
      error: error ? translate(error.key, lang, error.params) : null,
    };
  }

  private async removeStale() {
    await fsp.mkdir(this.workRoot, { recursive: true });
    for (const name of await fsp.readdir(this.workRoot)) {
      if (!name.startsWith('import-')) continue;
      const folder = path.join(this.workRoot, name);
      const stat = await fsp.stat(folder).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > STALE_MS) await fsp.rm(folder, { recursive: true, force: true });
    }
  }
}

/** A zip of one top folder holding the class folders is read from inside that folder. */
function classRoot(root: string): string {
  const dirs = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== '__MACOSX');
  const files = fs.readdirSync(root, { withFileTypes: true }).filter((d) => d.isFile());
  if (dirs.length === 1 && files.length === 0) {
    const inner = path.join(root, dirs[0]!.name);
    if (fs.readdirSync(inner, { withFileTypes: true }).some((d) => d.isDirectory())) return inner;
  }
  return root;
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false }, (error, zip) =>
      error || !zip ? reject(badZip(error?.message ?? 'unreadable')) : resolve(zip),
    ),
  );

/**
 * Visits the image entries of a zip to unpack (name checked, target under `root`), one at a time; folders, macOS
 * resource forks and files that are not images are skipped. The zip's file handle is closed when it returns.
 */
async function forEachImage(
  zipPath: string,
  root: string,
  accept: (name: string) => boolean,
  visit: (zip: yauzl.ZipFile, entry: yauzl.Entry, name: string, target: string) => Promise<void>,
) {
  const zip = await openZip(zipPath);
  try {
    if (zip.entryCount > IMPORT_ENTRIES_MAX) throw tooManyEntries();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.replace(/\\/g, '/');
        const target = path.join(root, name);
        if (
          name.startsWith('/') ||
          name.split('/').includes('..') ||
          /^[a-zA-Z]:/.test(name) ||
          !target.startsWith(root + path.sep)
        )
          return reject(badZip(`unsafe entry name ${name}`));
        if (name.endsWith('/') || name.startsWith('__MACOSX/') || !accept(name)) return zip.readEntry();
        visit(zip, entry, name, target).then(() => zip.readEntry(), reject);
      });
      zip.once('end', () => resolve());
      zip.once('error', (error: Error) => reject(error instanceof AppError ? error : badZip(error.message)));
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

const readStreamOf = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) =>
      error || !stream ? reject(badZip(error?.message ?? 'unreadable entry')) : resolve(stream),
    ),
  );

/**
 * Unpacks the image entries of a zip under `root`, at most `limit` bytes in all. The sizes the zip declares are
 * added up first, before anything is written; then the bytes inflated are counted as they come, so a zip that lies
 * about its sizes is stopped too (yauzl also refuses an entry that inflates past its declared size).
 */
async function unzipTo(zipPath: string, root: string, limit: number, accept: (name: string) => boolean): Promise<void> {
  let declared = 0;
  await forEachImage(zipPath, root, accept, async (_zip, entry) => {
    declared += entry.uncompressedSize;
    if (declared > limit) throw unpacksTooLarge(limit);
  });
  let unpacked = 0;
  await forEachImage(zipPath, root, accept, async (zip, entry, name, target) => {
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        unpacked += chunk.length;
        if (unpacked > limit) return done(unpacksTooLarge(limit));
        if (bytes > entry.uncompressedSize) return done(badZip(`${name} unpacks to more than it declares`));
        done(null, chunk);
      },
    });
    try {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await pipeline(await readStreamOf(zip, entry), count, fs.createWriteStream(target));
      // The file keeps the entry's time (the zip's UTC timestamp field where it has one, else its DOS time), not the
      // time of unpacking: a folder import takes it as the capture time where the name carries none (issue 37).
      const time = entry.getLastModDate();
      if (Number.isFinite(time.getTime())) await fsp.utimes(target, time, time);
    } catch (error) {
      throw error instanceof AppError ? error : badZip(`${name}: ${(error as Error).message}`);
    }
  });
}
