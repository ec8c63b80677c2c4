import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStorageUrl } from '../src/storage/s3-blobs.ts';
import { buildWorld } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

/**
 * The S3 image store against s3rver, an S3-protocol server run in this process (files in a temp dir): the SDK
 * talks HTTP + SigV4 to it exactly as to MinIO or a cloud bucket.
 */
describe('images in an S3-protocol bucket (STORAGE_URL)', () => {
  let server: S3rver;
  let dir: string;
  let endpoint: string;
  let env: TestEnv;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-s3-'));
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
    endpoint = `http://127.0.0.1:${port}`;
    env = await buildTestApp('sqlite', { config: { STORAGE_URL: `s3://ipp/images?endpoint=${encodeURIComponent(endpoint)}` } });
  });
  afterAll(async () => {
    await env?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the location from the URL', () => {
    expect(parseStorageUrl('s3://bucket/a/b/?endpoint=http://h:9000&region=eu-west-1')).toEqual({
      bucket: 'bucket',
      prefix: 'a/b/',
      endpoint: 'http://h:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
    expect(parseStorageUrl('s3://bucket').forcePathStyle).toBe(false);
    expect(() => parseStorageUrl('http://bucket')).toThrow(/s3:\/\//);
  });

  it('stores ingested images and thumbnails in the bucket and serves them back, nothing under DATA_DIR', async () => {
    const w = await buildWorld(env);
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const png = await pngOf(42, 64);
    const up = body(await uploadRoi(env, a1.key, { captured_at: env.clock.now, label_index: 1, size_px: 100 }, png));
    expect(up.code).toBe(1000);
    const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'ipp', Prefix: 'images/' }));
    const keys = (listed.Contents ?? []).map((o) => o.Key!);
    client.destroy();
    expect(keys).toHaveLength(2);
    expect(keys.some((k) => k.endsWith('.thumb.webp'))).toBe(true);
    const original = keys.find((k) => k.endsWith('.png'))!;
    const res = await env.app.inject({ method: 'GET', url: `/api/roi/file/${path.basename(original)}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(png)).toBe(true);
    const thumb = await env.app.inject({
      method: 'GET',
      url: `/api/roi/file/${path.basename(keys.find((k) => k.endsWith('.webp'))!)}`,
    });
    expect(thumb.headers['content-type']).toBe('image/webp');
    const missing = await env.app.inject({ method: 'GET', url: `/api/roi/file/${'0'.repeat(64)}.png` });
    expect(missing.statusCode).toBe(404);
    expect(fs.existsSync(path.join(env.config.DATA_DIR, 'blobs'))).toBe(false);
  });

  it('takes the same image sent at once by retries and by a second instrument: every upload succeeds', async () => {
    const race = await buildTestApp('sqlite', {
      // Ten uploads at once from each instrument: above the default share of one instrument (back-pressure.test.ts).
      config: { STORAGE_URL: `s3://ipp/race?endpoint=${encodeURIComponent(endpoint)}`, INGEST_PER_DEVICE: 10 },
    });
    try {
      const w = await buildWorld(race);
      const a = await registerIpp(race, w.tokens.ownAdmin, w.teamA, 'RA');
      const b = await registerIpp(race, w.tokens.ownAdmin, w.teamA, 'RB');
      const png = await pngOf(43, 64);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          uploadRoi(race, (i % 2 === 0 ? a : b).key, { captured_at: race.clock.now, label_index: 1, size_px: 100 }, png),
        ),
      );
      expect(answers.map((r) => body(r).code)).toEqual(Array.from({ length: 20 }, () => 1000));
      const rows = await race.db.kysely.selectFrom('rois').select('ipp_id').execute();
      expect(rows.map((r) => r.ipp_id).sort()).toEqual([a.id, b.id].sort());
      const sha = (body(answers[0]!).data as { sha256: string }).sha256;
      const res = await race.app.inject({ method: 'GET', url: `/api/roi/file/${sha}.png` });
      expect(res.rawPayload.equals(png)).toBe(true);
    } finally {
      await race.close();
    }
  });
});
