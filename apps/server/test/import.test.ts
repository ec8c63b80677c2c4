import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TreeNode } from '@ipp/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { importFolder, captureTimeOf, ImportError } from '../src/modules/transfer/import-folder.ts';
import { importRoisService } from '../src/modules/transfer/import-rois.ts';
import { blobStoreOf } from '../src/storage/s3-blobs.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { databaseUrl } from './helpers/pg-admin.ts';
import { pngOf, registerIpp, roiMultipart } from './helpers/device.ts';
import { unzip, zipOf } from './helpers/zip.ts';
import { checkEcotaxa } from './helpers/ecotaxa-rules.ts';
import yazl from 'yazl';

const run = promisify(execFile);
const IMPORT_CLI = path.resolve(import.meta.dirname, '../src/cli/import.ts');

/** Real labelled plankton images (MIT), read in place: never copied into the repository. */
const PWSSC = path.resolve(import.meta.dirname, '../../../../shared/data/pwssc-spc');
const havePwssc = fs.existsSync(PWSSC);
if (!havePwssc) console.warn(`\n*** import test uses synthetic images only: ${PWSSC} is missing\n`);

describe.each(dialects)('folder-per-class import on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let dir: string;
  let a1: { id: number };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-import-src-'));
    // Two real classes (when the data set is here), a folder already named by the rule, and a broken file.
    for (const cls of havePwssc ? ['Copepod', 'Oithona'] : []) {
      fs.mkdirSync(path.join(dir, cls));
      for (const f of fs.readdirSync(path.join(PWSSC, cls)).slice(0, 3))
        fs.copyFileSync(path.join(PWSSC, cls, f), path.join(dir, cls, f));
    }
    fs.mkdirSync(path.join(dir, '140Noctiluca'));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'a.png'), await pngOf(1));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'b.png'), await pngOf(2));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'broken.png'), Buffer.from('not an image'));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'notes.txt'), 'ignored');
  });
  afterEach(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await env.close();
  });

  it('imports images as HI ROIs of their class, files them in the team library, and is safe to re-run', async () => {
    const run = () => importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'A1', as: 'reference' });
    const progress: number[] = [];
    const report = await importFolder(env.db, env.app.rois, () => env.clock.now, {
      dir,
      devId: 'A1',
      as: 'reference',
      onProgress: (done) => progress.push(done),
    });
    const real = havePwssc ? 6 : 0;
    expect(report.imported).toBe(real + 2);
    expect(report.failed.map((f) => f.file)).toEqual([path.join('140Noctiluca', 'broken.png')]);
    expect(progress.at(-1)).toBe(real + 3);
    expect(report.classes.find((c) => c.folder === '140Noctiluca')).toMatchObject({ class: '140Noctiluca', created: true });
    if (havePwssc) {
      expect(report.classes.find((c) => c.folder === 'Copepod')).toMatchObject({ class: '001Copepod', created: false });
      expect(report.classes.find((c) => c.folder === 'Oithona')).toMatchObject({ class: '100Oithona', created: true });
    }
    const tree = body(await call(env, w.tokens.user, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${a1.id}`))
      .data as TreeNode[];
    const hi = tree.find((n) => n.code === 't:hi')!;
    expect(hi.count).toBe(real + 2);
    expect(hi.children.find((c) => c.title === '140Noctiluca')?.count).toBe(2);
    const library = body(await call(env, w.tokens.user, 'GET', '/api/roi-index/index?category_id=-2')).data as TreeNode[];
    expect(library.map((n) => [n.title, n.count])).toContainEqual(['140Noctiluca', 2]);
    // Capture times come from the SPC file names.
    if (havePwssc) {
      const named = ['Copepod', 'Oithona']
        .flatMap((c) => fs.readdirSync(path.join(dir, c)))
        .map((f) => /-(1\d{9})-/.exec(f)?.[1])
        .filter((v): v is string => v !== undefined)
        .map((v) => Number(v) * 1000);
      const times = (await env.db.kysely.selectFrom('rois').select('roi_time').where('hi', '=', 1).execute()).map((t) =>
        Number(t.roi_time),
      );
      expect(named.length).toBeGreaterThan(0);
      for (const t of named) expect(times).toContain(t);
    }
    const again = await run();
    expect([again.imported, again.duplicates]).toEqual([0, real + 2]);
    expect(
      (
        body(await call(env, w.tokens.user, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${a1.id}`)).data as TreeNode[]
      ).find((n) => n.code === 't:hi')?.count,
    ).toBe(real + 2);
    await expect(importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'nope', as: 'hi' })).rejects.toThrow(
      ImportError,
    );
  });

  it('reports an image filed under two classes instead of dropping it silently; the stored ROI keeps its class', async () => {
    fs.mkdirSync(path.join(dir, '141Dinophysis'));
    fs.writeFileSync(path.join(dir, '141Dinophysis', 'same-as-a.png'), await pngOf(1));
    fs.writeFileSync(path.join(dir, '141Dinophysis', 'c.png'), await pngOf(3));
    const run = () => importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'A1', as: 'hi' });
    const report = await run();
    const roi = await env.db.kysely
      .selectFrom('rois as r')
      .innerJoin('classes as c', 'c.id', 'r.class_id')
      .select(['r.id', 'c.name'])
      .where(
        'r.sha256',
        '=',
        createHash('sha256')
          .update(await pngOf(1))
          .digest('hex'),
      )
      .execute();
    expect(roi).toEqual([{ id: expect.any(Number), name: '140Noctiluca' }]);
    expect(report.conflicts).toEqual([
      { file: path.join('141Dinophysis', 'same-as-a.png'), class: '141Dinophysis', kept: '140Noctiluca', roi_id: roi[0]!.id },
    ]);
    expect(report.duplicates).toBe(1);
    // A re-run finds every image already there; only the one filed under another class is a conflict again.
    const again = await run();
    expect(again.conflicts.map((c) => c.file)).toEqual([path.join('141Dinophysis', 'same-as-a.png')]);
    expect(again.imported).toBe(0);
  });

  it("npm run import measures each image as the server does: features and the object's area, not the frame", async () => {
    // An object of known size: a 20 × 10 bright rectangle on a dark 64 × 48 frame.
    const frame = Buffer.alloc(64 * 48, 8);
    for (let y = 19; y < 29; y++) for (let x = 22; x < 42; x++) frame[y * 64 + x] = 220;
    fs.writeFileSync(
      path.join(dir, '140Noctiluca', 'rect.png'),
      await sharp(frame, { raw: { width: 64, height: 48, channels: 1 } })
        .png()
        .toBuffer(),
    );
    const { rois, close } = importRoisService(env.db, () => env.clock.now, blobStoreOf(env.config), {
      statsUtcOffset: env.config.STATS_UTC_OFFSET,
      featureWorkers: 1,
    });
    try {
      const report = await importFolder(env.db, rois, () => env.clock.now, { dir, devId: 'A1', as: 'hi' });
      expect(report.failed).toHaveLength(1); // broken.png
      const stored = await env.db.kysely
        .selectFrom('rois as r')
        .leftJoin('roi_features as f', 'f.roi_id', 'r.id')
        .select(['r.id', 'r.size_px', 'r.width', 'r.height', 'f.roi_id as measured'])
        .execute();
      expect(stored).toHaveLength(report.imported);
      for (const row of stored) expect(row.measured, `ROI ${row.id} has its features`).toBe(row.id);
      const rect = stored.find((r) => r.width === 64 && r.height === 48)!;
      expect(rect.size_px).toBeGreaterThanOrEqual(180);
      expect(rect.size_px).toBeLessThanOrEqual(220);
    } finally {
      await close();
    }
  });

  it('issue 37: capture times from the file name or the file time (counted), EcoTaxa folder suffixes, stored counts per class', async () => {
    // A set without times in its names: the files' own times are the capture times, not the time of the import.
    fs.mkdirSync(path.join(dir, 'detritus__8888'));
    fs.mkdirSync(path.join(dir, 'Copepod__45072'));
    const taken = Date.UTC(2025, 5, 1, 12, 30, 5);
    for (const [i, file] of ['detritus__8888/d1.png', 'detritus__8888/d2.png', 'Copepod__45072/c1.png'].entries()) {
      fs.writeFileSync(path.join(dir, file), await pngOf(60 + i));
      fs.utimesSync(path.join(dir, file), new Date(taken + i * 1000), new Date(taken + i * 1000));
    }
    fs.writeFileSync(path.join(dir, 'Copepod__45072', 'SPC-PWSSC-1473068024-000631-046.png'), await pngOf(63));
    const run = () => importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'A1', as: 'hi' });
    const report = await run();
    const real = havePwssc ? 6 : 0;
    const named = havePwssc
      ? ['Copepod', 'Oithona'].flatMap((c) => fs.readdirSync(path.join(dir, c))).filter((f) => /-1\d{9}-/.test(f)).length
      : 0;
    // 140Noctiluca's a.png and b.png have no time in their names either (broken.png failed before it was read).
    expect(report.capture_times).toEqual({ labels_csv: 0, file_name: named + 1, file_time: real - named + 2 + 3 });
    const k = env.db.kysely;
    const timeOf = async (seed: number) =>
      Number(
        (
          await k
            .selectFrom('rois')
            .select('roi_time')
            .where(
              'sha256',
              '=',
              createHash('sha256')
                .update(await pngOf(seed))
                .digest('hex'),
            )
            .executeTakeFirstOrThrow()
        ).roi_time,
      );
    expect(await timeOf(60)).toBe(taken);
    expect(await timeOf(61)).toBe(taken + 1000);
    expect(await timeOf(62)).toBe(taken + 2000);
    expect(await timeOf(63)).toBe(1473068024000);
    // The EcoTaxa taxon id after "__" is not part of the class: Copepod__45072 is 001Copepod, detritus__8888 the
    // system class 007Detritus (before issue 37: new classes "100Copepod__45072" and "101detritus__8888").
    const byFolder = new Map(report.classes.map((c) => [c.folder, c]));
    expect(byFolder.get('Copepod__45072')).toEqual({
      folder: 'Copepod__45072',
      class: '001Copepod',
      created: false,
      images: 2,
      duplicates: 0,
    });
    expect(byFolder.get('detritus__8888')).toMatchObject({ class: '007Detritus', created: false, images: 2, duplicates: 0 });
    expect(await k.selectFrom('classes').select('name').where('name', 'like', '%\\_\\_%').execute()).toEqual([]);
    // A re-run stores nothing: every class says 0 stored and how many were already there.
    const again = await run();
    expect(again.imported).toBe(0);
    for (const c of again.classes) expect(c.images).toBe(0);
    expect(again.classes.map((c) => [c.folder, c.duplicates])).toEqual(report.classes.map((c) => [c.folder, c.images]));
  });

  it('issue 37: a per-import pixel size is stored on the imported ROIs and every µm figure of theirs uses it', async () => {
    const k = env.db.kysely;
    await k.updateTable('ipps').set({ pixel_size_um: 5 }).where('id', '=', a1.id).execute();
    fs.mkdirSync(path.join(dir, 'Other'));
    fs.writeFileSync(path.join(dir, 'Other', 'x.png'), await pngOf(71));
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-import-other-'));
    try {
      // The station's own set (no pixel size given) and another instrument's images at 0.5 µm per pixel.
      fs.mkdirSync(path.join(other, 'Other'));
      fs.writeFileSync(path.join(other, 'Other', 'y.png'), await pngOf(72));
      await importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'A1', as: 'hi' });
      await importFolder(env.db, env.app.rois, () => env.clock.now, { dir: other, devId: 'A1', as: 'hi', pixelSizeUm: 0.5 });
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
    const idOf = async (seed: number) =>
      (
        await k
          .selectFrom('rois')
          .select(['id', 'pixel_size_um'])
          .where(
            'sha256',
            '=',
            createHash('sha256')
              .update(await pngOf(seed))
              .digest('hex'),
          )
          .executeTakeFirstOrThrow()
      ).id;
    const [own, foreign] = [await idOf(71), await idOf(72)];
    const stored = await k.selectFrom('rois').select(['id', 'pixel_size_um']).where('id', 'in', [own, foreign]).execute();
    expect(new Map(stored.map((r) => [r.id, r.pixel_size_um]))).toEqual(
      new Map([
        [own, null],
        [foreign, 0.5],
      ]),
    );
    // The image's details carry its own pixel size; the station's other images keep the station's.
    const details = async (id: number) =>
      (
        body(await call(env, w.tokens.ownAdmin, 'GET', `/api/roi/get-roi-details?roi_id=${id}`)).data as {
          roi: { pixel_size_um: number };
        }
      ).roi.pixel_size_um;
    expect(await details(foreign)).toBe(0.5);
    expect(await details(own)).toBe(5);
    // The EcoTaxa export: its acquisition apart, its µm figures from 0.5 µm per pixel, and EcoTaxa ignores nothing.
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/roi/export',
      headers: { 'x-token': w.tokens.ownAdmin },
      payload: { format: 'ecotaxa', roi_ids: [own, foreign] },
    });
    expect(res.statusCode).toBe(200);
    const check = checkEcotaxa(await unzip(res.rawPayload));
    expect([check.errors, check.silent]).toEqual([[], []]);
    const row = (id: number) => check.rows.find((r) => r.object_id!.endsWith(`_${id}`))!;
    expect(row(foreign).acq_pixel_size_um).toBe('0.5');
    expect(row(own).acq_pixel_size_um).toBe('5');
    expect(row(foreign).acq_id).toMatch(/_px0\.5$/);
    expect(row(foreign).acq_id).not.toBe(row(own).acq_id);
    expect(Number(row(foreign).object_area_um2)).toBeCloseTo(Number(row(foreign).object_area) * 0.25, 3);
    expect(Number(row(own).object_area_um2)).toBeCloseTo(Number(row(own).object_area) * 25, 1);
  });

  it('npm run import --pixel-size: stored on each imported image; a bad value is refused before anything is read', async () => {
    // The command line works on the world's own database: its SQLite file in DATA_DIR, or its PostgreSQL database.
    const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: env.config.DATA_DIR };
    delete cliEnv.DATABASE_URL;
    delete cliEnv.STORAGE_URL;
    if (env.db.dialect === 'postgres') {
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(env.db.kysely);
      cliEnv.DATABASE_URL = databaseUrl(rows[0]!.name);
    }
    const bad = await run(process.execPath, ['--import', 'tsx', IMPORT_CLI, dir, '--station', 'A1', '--pixel-size', 'wide'], {
      env: cliEnv,
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in bad && bad.code).toBe(2);
    expect((bad as { stderr: string }).stderr).toContain('--pixel-size must be a number of micrometres per pixel');
    expect(await env.db.kysely.selectFrom('rois').select('id').execute()).toEqual([]);
    const ok = await run(process.execPath, ['--import', 'tsx', IMPORT_CLI, dir, '--station', 'A1', '--pixel-size', '0.25'], {
      env: cliEnv,
    }).catch((e: { code: number; stdout: string }) => e);
    // broken.png fails (exit 1); every image stored has 0.25 µm per pixel.
    expect((ok as { stdout: string }).stdout).toMatch(
      /capture times: 0 from labels.csv, \d+ from file names, \d+ from the files' modification times/,
    );
    const sizes = await env.db.kysely.selectFrom('rois').select('pixel_size_um').execute();
    expect(sizes.length).toBe((havePwssc ? 6 : 0) + 2);
    for (const s of sizes) expect(s.pixel_size_um).toBe(0.25);
  });

  it("issue 37: a set's labels.csv time column gives the capture times, before the file name and the file time", async () => {
    fs.mkdirSync(path.join(dir, 'Timed'));
    const files = ['a.png', 'b.png', 'SPC-X-1473068024-9.png', 'c.png', 'd.png'];
    for (const [i, f] of files.entries()) fs.writeFileSync(path.join(dir, 'Timed', f), await pngOf(80 + i));
    const mtime = new Date(Date.UTC(2023, 0, 2, 3, 4, 5));
    fs.utimesSync(path.join(dir, 'Timed', 'd.png'), mtime, mtime);
    fs.writeFileSync(
      path.join(dir, 'labels.csv'),
      [
        'path,class,captured_at',
        'Timed/a.png,Timed,2026-03-04T05:06:07Z',
        'Timed/b.png,Timed,1700000000',
        'Timed/SPC-X-1473068024-9.png,Timed,2026-03-04 05:06:08+0800',
        'Timed/c.png,Timed,1700000000123',
        'Timed/d.png,Timed,not a time',
      ].join('\n'),
    );
    const report = await importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'A1', as: 'hi' });
    expect(report.capture_times!.labels_csv).toBe(4);
    const k = env.db.kysely;
    const timeOf = async (seed: number) =>
      Number(
        (
          await k
            .selectFrom('rois')
            .select('roi_time')
            .where(
              'sha256',
              '=',
              createHash('sha256')
                .update(await pngOf(seed))
                .digest('hex'),
            )
            .executeTakeFirstOrThrow()
        ).roi_time,
      );
    expect(await timeOf(80)).toBe(Date.UTC(2026, 2, 4, 5, 6, 7));
    expect(await timeOf(81)).toBe(1700000000000);
    expect(await timeOf(82)).toBe(Date.UTC(2026, 2, 3, 21, 6, 8));
    expect(await timeOf(83)).toBe(1700000000123);
    // No time the table can read: the file's own.
    expect(await timeOf(84)).toBe(mtime.getTime());
  });

  it('reads capture times from file names', () => {
    expect(captureTimeOf('SPC-PWSSC-1473068024-000631-046-1284-2142-324-276.png', 5)).toBe(1473068024000);
    expect(captureTimeOf('plankton_01.png', 1234.4)).toBe(1234);
  });
});

