import { ROI_FLAG_RULES } from '@ipp/contracts';
import { sql, type Kysely } from 'kysely';
import { flagBitsSql } from '../../modules/rois/rois.repository.ts';
import { flagCleanedRois } from '../../modules/rois/rois.repository.ts';
import type { DialectName } from '../database.ts';
import type { Database } from '../schema.ts';
import { atomically } from './column-types.ts';

/**
 * ROI flags (issue 23): the instrument's state at capture that may affect an image (wiper cleaning, UV-C illuminator
 * on, internal temperature out of range) as a bit set on the ROI, set at ingest from the telemetry sample at or before
 * the capture. Existing ROIs get theirs here from the stored telemetry, by the same rules.
 */
export function roiFlagsMigration(dialect: DialectName) {
  return {
    up: (outer: Kysely<unknown>) =>
      atomically(outer, dialect, async (db) => {
        await db.schema
          .alterTable('rois')
          .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        const at = sql<number>`rois.roi_time`;
        await sql`update rois set flags = coalesce((
          select ${flagBitsSql(at)} from telemetry t
          where t.ipp_id = rois.ipp_id and t.at <= rois.roi_time and t.at >= rois.roi_time - ${sql.lit(ROI_FLAG_RULES.sampleWithinMs)}
          order by t.at desc limit 1), 0)`.execute(db);
        // And the images after each clean a later sample told of, as the ingest flags them.
        // One update per distinct clean (a few dozen a day per station), each a range of the station's time index.
        const { rows } = await sql<{ ipp_id: number; clean: number }>`
        select distinct ipp_id, wiper_last_clean_at as clean from telemetry where wiper_last_clean_at is not null
        union select distinct ipp_id, at as clean from telemetry where wiper_state = 'cleaning'`.execute(db);
        const k = db as unknown as Kysely<Database>;
        for (const row of rows) await flagCleanedRois(k, row.ipp_id, Number(row.clean));
      }),
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('rois').dropColumn('flags').execute();
    },
  };
}
