import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { existingHashes } from '../src/modules/rois/rois.repository.ts';
import { originalName, sha256Of, thumbName } from '../src/storage/blobs.ts';
import { S3BlobStore, parseStorageUrl } from '../src/storage/s3-blobs.ts';
import { sweepOrphanObjects } from '../src/storage/s3-orphans.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

const HOUR = 3_600_000;

/**
 * The orphan sweep of an S3-protocol bucket (storage/s3-orphans.ts) against s3rver, an S3-protocol server run in this
 * process. s3rver keeps each object as a file whose modification time is the object's Last-Modified, which is how these
 * tests age an object.
 */
describe('orphan sweep of images in an S3-protocol bucket', () => {
  let server: S3rver;
  let dir: string;
  let url: string;
  let env: TestEnv;
  let w: World;
  let station: { id: number; key: string };
  let store: S3BlobStore;
  let seed = 0;

  const keyOf = (name: string) => `images/${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
  const fileOf = (key: string) =>
    path.join(dir, 'ipp', ...key.split('/').slice(0, -1), `${key.split('/').at(-1)}._S3rver_object`);
  const exists = (name: string) => fs.existsSync(fileOf(keyOf(name)));
  const age = (key: string, ms: number) => {
    const t = new Date(Date.now() - ms);
    fs.utimesSync(fileOf(key), t, t);
  };
  const ageImage = (sha: string) => {
    age(keyOf(originalName(sha, 'image/png')), 2 * HOUR);
    age(keyOf(thumbName(sha)), 2 * HOUR);
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
  /** What a crashed ingest leaves: original and thumbnail in the bucket, no row. */
  const crashLeftovers = async () => {
    const png = await pngOf(10_000 + ++seed, 28);
    const sha = sha256Of(png);
    await store.put(originalName(sha, 'image/png'), png);
    await store.put(thumbName(sha), png);
    return { sha, png };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-s3-sweep-'));
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'ipp', configs: [] }],
    });
    const { port } = await server.run();
    url = `s3://ipp/images?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}`;
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    fs.rmSync(path.join(dir, 'ipp', 'images'), { recursive: true, force: true });
    env = await buildTestApp('sqlite', { config: { STORAGE_URL: url } });
    w = await buildWorld(env);
    station = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    store = new S3BlobStore(parseStorageUrl(url));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    store.close();
    await env.close();
  });

  it('deletes objects no ROI names once older than the grace, over several list pages, and keeps every live one', async () => {
    const live = [await ingest(), await ingest(), await ingest()];
    const orphans = [await crashLeftovers(), await crashLeftovers()];
    const young = await crashLeftovers();
    for (const sha of [...live, ...orphans.map((o) => o.sha)]) ageImage(sha);

    // Pages of 3 keys: 12 objects, so the listing is continued four times.
    const result = await sweepOrphanObjects(store.objects(3), referenced, HOUR, Date.now);
    expect(result.files).toBe(12);
    expect(result.deleted).toBe(4);
    expect(result.bytes).toBe(orphans.reduce((sum, o) => sum + 2 * o.png.length, 0));
    for (const { sha } of orphans) {
      expect(exists(originalName(sha, 'image/png'))).toBe(false);
      expect(exists(thumbName(sha))).toBe(false);
    }
    // Within the grace: an ingest may be about to commit its row.
    expect(exists(originalName(young.sha, 'image/png'))).toBe(true);
    for (const sha of live) {
      expect((await store.get(originalName(sha, 'image/png')))?.data.length).toBeGreaterThan(0);
      expect(exists(thumbName(sha))).toBe(true);
    }
    // No aside copy is left behind.
    const all = fs.readdirSync(path.join(dir, 'ipp'), { recursive: true }) as string[];
    expect(all.filter((f) => f.includes('.sweep'))).toEqual([]);
  });

  it('is the app’s recovery pass on S3: reclaims the images of ROIs purged from the recycle bin', async () => {
    const kept = await ingest();
    const purged = await ingest();
    const { id } = await env.db.kysely.selectFrom('rois').select('id').where('sha256', '=', purged).executeTakeFirstOrThrow();
    const moved = await call(env, w.tokens.ownAdmin, 'POST', '/api/roi/save-move', {
      type: '2',
      category_id: -1000,
      roi_ids: [id],
    });
    expect(body(moved).code).toBe(1000);
    ageImage(kept);
    ageImage(purged);
    // Still in the bin: its images stay.
    expect((await env.app.orphans.sweep()).deleted).toBe(0);
    env.clock.advance(400 * 24 * HOUR);
    expect(await env.app.recycle.sweep()).toBe(1);
    const result = await env.app.orphans.sweep();
    expect(result).toMatchObject({ files: 4, deleted: 2 });
    expect(exists(originalName(purged, 'image/png'))).toBe(false);
    expect(exists(originalName(kept, 'image/png'))).toBe(true);
  });

  it('leaves an image alone that an ingest wrote again after the listing', async () => {
    const { sha, png } = await crashLeftovers();
    ageImage(sha);
    // The same image arrives while the sweep asks the database about the page: the ingest writes it again (S3BlobStore.put).
    let rewritten = false;
    const racing = async (hashes: string[]) => {
      const found = await referenced(hashes);
      if (!rewritten && hashes.includes(sha)) {
        rewritten = true;
        await store.put(originalName(sha, 'image/png'), png);
        await store.put(thumbName(sha), png);
      }
      return found;
    };
    const result = await sweepOrphanObjects(store.objects(), racing, HOUR, Date.now);
    expect(rewritten).toBe(true);
    expect(result.deleted).toBe(0);
    expect((await store.get(originalName(sha, 'image/png')))!.data.equals(png)).toBe(true);
  });

  it('puts an image back when its row commits between the sweep’s two questions', async () => {
    const { sha, png } = await crashLeftovers();
    ageImage(sha);
    // Not named when the sweep asks about the page, nor when it asks again before deleting the original; named from
    // the question after that deletion on (the row committed in between).
    let asked = 0;
    const committing = async (hashes: string[]) => {
      if (hashes.includes(sha)) asked++;
      return new Set(asked >= 3 ? [sha] : []);
    };
    const result = await sweepOrphanObjects(store.objects(), committing, HOUR, Date.now);
    expect(asked).toBeGreaterThanOrEqual(3);
    expect(result.deleted).toBe(0);
    expect((await store.get(originalName(sha, 'image/png')))!.data.equals(png)).toBe(true);
    expect((await store.get(thumbName(sha)))!.data.equals(png)).toBe(true);
    const all = fs.readdirSync(path.join(dir, 'ipp'), { recursive: true }) as string[];
    expect(all.filter((f) => f.includes('.sweep'))).toEqual([]);
  });

  it('an ingest whose images are deleted before its row commits writes them again after the commit', async () => {
    // A sweep deleting the images between the ingest's writes and its commit (it asked the database too early).
    const put = S3BlobStore.prototype.put;
    const deleted = new Set<string>();
    vi.spyOn(S3BlobStore.prototype, 'put').mockImplementation(async function (this: S3BlobStore, name, data) {
      await put.call(this, name, data);
      if (deleted.has(name)) return;
      deleted.add(name);
      await store.objects().remove(keyOf(name));
    });
    const png = await pngOf(4242, 28);
    const res = body(await uploadRoi(env, station.key, { captured_at: env.clock.now, label_index: 1, size_px: 700 }, png));
    expect(res.code).toBe(1000);
    vi.restoreAllMocks();
    expect(deleted.size).toBe(2);
    const sha = sha256Of(png);
    expect((await store.get(originalName(sha, 'image/png')))!.data.equals(png)).toBe(true);
    expect(await store.get(thumbName(sha))).not.toBeNull();
  });

  it('finishes a sweep stopped between its aside copy and its decision', async () => {
    const live = await ingest();
    const name = originalName(live, 'image/png');
    const bucket = store.objects();
    // Stopped after deleting the original: the ROI exists, so its image comes back from the aside copy.
    await bucket.copy(keyOf(name), `${keyOf(name)}.sweep`);
    await bucket.remove(keyOf(name));
    // An orphan's aside copy: deleted.
    const orphan = await crashLeftovers();
    const orphanKey = keyOf(originalName(orphan.sha, 'image/png'));
    await bucket.copy(orphanKey, `${orphanKey}.sweep`);
    await bucket.remove(orphanKey);
    age(`${keyOf(name)}.sweep`, 2 * HOUR);
    age(`${orphanKey}.sweep`, 2 * HOUR);

    const result = await sweepOrphanObjects(bucket, referenced, HOUR, Date.now);
    expect(exists(name)).toBe(true);
    expect((await store.get(name))!.data.length).toBeGreaterThan(0);
    expect(fs.existsSync(fileOf(`${keyOf(name)}.sweep`))).toBe(false);
    expect(fs.existsSync(fileOf(`${orphanKey}.sweep`))).toBe(false);
    expect(result.deleted).toBe(1);
  });
});
