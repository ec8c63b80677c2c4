import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { inspectImage } from '../../apps/server/src/modules/rois/images.ts';
import { thumbName } from '../../apps/server/src/storage/blobs.ts';
import { shapePng, type Shape } from '../../apps/server/test/helpers/shapes.ts';
import { buildRoiRollups, seedFleet } from './fleet.ts';

const HOUR = 3_600_000;
const IMAGES = 24;

/**
 * A data directory with station B1 ("Bench 1") of team "Bench" (administrator bench / bench-pass) holding `rois` ROIs
 * over the last week, each with a real thumbnail in the blob store (24 different pictures), and rollups and counts as
 * ingest leaves them: loaded in SQL, because ingesting 10,000 images one by one would take minutes. `predicted`: each
 * ROI carries an AI label of one of the first 8 classes with a confidence of 0.30-0.99 (else all are unidentified).
 * Used by e2e/grid-scale.e2e.ts and bench/src/validate.ts.
 */
export async function prepareGridDataDir(options: { rois: number; predicted: boolean }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-grid-'));
  const db = openDatabase({ dataDir });
  try {
    await migrateToLatest(db);
    const now = Date.now();
    await seedFleet(db.kysely, 1, now);
    // Every ROI of a station is a distinct image (the store is content-addressed): IMAGES real thumbnails are written
    // under made-up addresses, without fsync (a temporary directory).
    const shapes: Shape[] = ['disc', 'rod', 'ring'];
    const thumbs: Buffer[] = [];
    for (let i = 0; i < IMAGES; i++)
      thumbs.push((await inspectImage(await shapePng(shapes[i % shapes.length]!, 7000 + i))).thumb);
    const shaOf = (x: number) => x.toString(16).padStart(64, '0');
    for (let x = 1; x <= options.rois; x++) {
      const sha = shaOf(x);
      const dir = path.join(dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4));
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, thumbName(sha)), thumbs[x % IMAGES]!);
    }
    const label = options.predicted ? sql`1 + x % 8` : sql`0`;
    const confidence = options.predicted ? sql`0.30 + (x % 70) / 100.0` : sql`null`;
    const classId = options.predicted ? sql`(select id from classes where label_index = 1 + x % 8)` : sql`null`;
    await sql`
      with recursive seq(x) as (select 1 union all select x + 1 from seq where x < ${sql.lit(options.rois)})
      insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, roi_labelindex,
                        confidence, class_id, hi)
      select 1, ${sql.lit(now)} - x * ${sql.lit(Math.floor((7 * 24 * HOUR) / options.rois))}, ${sql.lit(now)},
             printf('%064x', x), 'image/png', 2000, 96, 96, 500, ${label}, ${confidence}, ${classId}, 0
      from seq`.execute(db.kysely);
    await buildRoiRollups(db.kysely);
  } finally {
    await db.close();
  }
  return dataDir;
}
