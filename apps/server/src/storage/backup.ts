import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { BLOB_NAME } from '@ipp/contracts/constants';
import { originalName } from './blobs.ts';

/**
 * Backup and restore of the embedded default (docs/reliability.md "Backup and restore"): the SQLite database by SQLite's
 * online backup API — a consistent snapshot while the server keeps running and writing — then the image files.
 * Images are written and synced before their row commits and never change (content-addressed), so copying them after
 * the snapshot gives every row of the snapshot its file; files of later ROIs come along as harmless extras.
 * PostgreSQL and S3-protocol storage are backed up with their own tools (docs/deployment.md "Backups").
 */

export const DATABASE_FILE = 'ipp-console.sqlite';
const MANIFEST = 'backup.json';
const FORMAT = 1;

export class BackupError extends Error {}

export interface Manifest {
  format: number;
  created_at: string;
  source: string;
  rois: number;
  images: number;
  bytes: number;
}

export interface Progress {
  (step: 'database' | 'images' | 'verify', done: number, total: number): void;
}

interface Copied {
  files: number;
  copied: number;
  bytes: number;
}

/** Every blob file under a blobs folder (its two levels of hash folders), as paths relative to it. */
function blobFiles(root: string): string[] {
  const out: string[] = [];
  if (!fs.existsSync(root)) return out;
  for (const a of fs.readdirSync(root, { withFileTypes: true })) {
    if (!a.isDirectory() || !/^[0-9a-f]{2}$/.test(a.name)) continue;
    for (const b of fs.readdirSync(path.join(root, a.name), { withFileTypes: true })) {
      if (!b.isDirectory() || !/^[0-9a-f]{2}$/.test(b.name)) continue;
      for (const f of fs.readdirSync(path.join(root, a.name, b.name), { withFileTypes: true })) {
        // Only finished blobs: a writer's temporary file (name.pid.random.tmp) is not one yet.
        if (f.isFile() && BLOB_NAME.test(f.name)) out.push(path.join(a.name, b.name, f.name));
      }
    }
  }
  return out;
}

