import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ResultCode, type ImportReport } from '@ipp/contracts';
import type { FastifyRequest } from 'fastify';
import yauzl from 'yauzl';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { ImportError, importFolder, type ImportAs } from './import-folder.ts';

export const IMPORT_ZIP_MAX = 512 * 1024 * 1024;
const ENTRIES_MAX = 100_000;
const UNPACKED_MAX = 2 * 1024 * 1024 * 1024;

const badZip = (reason: string) => new AppError(ResultCode.BAD_PARAM, 'badZip', { reason }, 'file');

/**
 * The console's import (administrators): a zip of one folder of images per class, unpacked to a temp folder and
 * imported like `npm run import`. Entry names are checked (no absolute paths or '..'), and the entry count and the
 * unpacked size are capped, so a hostile zip cannot write outside the temp folder or fill the disk.
 */
export class ImportUploadService {
  constructor(
    private readonly db: Db,
    private readonly rois: RoisService,
    private readonly clock: Clock,
  ) {}

  async run(actor: UserRow, request: FastifyRequest, query: { dev_id: string; as: ImportAs }): Promise<ImportReport> {
    const station = await this.db.kysely
      .selectFrom('ipps')
      .select(['id', 'group_id'])
      .where('dev_id', '=', query.dev_id)
      .executeTakeFirst();
    if (!station || (actor.role !== 'superadmin' && station.group_id !== actor.group_id)) {
      throw new AppError(ResultCode.BAD_PARAM, 'ippNotFound', {}, 'dev_id');
    }
    if (!request.isMultipart()) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-import-'));
    try {
      const file = await request.file({ limits: { fileSize: IMPORT_ZIP_MAX, files: 1 } });
      if (!file) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
      const zipPath = path.join(work, 'upload.zip');
      await pipeline(file.file, fs.createWriteStream(zipPath));
      if (file.file.truncated)
        throw new AppError(ResultCode.BAD_PARAM, 'fileTooLarge', { max: `${IMPORT_ZIP_MAX / 1024 / 1024} MB` }, 'file');
      const root = path.join(work, 'x');
      await unzipTo(zipPath, root);
      return await importFolder(this.db, this.rois, this.clock, { dir: classRoot(root), devId: query.dev_id, as: query.as });
    } catch (error) {
      if (error instanceof ImportError) throw badZip(error.message);
      throw error;
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
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

function unzipTo(zipPath: string, root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return reject(badZip(error?.message ?? 'unreadable'));
      let entries = 0;
      let unpacked = 0;
      const fail = (e: Error) => {
        zip.close();
        reject(e instanceof AppError ? e : badZip(e.message));
      };
      zip.on('error', fail);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.replace(/\\/g, '/');
        if (++entries > ENTRIES_MAX) return fail(badZip(`more than ${ENTRIES_MAX} entries`));
        if (name.startsWith('/') || name.split('/').includes('..') || /^[a-zA-Z]:/.test(name))
          return fail(badZip(`unsafe entry name ${name}`));
        if (name.endsWith('/') || name.startsWith('__MACOSX/')) return zip.readEntry();
        unpacked += entry.uncompressedSize;
        if (unpacked > UNPACKED_MAX) return fail(badZip('unpacks to more than 2 GB'));
        const target = path.join(root, name);
        if (!target.startsWith(root + path.sep)) return fail(badZip(`unsafe entry name ${name}`));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return fail(err ?? new Error('unreadable entry'));
          pipeline(stream, fs.createWriteStream(target)).then(() => zip.readEntry(), fail);
        });
      });
      zip.readEntry();
    });
  });
}
