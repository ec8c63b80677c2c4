/**
 * What an ROI and a telemetry sample cost in storage, measured (issue 39's capacity plan, docs/deployment.md): a real
 * server process on a fresh PostgreSQL database ingests real PWSSC images and telemetry over HTTP, exactly as
 * instruments send them; then every table's size (rows, TOAST and indexes: pg_total_relation_size) is divided by what
 * was sent, and the image files (originals and WebP thumbnails) are summed.
 *
 *   npm run bench:capacity -w bench                       # 4,000 images and 20,000 telemetry samples, 20 stations
 *   --images N  --samples N
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { deviceKeyOf, freshTarget, generateFleet } from './generate.ts';
import { loadImages, roiMultipart, variant } from './images.ts';
import { envelope, request, startServerProcess } from './server-process.ts';

const { values: flags } = parseArgs({
  options: {
    images: { type: 'string', default: '4000' },
    samples: { type: 'string', default: '20000' },
  },
});
const IMAGES = Number(flags.images);
const SAMPLES = Number(flags.samples);
const STATIONS = 20;

const target = await freshTarget('postgres', 'capacity');
const now = Date.now();
await generateFleet(target.db, { rois: 0, stations: STATIONS, classes: 8, days: 1, now, telemetry: false });
await target.db.close();
const server = await startServerProcess({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
try {
  const { images, source } = await loadImages(810);
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  // Images: 20 instruments at once, each a different file (variant), captured over the last day.
  await Promise.all(
    Array.from({ length: STATIONS }, async (_, s) => {
      for (;;) {
        const i = next++;
        if (i >= IMAGES) return;
        const form = roiMultipart(
          { captured_at: now - 86_400_000 + Math.floor((i / IMAGES) * 86_000_000), label_index: 0, size_px: 2500 },
          variant(images[i % images.length]!, i),
        );
        const answer = await request(`${server.url}/api/device/rois`, {
          method: 'POST',
          headers: { 'x-device-key': deviceKeyOf(s + 1), 'content-type': form.contentType },
          body: form.body,
        });
        if (answer.status !== 200 || envelope(answer).code !== 1000) failed++;
      }
    }),
  );
  const imageSeconds = (performance.now() - t0) / 1000;
  // Telemetry: one sample every 10 s per instrument, with the readings the simulator sends.
  let sent = 0;
  await Promise.all(
    Array.from({ length: STATIONS }, async (_, s) => {
      for (let k = 0; k < SAMPLES / STATIONS; k++) {
        const at = now - 2 * 86_400_000 + k * 10_000;
        const answer = await request(`${server.url}/api/device/telemetry`, {
          method: 'POST',
          headers: { 'x-device-key': deviceKeyOf(s + 1), 'content-type': 'application/json' },
          body: JSON.stringify({
            at,
            temperature_c: 12 + (k % 50) / 10,
            humidity_pct: 40 + (k % 30),
            volume_5min_ml: 500,
            volume_total_l: k * 0.1,
            rois_total: k * 3,
            ram_mb: 2100,
            storage_gb: 60,
            cpu_temp_c: 50,
            gpu_temp_c: 55,
            wiper_state: 'idle',
            wiper_clean_count: Math.floor(k / 360),
          }),
        });
        if (answer.status === 200 && envelope(answer).code === 1000) sent++;
        else failed++;
      }
    }),
  );
  await server.stop();

  const db = openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  await sql`vacuum (analyze)`.execute(db.kysely);
  const tables = (
    await sql<{ name: string; bytes: string; rows: string }>`
      select c.relname as name, pg_total_relation_size(c.oid) as bytes, c.reltuples::bigint as rows
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc`.execute(db.kysely)
  ).rows.map((r) => ({ name: r.name, bytes: Number(r.bytes), rows: Math.max(0, Number(r.rows)) }));
  const stored = Number(
    (
      await db.kysely
        .selectFrom('rois')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await db.close();

  let originals = 0;
  let thumbs = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.thumb.webp')) thumbs += fs.statSync(file).size;
      else originals += fs.statSync(file).size;
    }
  };
  walk(path.join(target.dataDir, 'blobs'));

  // What grows with images (the ROI rows, their features, AI labels and ROI rollups), with telemetry (samples, their
  // rollups and the completeness hours), and the rest (stations, users, classes: fixed).
  const isTelemetry = (name: string) => name.startsWith('telemetry') || name.startsWith('completeness');
  const isRoi = (name: string) => name.startsWith('roi') || name === 'ai_labels';
  const perRoi = tables.filter((t) => isRoi(t.name));
  const perSample = tables.filter((t) => isTelemetry(t.name));
  const fixed = tables.filter((t) => !isRoi(t.name) && !isTelemetry(t.name));
  const sum = (list: typeof tables) => list.reduce((a, t) => a + t.bytes, 0);
  const kb = (n: number) => (n / 1024).toFixed(2);
  console.log(
    `\nCapacity: PostgreSQL, ${source}; ${stored} of ${IMAGES} images stored in ${imageSeconds.toFixed(0)} s, ${sent} telemetry samples, ${failed} failed\n`,
  );
  console.log('| table | rows | bytes (with indexes) | per image or sample |');
  console.log('|---|---:|---:|---:|');
  for (const t of [...perRoi, ...perSample]) {
    const per = isTelemetry(t.name) ? t.bytes / sent : t.bytes / stored;
    console.log(`| ${t.name} | ${t.rows} | ${t.bytes.toLocaleString('en')} | ${per.toFixed(0)} B |`);
  }
  console.log(
    `\ndatabase per image: ${kb(sum(perRoi) / stored)} KB (rows, indexes, features, rollups; fixed tables ${kb(sum(fixed))} KB in all)`,
  );
  console.log(`database per telemetry sample: ${(sum(perSample) / sent).toFixed(0)} B`);
  console.log(`files per image: original ${kb(originals / stored)} KB + thumbnail ${kb(thumbs / stored)} KB`);
} finally {
  await server.stop().catch(() => undefined);
  await target.drop();
}