function syncFile(file: string) {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies blobs not already at the target (same name = same content), each synced; answers what it did. */
function copyBlobs(from: string, to: string, progress?: Progress): Copied {
  const files = blobFiles(from);
  let copied = 0;
  let bytes = 0;
  const dirs = new Set<string>();
  files.forEach((rel, i) => {
    const source = path.join(from, rel);
    const target = path.join(to, rel);
    const size = fs.statSync(source).size;
    bytes += size;
    if (!(fs.existsSync(target) && fs.statSync(target).size === size)) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.${crypto.randomBytes(8).toString('hex')}.tmp`;
      fs.copyFileSync(source, temp);
      syncFile(temp);
      fs.renameSync(temp, target);
      dirs.add(path.dirname(target));
      copied++;
    }
    if (progress && (i % 500 === 0 || i === files.length - 1)) progress('images', i + 1, files.length);
  });
  for (const dir of dirs) syncFile(dir);
  return { files: files.length, copied, bytes };
}

/** SQLite's side files of a database file (its write-ahead log, shared memory, rollback journal). */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

const removeWithSideFiles = (dbFile: string) => {
  for (const file of [dbFile, ...SIDE_FILES.map((suffix) => dbFile + suffix)]) fs.rmSync(file, { force: true });
};

/** The database's integrity check, and the originals its ROIs name that are not in `blobs`. */
function verify(dbFile: string, blobs: string): { rois: number; missing: string[] } {
  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('integrity_check') as { integrity_check: string }[];
    if (check.length !== 1 || check[0]!.integrity_check !== 'ok') {
      throw new BackupError(`the database copy fails its integrity check: ${check.map((c) => c.integrity_check).join('; ')}`);
    }
    const rows = db.prepare('select sha256, mime from rois').all() as { sha256: string; mime: string }[];
    const missing: string[] = [];
    for (const r of rows) {
      const name = originalName(r.sha256, r.mime);
      if (!fs.existsSync(path.join(blobs, name.slice(0, 2), name.slice(2, 4), name))) missing.push(name);
    }
    return { rois: rows.length, missing };
  } finally {
    db.close();
  }
}

/**
 * Backs up DATA_DIR into `out` (created; a previous backup there is brought up to date: images already copied stay).
 * The database copy is written under a temporary name and renamed last, with the manifest, so a backup folder that
 * has both is complete.
 */
export async function backupEmbedded(dataDir: string, out: string, progress?: Progress): Promise<Manifest> {
  const source = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`no database at ${source}: is DATA_DIR right?`);
  if (path.resolve(out) === path.resolve(dataDir)) throw new BackupError('the backup folder must not be DATA_DIR itself');
  fs.mkdirSync(out, { recursive: true });
  const partial = path.join(out, `${DATABASE_FILE}.partial`);
  removeWithSideFiles(partial);
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(partial, {
      // Every page in one step: one read transaction, so the copy is one consistent snapshot. Stepping would let the
      // server's writes (another connection) restart the backup again and again under ingest. WAL readers do not
      // block writers, so the server keeps ingesting meanwhile.
      progress: ({ totalPages, remainingPages }) => {
        progress?.('database', totalPages - remainingPages, totalPages);
        return 0x7fffffff;
      },
    });
  } finally {
    db.close();
  }
  // The copy carries the source's WAL mode, so opening it would create -wal and -shm beside it (issue 37: the backup
  // folder kept ipp-console.sqlite.partial-shm/-wal). As a rollback-journal database it is one self-contained file;
  // the server puts a restored database back into WAL mode when it opens it (db/database.ts).
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  for (const suffix of SIDE_FILES) fs.rmSync(partial + suffix, { force: true });
  syncFile(partial);
  const images = copyBlobs(path.join(dataDir, 'blobs'), path.join(out, 'blobs'), progress);
  progress?.('verify', 0, 1);
  const checked = verify(partial, path.join(out, 'blobs'));
  if (checked.missing.length > 0) {
    throw new BackupError(
      `${checked.missing.length} image(s) named by the database are missing from ${path.join(dataDir, 'blobs')} (first: ${checked.missing[0]}); the backup is incomplete`,
    );
  }
  fs.renameSync(partial, path.join(out, DATABASE_FILE));
  const manifest: Manifest = {
    format: FORMAT,
    created_at: new Date().toISOString(),
    source: path.resolve(dataDir),
    rois: checked.rois,
    images: images.files,
    bytes: images.bytes + fs.statSync(path.join(out, DATABASE_FILE)).size,
  };
  fs.writeFileSync(path.join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  syncFile(path.join(out, MANIFEST));
  syncFile(out);
  progress?.('verify', 1, 1);
  return manifest;
}

/**
 * Restores a backup into a data directory that holds no database (with `force`, the database there is moved aside to
 * ipp-console.sqlite.before-restore-<time>, never deleted). The server must not be running on that directory.
 */
export async function restoreEmbedded(
  from: string,
  dataDir: string,
  options: { force?: boolean; progress?: Progress } = {},
): Promise<Manifest & { movedAside: string | null }> {
  const manifestFile = path.join(from, MANIFEST);
  const dbFile = path.join(from, DATABASE_FILE);
  if (!fs.existsSync(manifestFile) || !fs.existsSync(dbFile)) {
    throw new BackupError(`${from} is not a complete backup (it needs ${MANIFEST} and ${DATABASE_FILE})`);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== FORMAT) throw new BackupError(`backup format ${manifest.format} is not one this version restores`);
  fs.mkdirSync(dataDir, { recursive: true });
  const target = path.join(dataDir, DATABASE_FILE);
  if (fs.existsSync(target) && !options.force) {
    throw new BackupError(
      `${dataDir} already holds a database; restore into an empty data directory, or add --force to move it aside`,
    );
  }
  // The backup is only read, byte for byte (issue 37: read-only backup media): its database is copied into the data
  // directory first and checked there, so SQLite's -shm/-wal of an opened database (a WAL-mode copy, as earlier
  // versions made) are written beside the copy, never into the backup.
  const temp = `${target}.restoring`;
  removeWithSideFiles(temp);
  fs.copyFileSync(dbFile, temp);
  let checked;
  try {
    checked = verify(temp, path.join(from, 'blobs'));
  } finally {
    for (const suffix of SIDE_FILES) fs.rmSync(temp + suffix, { force: true });
  }
  if (checked.missing.length > 0) {
    removeWithSideFiles(temp);
    throw new BackupError(
      `the backup lacks ${checked.missing.length} image(s) its database names (first: ${checked.missing[0]})`,
    );
  }
  let movedAside: string | null = null;
  if (fs.existsSync(target)) {
    movedAside = `${target}.before-restore-${Date.now()}`;
    fs.renameSync(target, movedAside);
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(target + suffix)) fs.renameSync(target + suffix, movedAside + suffix);
    }
  }
  copyBlobs(path.join(from, 'blobs'), path.join(dataDir, 'blobs'), options.progress);
  syncFile(temp);
  fs.renameSync(temp, target);
  syncFile(dataDir);
  return { ...manifest, movedAside };
}