/** A zip made in memory: entries name → bytes. */
describe.each(dialects)('zip import from the console on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
  });
  afterEach(() => env.close());

  const upload = (token: string | undefined, query: string, zip: Buffer, lang = 'en') => {
    const { payload, headers } = roiMultipart({}, zip);
    return env.app.inject({
      method: 'POST',
      url: `/api/roi/import?${query}`,
      payload,
      headers: { ...headers, 'x-lang': lang, 'x-token': token ?? '' },
    });
  };

  it('imports a zip of class folders (inside one top folder) for administrators of the station team', async () => {
    const zip = await zipOf({
      'set/141Salpa/a.png': await pngOf(11),
      'set/141Salpa/b.png': await pngOf(12),
      'set/Copepod/SPC-X-1473068024-1.png': await pngOf(13),
      '__MACOSX/set/._a.png': Buffer.from('junk'),
    });
    const res = body(await upload(w.tokens.ownAdmin, 'dev_id=A1&as=reference', zip));
    expect(res.code).toBe(1000);
    const report = res.data as { imported: number; classes: { folder: string; class: string }[]; failed: unknown[] };
    expect(report.imported).toBe(3);
    expect(report.failed).toEqual([]);
    expect(report.classes.map((c) => [c.folder, c.class])).toEqual([
      ['141Salpa', '141Salpa'],
      ['Copepod', '001Copepod'],
    ]);
    const library = body(await call(env, w.tokens.user, 'GET', '/api/roi-index/index?category_id=-2')).data as TreeNode[];
    expect(library.map((n) => [n.title, n.count])).toEqual([
      ['001Copepod', 1],
      ['141Salpa', 2],
    ]);
  });

  it("issue 37: an image unpacked from a zip keeps its entry's time as its capture time, not the time of the import", async () => {
    const taken = new Date(Date.UTC(2024, 2, 3, 4, 5, 6));
    const zip = new yazl.ZipFile();
    zip.addBuffer(await pngOf(91), 'set/Copepod/a.png', { mtime: taken });
    zip.addBuffer(await pngOf(92), 'set/Copepod/SPC-X-1473068024-1.png', { mtime: taken });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const res = body(await upload(w.tokens.ownAdmin, 'dev_id=A1&as=hi', Buffer.concat(chunks)));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    expect((res.data as { capture_times: unknown }).capture_times).toEqual({ labels_csv: 0, file_name: 1, file_time: 1 });
    const times = (await env.db.kysely.selectFrom('rois').select('roi_time').orderBy('roi_time').execute()).map((r) =>
      Number(r.roi_time),
    );
    expect(times).toEqual([1473068024000, taken.getTime()]);
  });

  it("issue 37: the console import's pixel_size_um is stored on the imported images; a bad one is refused in the caller's language", async () => {
    const zip = await zipOf({ 'Copepod/a.png': await pngOf(95), 'Copepod/b.png': await pngOf(96) });
    for (const [lang, value] of [
      ['en', '0'],
      ['zh', 'wide'],
      ['en', '5000'],
    ] as const) {
      const res = body(await upload(w.tokens.ownAdmin, `dev_id=A1&pixel_size_um=${value}`, zip, lang));
      expect(res.code).toBe(1002);
      expect(String(res.msg)).toContain('pixel_size_um');
      if (lang === 'zh') expect(String(res.msg)).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(await env.db.kysely.selectFrom('rois').select('id').execute()).toEqual([]);
    const res = body(await upload(w.tokens.ownAdmin, 'dev_id=A1&as=hi&pixel_size_um=0.5', zip));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    const stored = await env.db.kysely.selectFrom('rois').select('pixel_size_um').execute();
    expect(stored).toEqual([{ pixel_size_um: 0.5 }, { pixel_size_um: 0.5 }]);
  });

  it("issue 37: a zip's labels.csv gives its images' capture times", async () => {
    const zip = await zipOf({
      'set/labels.csv': Buffer.from('path,class,time\nCopepod/a.png,Copepod,2025-07-08T09:10:11Z\n'),
      'set/Copepod/a.png': await pngOf(97),
    });
    const res = body(await upload(w.tokens.ownAdmin, 'dev_id=A1&as=hi', zip));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    expect((res.data as { capture_times: unknown }).capture_times).toEqual({ labels_csv: 1, file_name: 0, file_time: 0 });
    const [row] = await env.db.kysely.selectFrom('rois').select('roi_time').execute();
    expect(Number(row!.roi_time)).toBe(Date.UTC(2025, 6, 8, 9, 10, 11));
  });

  it('two administrators import the same set at once: each image stored once, one new class, no conflict', async () => {
    const zip = await zipOf({
      'Noctiluca/a.png': await pngOf(31),
      'Noctiluca/b.png': await pngOf(32),
      'Copepod/c.png': await pngOf(33),
    });
    const [one, two] = await Promise.all([
      upload(w.tokens.ownAdmin, 'dev_id=A1&as=hi', zip),
      upload(w.tokens.superadmin, 'dev_id=A1&as=hi', zip),
    ]);
    const reports = [body(one), body(two)].map((res) => {
      expect(res.code, JSON.stringify(res)).toBe(1000);
      return res.data as { imported: number; duplicates: number; conflicts: unknown[]; failed: unknown[] };
    });
    expect(reports[0]!.imported + reports[1]!.imported).toBe(3);
    expect(reports[0]!.duplicates + reports[1]!.duplicates).toBe(3);
    for (const r of reports) expect([r.conflicts, r.failed]).toEqual([[], []]);
    const k = env.db.kysely;
    expect((await k.selectFrom('rois').select('id').execute()).length).toBe(3);
    expect((await k.selectFrom('classes').select('name').where('name', 'like', '%Noctiluca').execute()).length).toBe(1);
    const a1 = (await k.selectFrom('ipps').select('id').where('dev_id', '=', 'A1').executeTakeFirstOrThrow()).id;
    const tree = body(await call(env, w.tokens.user, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${a1}`))
      .data as TreeNode[];
    expect(tree.find((n) => n.code === 't:hi')?.count).toBe(3);
  });

  it('refuses users, other teams, non-zips and entries that would escape the folder, importing nothing', async () => {
    const zip = await zipOf({ 'AA/x.png': await pngOf(21) });
    expect(body(await upload(w.tokens.user, 'dev_id=A1', zip)).code).toBe(1011);
    expect(body(await upload(w.tokens.ownAdmin, 'dev_id=B1', zip)).code).toBe(1002);
    const notZip = body(await upload(w.tokens.ownAdmin, 'dev_id=A1', Buffer.from('hello'), 'zh'));
    expect(notZip.code).toBe(1002);
    expect(notZip.msg).toMatch(/^无法导入该压缩包/);
    // "AA/" becomes "../" in both the local and the central header: a zip-slip entry.
    const evil = Buffer.from(zip.toString('latin1').replaceAll('AA/x.png', '../x.png'), 'latin1');
    const slip = body(await upload(w.tokens.ownAdmin, 'dev_id=A1', evil));
    // yauzl refuses the name itself ("invalid relative path"); our own check stands behind it.
    expect(slip.code).toBe(1002);
    expect(slip.msg).toMatch(/^This zip cannot be imported: .*\.\.\/x\.png$/);
    expect(await env.db.kysely.selectFrom('rois').select('id').execute()).toEqual([]);
  });

  /** What a refused import must leave: no ROIs, no image files, no temporary folder or open file. */
  const keptNothing = async () => {
    expect(await env.db.kysely.selectFrom('rois').select('id').execute()).toEqual([]);
    expect(filesUnder(path.join(env.config.DATA_DIR, 'blobs'))).toEqual([]);
    expect(filesUnder(path.join(env.config.DATA_DIR, 'tmp'), true)).toEqual([]);
    expect(openFilesUnder(path.join(env.config.DATA_DIR, 'tmp'))).toEqual([]);
  };

  it('refuses a zip bomb with 413: by the sizes it declares, and by the bytes it inflates when it lies', async () => {
    // 75 MB of zeros in about 75 KB (issue 20: a 299 KB zip unpacked to 300 MB).
    const zeros = Buffer.alloc(25 * 1024 * 1024);
    const bomb = await zipOf({
      'set/141Salpa/a.png': await pngOf(31),
      'set/141Salpa/b.png': zeros,
      'set/141Salpa/c.png': zeros,
      'set/141Salpa/d.png': zeros,
    });
    expect(bomb.length).toBeLessThan(300 * 1024);
    for (const [lang, msg] of [
      ['en', 'The zip unpacks to more than 64 MB; split it into smaller zips and import them one at a time'],
      ['zh', '压缩包解压后超过 64 MB，请拆分成较小的压缩包分别导入'],
    ] as const) {
      const res = await upload(w.tokens.ownAdmin, 'dev_id=A1&as=hi', bomb, lang);
      expect(res.statusCode).toBe(413);
      expect(body(res)).toMatchObject({ code: 1002, msg, model: { field: 'file' } });
    }
    await keptNothing();
    // The same entry claiming 1 KB: refused while it inflates, long before it is all on disk.
    const liar = await zipOf({ 'set/141Salpa/a.png': await pngOf(32), 'set/141Salpa/lie.png': Buffer.alloc(70 * 1024 * 1024) });
    const lying = declareSize(liar, 'set/141Salpa/lie.png', 1024);
    const res = body(await upload(w.tokens.ownAdmin, 'dev_id=A1&as=hi', lying));
    expect(res.code).toBe(1002);
    expect(res.msg).toMatch(/^This zip cannot be imported: set\/141Salpa\/lie\.png/);
    await keptNothing();
    // More entries than an import takes (the count the zip declares): refused before any is read.
    const many = await zipOf({ 'set/141Salpa/a.png': await pngOf(33) });
    const counted = Buffer.from(many);
    const eocd = counted.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    counted.writeUInt16LE(60_000, eocd + 8);
    counted.writeUInt16LE(60_000, eocd + 10);
    const crowd = await upload(w.tokens.ownAdmin, 'dev_id=A1&as=hi', counted);
    expect(crowd.statusCode).toBe(413);
    expect(body(crowd).msg).toBe('The zip holds more than 50000 files; split it into smaller zips and import them one at a time');
    await keptNothing();
  });

  it('never shows a server path in an import error or report', async () => {
    const serverPaths = [os.tmpdir(), env.config.DATA_DIR, 'ipp-import', path.join(env.config.DATA_DIR, 'tmp')];
    const clean = (text: string) => {
      for (const p of serverPaths) expect(text).not.toContain(p);
    };
    // No images at all: said in the user's language.
    for (const [lang, msg] of [
      ['en', 'The zip holds no images to import (expected one folder of images per class)'],
      ['zh', '压缩包中没有可导入的图像（应为每个类别一个文件夹，文件夹中放该类别的图像）'],
    ] as const) {
      const res = await upload(w.tokens.ownAdmin, 'dev_id=A1', await zipOf({ 'set/notes/readme.txt': Buffer.from('hi') }), lang);
      expect(body(res)).toMatchObject({ code: 1002, msg, model: { field: 'file' } });
      clean(res.body);
    }
    // A file and a folder of the same name: the unpacking fails inside the server's folder.
    const clash = await upload(
      w.tokens.ownAdmin,
      'dev_id=A1',
      await zipOf({ 'set/141Salpa/x.png': await pngOf(41), 'set/141Salpa/x.png/y.png': await pngOf(42) }),
    );
    expect(body(clash).code).toBe(1002);
    expect(body(clash).msg).toMatch(/^This zip cannot be imported: set\/141Salpa\/x\.png\/y\.png/);
    clean(clash.body);
    // A broken image is reported by its place in the zip.
    const report = await upload(
      w.tokens.ownAdmin,
      'dev_id=A1',
      await zipOf({ 'set/141Salpa/good.png': await pngOf(43), 'set/141Salpa/broken.png': Buffer.from('not an image') }),
    );
    expect(body(report)).toMatchObject({
      code: 1000,
      data: { imported: 1, failed: [{ file: path.join('141Salpa', 'broken.png') }] },
    });
    clean(report.body);
    expect(filesUnder(path.join(env.config.DATA_DIR, 'tmp'), true)).toEqual([]);
  });
});

/** Every file (and, with `dirs`, folder) under a folder, relative to it. */
function filesUnder(dir: string, dirs = false): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => dirs || e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Files under `dir` this process holds open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  if (!fs.existsSync('/proc/self/fd')) return [];
  return fs
    .readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((f) => f.startsWith(dir + path.sep));
}

/** The zip with one entry's uncompressed size rewritten (local and central headers): a zip that lies about it. */
function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const local = out.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]));
  for (let at = local; at >= 0; at = out.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), at + 4)) {
    const nameLength = out.readUInt16LE(at + 26);
    if (out.toString('utf8', at + 30, at + 30 + nameLength) === name) out.writeUInt32LE(size, at + 22);
  }
  for (
    let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    at >= 0;
    at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
  ) {
    const nameLength = out.readUInt16LE(at + 28);
    if (out.toString('utf8', at + 46, at + 46 + nameLength) === name) out.writeUInt32LE(size, at + 24);
  }
  return out;
}
