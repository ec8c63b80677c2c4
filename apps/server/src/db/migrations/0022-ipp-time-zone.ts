import type { Kysely } from 'kysely';

/** A station's time zone (issue 23): times on screen show station-local time beside the viewer's and UTC. */
export function ippTimeZoneMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('ipps').addColumn('time_zone', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('ipps').dropColumn('time_zone').execute();
    },
  };
}
