import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { atomically } from './column-types.ts';

const HOUR_MS = 3_600_000;

/**
 * Data completeness (issue 23): per station and hour, the seconds online and sampling, the frames and images the
 * device should have made, and the images received; plus the last reading of the device's image counter.
 *
 * Images already stored are counted as received here. The other columns cannot be rebuilt (no device reported an
 * image counter before, and the online seconds follow the order reports arrived in), so they start at this upgrade.
 */
export function completenessMigration(dialect: DialectName) {
  return {
    up: (outer: Kysely<unknown>) =>
      atomically(outer, dialect, async (db) => {
        await db.schema.alterTable('ipps').addColumn('last_rois_total', 'bigint').execute();
        await db.schema.alterTable('ipps').addColumn('last_rois_at', 'bigint').execute();
        const create = db.schema
          .createTable('completeness_hour')
          .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
          .addColumn('hour', 'bigint', (c) => c.notNull())
          .addColumn('online_s', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('sampling_s', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('frames_expected', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('expected', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('expected_reports', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('received', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('completeness_hour_pk', ['ipp_id', 'hour']);
        await (dialect === 'sqlite' ? create.modifyEnd(sql`without rowid`) : create).execute();
        const hour = sql`(roi_time / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`;
        await sql`insert into completeness_hour (ipp_id, hour, received)
          select ipp_id, ${hour}, count(*) from rois group by ipp_id, ${hour}`.execute(db);
      }),
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('completeness_hour').execute();
      await db.schema.alterTable('ipps').dropColumn('last_rois_total').execute();
      await db.schema.alterTable('ipps').dropColumn('last_rois_at').execute();
    },
  };
}
