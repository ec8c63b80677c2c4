import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shapePng } from '../apps/server/test/helpers/shapes.ts';
import { call, envelopeOf, login, uploadRoi } from './support/api.ts';
import { MISLABELLED, seed } from './support/recognition-seed.ts';
import { ADMIN_PASSWORD, createDatabase, PG_URL, pgReachable, type Database, type RunningServer } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const hasPg = await pgReachable();
if (!hasPg) {
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI but ${PG_URL} is not reachable`);
  console.warn(`\n*** SKIPPING the scale-out test (two server processes on one PostgreSQL): ${PG_URL} is not reachable.\n`);
}

const signIn = (base: string) => login(base, 'admin', ADMIN_PASSWORD);

interface Job {
  status: string;
  total: number;
  done: number;
  changed: number;
}

/** Polls a job through one process until it ends. */
async function jobEnds(base: string, token: string, jobId: number): Promise<Job> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const job = await call<Job>(base, token, `/ai/job?job_id=${jobId}`);
    if (job.status === 'done' || job.status === 'failed' || job.status === 'cancelled') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after 120 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Scale-out, as docs/deployment.md describes it: two stateless server processes (`npm start`'s entry point) on one
 * PostgreSQL database and one S3-protocol bucket (s3rver, started here), each with its own empty data directory.
 * A session made on one is honoured by the other; images ingested through either are served by both; both work the
 * job queue, and each job runs exactly once; the rollups equal a raw count.
 */
describe.skipIf(!hasPg)('two server processes on one PostgreSQL and one S3 bucket', () => {
  let s3: S3rver;
  let s3Dir: string;
  let s3Port: number;
  let database: Database | undefined;
  let client: pg.Client;

  // The bucket and the database, before the two processes start (beforeAll) and after they stop (afterAll).
  beforeAll(async () => {
    s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-e2e-s3-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'ipp', configs: [] }],
    });
    ({ port: s3Port } = await s3.run());
    database = await createDatabase('ipp_e2e_scale');
  });
  afterAll(async () => {
    await database?.drop();
    await s3?.close();
    if (s3Dir) fs.rmSync(s3Dir, { recursive: true, force: true });
  });
  // The first process migrates and seeds; the second finds everything done.
  const app = useConsole({
    servers: 2,
    browser: false,
    server: () => ({
      databaseUrl: database!.url,
      env: {
        STORAGE_URL: `s3://ipp/images?endpoint=${encodeURIComponent(`http://127.0.0.1:${s3Port}`)}`,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        JOB_WORKER: 'on',
        SIMILARITY_PRELOAD: 'off',
      },
    }),
  });
  beforeAll(async () => {
    client = new pg.Client({ connectionString: database!.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  it('honours a session made on one process in the other, and a sign-out on either everywhere', async () => {
    const [a, b] = app.servers as [RunningServer, RunningServer];
    const token = await signIn(a.url);
    const seen = await envelopeOf<{ account: string }>(b.url, token, '/wyrbac/login/user-info');
    expect([seen.code, seen.data.account]).toEqual([1000, 'admin']);
    expect((await envelopeOf(b.url, token, '/wyrbac/login/logout')).code).toBe(1000);
    for (const server of [a, b]) expect((await envelopeOf(server.url, token, '/wyrbac/login/user-info')).code).toBe(1010);
  });

  it('serves images ingested through either process from both, runs each job once, keeps the rollups exact', async () => {
    const [a, b] = app.servers as [RunningServer, RunningServer];
    const token = await signIn(b.url);
    // A station with human-identified examples (imported through process A) and rods its instrument called copepods.
    const cls = await seed(a.url, token, '62001', 'Scale-out', 'en');
    const station = await client.query<{ id: number }>(`select id from ipps where dev_id = '62001'`);
    const ippId = station.rows[0]!.id;
    const key = cls.deviceKey;

    // 40 more images from the instrument, alternately to each process, 8 at a time.
    const uploads = await Promise.all(Array.from({ length: 40 }, (_, i) => shapePng(i % 2 ? 'disc' : 'ring', 7000 + i)));
    for (let i = 0; i < uploads.length; i += 8) {
      await Promise.all(
        uploads.slice(i, i + 8).map((png, j) =>
          uploadRoi([a, b][(i + j) % 2]!.url, key, {
            capturedAt: Date.now() - (i + j + 100) * 1000,
            labelIndex: 0,
            sizePx: 150,
            png,
          }),
        ),
      );
    }
    // Every image from either process, byte for byte: the bucket is the one store; no process keeps images locally.
    for (const [i, png] of uploads.entries()) {
      const sha = crypto.createHash('sha256').update(png).digest('hex');
      const res = await fetch(`${[b, a][i % 2]!.url}/api/roi/file/${sha}.png`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    }
    for (const server of [a, b]) expect(fs.existsSync(path.join(server.dataDir, 'blobs'))).toBe(false);

    // Training queued through B, re-identification through A; both processes work the queue.
    const groupId = (await client.query<{ group_id: number }>(`select group_id from ipps where id = $1`, [ippId])).rows[0]!
      .group_id;
    const trained = await call<{ job_id: number }>(b.url, token, '/ai/models/train', { group_id: groupId });
    expect((await jobEnds(a.url, token, trained.job_id)).status).toBe('done');
    const reid = await call<{ job_id: number; rois: number }>(a.url, token, '/roi/re-identify', {
      dev_id: '62001',
      Roi_time_s: '-24 hour',
      class_id: cls.copepod,
    });
    expect(reid.rois).toBe(MISLABELLED);
    const ended = await jobEnds(b.url, token, reid.job_id);
    expect([ended.status, ended.done, ended.changed]).toEqual(['done', MISLABELLED, MISLABELLED]);
    // Each job claimed once (one attempt), by one of the two processes, and each ROI labelled once.
    const jobs = await client.query<{ id: number; attempts: number; status: string }>(
      `select id, attempts, status from jobs where id in ($1, $2) order by id`,
      [trained.job_id, reid.job_id],
    );
    expect(jobs.rows.map((j) => [Number(j.attempts), j.status])).toEqual([
      [1, 'done'],
      [1, 'done'],
    ]);
    const relabelled = await client.query<{ n: string }>(
      `select count(*) as n from rois where ipp_id = $1 and class_id = $2 and hi = 0`,
      [ippId, cls.diatoms],
    );
    expect(Number(relabelled.rows[0]!.n)).toBeGreaterThanOrEqual(MISLABELLED);

    // The rollups, kept by both processes' transactions, equal a raw count of the ROIs, cell by cell.
    const live = `select ipp_id, roi_time, coalesce(class_id, 0) as class_key from rois where deleted_at is null`;
    const mismatches = await client.query<{ n: string }>(`
      with raw as (select ipp_id, (roi_time / 3600000) * 3600000 as hour, class_key, count(*) as n from (${live}) r group by 1, 2, 3),
           kept as (select ipp_id, hour, class_key, n from roi_rollup_hour where n != 0)
      select count(*) as n from raw full outer join kept using (ipp_id, hour, class_key)
      where raw.n is distinct from kept.n`);
    expect(Number(mismatches.rows[0]!.n)).toBe(0);
    const totals = await client.query<{ kept: string; raw: string }>(
      `select (select coalesce(sum(n), 0) from roi_totals where ipp_id = $1) as kept,
              (select count(*) from rois where ipp_id = $1 and deleted_at is null) as raw`,
      [ippId],
    );
    expect(Number(totals.rows[0]!.kept)).toBe(Number(totals.rows[0]!.raw));
    expect(Number(totals.rows[0]!.raw)).toBe(30 + MISLABELLED + uploads.length);
  });
});
