import { sql, type Kysely } from 'kysely';

/**
 * When a station's current online run began (issue 37): a "no images for N minutes" rule counts silence only while
 * the station is online, so a station back from an outage longer than N minutes raises nothing at its first report.
 *
 * Stations already running keep the window they had: their run is taken to have begun no later than their last image
 * (the silence then still counts from that image); a station that comes back after this upgrade starts a new run.
 */
export function ippOnlineSinceMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('ipps').addColumn('online_since', 'bigint').execute();
      await sql`update ipps set online_since = case
          when last_roi_at is not null and last_roi_at < last_online_at then last_roi_at
          else last_online_at end`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('ipps').dropColumn('online_since').execute();
    },
  };
}
