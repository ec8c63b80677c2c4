import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { BackupError, DATABASE_FILE, backupEmbedded, restoreEmbedded } from '../src/storage/backup.ts';
import { FileBlobStore, originalName } from '../src/storage/blobs.ts';
import { buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, FakeClock, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../src/cli/backup.ts');

describe('backup and restore of the embedded default', () => {
  let env: TestEnv;
  let w: World;
  let station: { id: number; key: string };
  let seed = 0;
  const temps: string[] = [];
  const temp = (label: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ipp-${label}-`));
    temps.push(dir);
    return dir;
  };
  /** Uploads one new image; answers its id, sha256 and bytes once acknowledged. */
  const ingest = async () => {
    const png = await pngOf(++seed, 32);
    const res = body(
      await uploadRoi(env, station.key, { captured_at: env.clock.now - seed * 1000, label_index: 1, size_px: 900 }, png),
    );
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
    const ack = res.data as { roi_id: number; sha256: string };
    return { id: ack.roi_id, sha256: ack.sha256, png };
  };

  beforeEach(async () => {
    env = await buildTestApp('sqlite');
    w = await buildWorld(env);
    station = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
  });
  afterEach(async () => {
    await env.close();
    for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while ingest goes on, and a fresh data directory restored from it has every ROI acknowledged before', async () => {
    const before = [];
    for (let i = 0; i < 15; i++) before.push(await ingest());
    // Ingest keeps going during the backup: the snapshot must still be consistent, with a file for each of its rows.
    const during = (async () => {
      const out = [];
      for (let i = 0; i < 15; i++) out.push(await ingest());
      return out;
    })();
    const out = path.join(temp('backup'), 'nightly');
    const manifest = await backupEmbedded(env.config.DATA_DIR, out);
    const duringAcked = await during;
    expect(manifest.rois).toBeGreaterThanOrEqual(before.length);
    expect(manifest.images).toBeGreaterThanOrEqual(2 * before.length); // each ROI: original + thumbnail

    const fresh = temp('restored');
    const restored = await restoreEmbedded(out, fresh);
    expect(restored.rois).toBe(manifest.rois);
    expect(restored.movedAside).toBeNull();

    const copy = new SQLite(path.join(fresh, DATABASE_FILE), { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = copy.prepare('select id, sha256, mime from rois').all() as { id: number; sha256: string; mime: string }[];
    copy.close();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const blobs = new FileBlobStore(path.join(fresh, 'blobs'));
    for (const roi of before) {
      expect(byId.get(roi.id)?.sha256).toBe(roi.sha256);
      expect((await blobs.get(originalName(roi.sha256, 'image/png')))?.data.equals(roi.png)).toBe(true);
    }
    // Whatever of the concurrent ingest made it into the snapshot is whole too; the rest simply is not there.
    for (const roi of duringAcked.filter((r) => byId.has(r.id))) {
      expect((await blobs.get(originalName(roi.sha256, 'image/png')))?.data.equals(roi.png)).toBe(true);
    }
    // Every row's file is there.
    for (const r of rows) expect(await blobs.get(originalName(r.sha256, r.mime))).not.toBeNull();

    // The restored directory runs: the console lists the ROIs and serves their images to the same signed-in user.
    const db = openDatabase({ dataDir: fresh });
    const app = await buildApp({ config: testConfig({ DATA_DIR: fresh }), db, clock: new FakeClock(env.clock.now).read });
    try {
      const list = await app.inject({
        method: 'GET',
        url: `/api/roi/index?category_id=-100&ipp_id=${station.id}&limit=1000`,
        headers: { 'x-token': w.tokens.ownAdmin },
      });
      const listed = (list.json() as { data: { items: { id: number; url: string }[] } }).data.items;
      expect(listed.map((r) => r.id).sort((a, b) => a - b)).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
      const image = await app.inject({ method: 'GET', url: `/api/${listed[0]!.url}`, headers: { 'x-token': w.tokens.ownAdmin } });
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('brings an earlier backup up to date, copying only new images', async () => {
    for (let i = 0; i < 5; i++) await ingest();
    const out = temp('backup');
    const first = await backupEmbedded(env.config.DATA_DIR, out);
    for (let i = 0; i < 3; i++) await ingest();
    const second = await backupEmbedded(env.config.DATA_DIR, out);
    expect(second.rois).toBe(first.rois + 3);
    expect(second.images).toBe(first.images + 6);
  });

  it('refuses what would lose or mix data, with a clear reason', async () => {
    await ingest();
    const out = temp('backup');
    await backupEmbedded(env.config.DATA_DIR, out);
    // Into a data directory that already has a database: refused; with force, the old one is moved aside, not lost.
    const target = temp('target');
    await restoreEmbedded(out, target);
    await expect(restoreEmbedded(out, target)).rejects.toThrow(/already holds a database/);
    const forced = await restoreEmbedded(out, target, { force: true });
    expect(forced.movedAside && fs.existsSync(forced.movedAside)).toBe(true);
    // An incomplete backup folder, a missing source database, the data directory as its own backup.
    fs.rmSync(path.join(out, 'backup.json'));
    await expect(restoreEmbedded(out, temp('other'))).rejects.toBeInstanceOf(BackupError);
    await expect(backupEmbedded(temp('empty'), temp('backup'))).rejects.toThrow(/no database/);
    await expect(backupEmbedded(env.config.DATA_DIR, env.config.DATA_DIR)).rejects.toThrow(/must not be DATA_DIR/);
    // A backup whose image went missing is refused before anything is written to the target.
    const broken = temp('backup');
    await backupEmbedded(env.config.DATA_DIR, broken);
    const file = fs
      .readdirSync(path.join(broken, 'blobs'), { recursive: true, withFileTypes: true })
      .find((f) => f.isFile() && f.name.endsWith('.png'))!;
    fs.rmSync(path.join(file.parentPath, file.name));
    const untouched = temp('untouched');
    await expect(restoreEmbedded(broken, untouched)).rejects.toThrow(/lacks 1 image/);
    expect(fs.readdirSync(untouched)).toEqual([]);
  });

  it('leaves no SQLite side files in the backup, and a restore writes nothing into the backup it reads (issue 37)', async () => {
    for (let i = 0; i < 3; i++) await ingest();
    const out = temp('backup');
    await backupEmbedded(env.config.DATA_DIR, out);
    await backupEmbedded(env.config.DATA_DIR, out); // brought up to date: still nothing else
    const top = fs.readdirSync(out).sort();
    expect(top).toEqual(['backup.json', 'blobs', DATABASE_FILE]);
    // The copy needs no -wal/-shm to be read: it is a rollback-journal database, read by any reader as one file.
    const copy = new SQLite(path.join(out, DATABASE_FILE), { readonly: true, fileMustExist: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    copy.close();
    expect(fs.readdirSync(out).sort()).toEqual(top);

    // Read-only media: the backup's file list and every file's time and size are the same after a restore.
    const listing = (dir: string) =>
      fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .map((f) => {
          const full = path.join(f.parentPath, f.name);
          const s = fs.statSync(full);
          return `${path.relative(dir, full)} ${s.size} ${s.mtimeMs}`;
        })
        .sort();
    const before = listing(out);
    const dirTime = fs.statSync(out).mtimeMs;
    const restored = await restoreEmbedded(out, temp('restored'));
    expect(restored.rois).toBe(3);
    expect(listing(out)).toEqual(before);
    expect(fs.statSync(out).mtimeMs).toBe(dirTime);

    // A backup an earlier version left in WAL mode is restored without writing beside it either.
    const old = temp('old-backup');
    fs.cpSync(out, old, { recursive: true });
    const wal = new SQLite(path.join(old, DATABASE_FILE));
    wal.pragma('journal_mode = WAL');
    wal.close();
    for (const f of fs.readdirSync(old)) if (/-(wal|shm)$/.test(f)) fs.rmSync(path.join(old, f));
    const oldBefore = listing(old);
    await restoreEmbedded(old, temp('restored'));
    expect(listing(old)).toEqual(oldBefore);
  });

  it('npm run backup / restore: the command line does the same and says what it did', async () => {
    for (let i = 0; i < 3; i++) await ingest();
    const out = temp('backup');
    const envOf = (dataDir: string) => {
      const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete e.DATABASE_URL;
      delete e.STORAGE_URL;
      return e;
    };
    const backup = await run(process.execPath, ['--import', 'tsx', CLI, 'backup', out], { env: envOf(env.config.DATA_DIR) });
    expect(backup.stdout).toMatch(/backup: 3 ROIs, 6 image files/);
    expect(fs.readdirSync(out).sort()).toEqual(['backup.json', 'blobs', DATABASE_FILE]);
    const fresh = temp('restored');
    const restore = await run(process.execPath, ['--import', 'tsx', CLI, 'restore', out], { env: envOf(fresh) });
    expect(restore.stdout).toMatch(/restore: 3 ROIs/);
    const again = await run(process.execPath, ['--import', 'tsx', CLI, 'restore', out], { env: envOf(fresh) }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect('code' in again && again.code).toBe(1);
    expect((again as { stderr: string }).stderr).toMatch(/already holds a database/);
  });
});
