import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existingHashes } from '../src/modules/rois/rois.repository.ts';
import { FileBlobStore, originalName, sha256Of, thumbName } from '../src/storage/blobs.ts';
import { sweepOrphanFiles } from '../src/storage/orphans.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

const HOUR = 3_600_000;

describe.each(dialects)('orphan sweep of the image files on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let station: { id: number; key: string };
  let root: string;
  let blobs: FileBlobStore;
  let seed = 0;
  const fileOf = (name: string) => path.join(root, name.slice(0, 2), name.slice(2, 4), name);
  const age = (name: string, ms: number) => {
    const t = new Date(Date.now() - ms);
    fs.utimesSync(fileOf(name), t, t);
  };
  const referenced = (hashes: string[]) => existingHashes(env.db.kysely, hashes);
  const ingest = async () => {
    const png = await pngOf(++seed, 28);
    const res = body(
      await uploadRoi(env, station.key, { captured_at: env.clock.now - seed * 1000, label_index: 1, size_px: 700 }, png),
    );
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
    return (res.data as { roi_id: number; sha256: string }).sha256;
  };
  /** The files a crashed ingest leaves: original and thumbnail written, no row. */
  const crashLeftovers = async () => {
    const png = await pngOf(10_000 + ++seed, 28);
    const sha = sha256Of(png);
    await blobs.put(originalName(sha, 'image/png'), png);
    await blobs.put(thumbName(sha), png);
    return sha;
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    station = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    root = path.join(env.config.DATA_DIR, 'blobs');
    blobs = new FileBlobStore(root);
  });
  afterEach(() => env.close());

  it('deletes files no ROI names once older than the grace, and keeps every file of a live ROI', async () => {
    const live = [await ingest(), await ingest()];
    const orphan = await crashLeftovers();
    const young = await crashLeftovers();
    for (const sha of [...live, orphan]) {
      age(originalName(sha, 'image/png'), 2 * HOUR);
      age(thumbName(sha), 2 * HOUR);
    }
    // A partial write of a crashed writer, old enough.
    const tmp = `${fileOf(originalName(orphan, 'image/png'))}.4242.1700000000000.tmp`;
    fs.writeFileSync(tmp, 'half an image');
    fs.utimesSync(tmp, new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR));

    const result = await sweepOrphanFiles(root, referenced, HOUR, Date.now);
    expect(result.deleted).toBe(3); // the orphan's original and thumbnail, the temporary file
    expect(fs.existsSync(fileOf(originalName(orphan, 'image/png')))).toBe(false);
    expect(fs.existsSync(fileOf(thumbName(orphan)))).toBe(false);
    expect(fs.existsSync(tmp)).toBe(false);
    // Within the grace: an ingest may be about to commit its row.
    expect(fs.existsSync(fileOf(originalName(young, 'image/png')))).toBe(true);
    for (const sha of live) {
      expect(fs.existsSync(fileOf(originalName(sha, 'image/png')))).toBe(true);
      expect(fs.existsSync(fileOf(thumbName(sha)))).toBe(true);
    }
  });

  it('reclaims the files of ROIs purged from the recycle bin, and the app runs it as its recovery pass', async () => {
    const kept = await ingest();
    const purged = await ingest();
    const { id } = (await env.db.kysely
      .selectFrom('rois')
      .select('id')
      .where('sha256', '=', purged)
      .executeTakeFirstOrThrow()) as {
      id: number;
    };
    expect(
      body(await call(env, w.tokens.ownAdmin, 'POST', '/api/roi/save-move', { type: '2', category_id: -1000, roi_ids: [id] }))
        .code,
    ).toBe(1000);
    // Still in the bin: its files stay.
    expect((await sweepOrphanFiles(root, referenced, 0, Date.now)).deleted).toBe(0);
    env.clock.advance(400 * 24 * HOUR);
    expect(await env.app.recycle.sweep()).toBe(1);
    // The app's own pass (grace 60 minutes by default): the purged ROI's files are too young yet...
    expect((await env.app.orphans.sweep()).deleted).toBe(0);
    for (const name of [originalName(purged, 'image/png'), thumbName(purged)]) age(name, 2 * HOUR);
    // ...and gone once older.
    expect((await env.app.orphans.sweep()).deleted).toBe(2);
    expect(await blobs.get(originalName(kept, 'image/png'))).not.toBeNull();
    expect(await blobs.get(originalName(purged, 'image/png'))).toBeNull();
  });

  it('never deletes a file an ingest claims while the sweep is deciding', async () => {
    const png = await pngOf(777, 28);
    const sha = sha256Of(png);
    const name = originalName(sha, 'image/png');
    await blobs.put(name, png);
    age(name, 2 * HOUR);
    // The same image arrives again while the sweep looks the hash up: the ingest's put touches the existing file
    // (its claim), then its row commits.
    let claimed = false;
    const racing = async (hashes: string[]) => {
      const found = await referenced(hashes);
      if (!claimed && hashes.includes(sha)) {
        claimed = true;
        await blobs.put(name, png);
      }
      return found;
    };
    const result = await sweepOrphanFiles(root, racing, HOUR, Date.now);
    expect(claimed).toBe(true);
    expect(result.deleted).toBe(0);
    expect(fs.readFileSync(fileOf(name)).equals(png)).toBe(true);

    // A claim that comes after the sweep moved the file aside finds no file and writes it again.
    age(name, 2 * HOUR);
    const late = async (hashes: string[]) => {
      const found = await referenced(hashes);
      if (hashes.length === 1 && fs.existsSync(`${fileOf(name)}.sweep`)) await blobs.put(name, png);
      return found;
    };
    await sweepOrphanFiles(root, late, HOUR, Date.now);
    expect(fs.readFileSync(fileOf(name)).equals(png)).toBe(true);
  });

  it('finishes a sweep interrupted between moving a file aside and deciding', async () => {
    const live = await ingest();
    const name = originalName(live, 'image/png');
    fs.renameSync(fileOf(name), `${fileOf(name)}.sweep`);
    const stale = `${fileOf(originalName('f'.repeat(64), 'image/png'))}.sweep`;
    fs.mkdirSync(path.dirname(stale), { recursive: true });
    fs.writeFileSync(stale, 'orphan moved aside');
    for (const f of [`${fileOf(name)}.sweep`, stale])
      fs.utimesSync(f, new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR));
    const result = await sweepOrphanFiles(root, referenced, HOUR, Date.now);
    expect(fs.existsSync(fileOf(name))).toBe(true); // its ROI exists: back in place
    expect(fs.existsSync(stale)).toBe(false);
    expect(result.deleted).toBe(1);
  });
});
