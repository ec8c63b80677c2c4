import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * The size index covers live ROIs only, like the time index: the list's total for a size range then counts from the
 * index alone. Counting up to 100,001 ROIs of a station in a size range read every matching row of the table to skip
 * the recycled ones: 4.4 s on a cold station of a 10M-ROI fleet on PostgreSQL, 8 ms from the partial index
 * (docs/benchmarks.md). Sources other than the recycle bin always ask for live ROIs; the bin has its own index.
 */
export const liveSizeIndexMigration = (dialect: DialectName) => ({
  async up(db: Kysely<unknown>) {
    await sql`drop index rois_ipp_size_idx`.execute(db);
    await sql`create index rois_live_ipp_size_idx on rois (ipp_id, size_px, id) where deleted_at is null`.execute(db);
    // SQLite: where the other indexes of rois have planner statistics, the new ones need theirs. Without, the
    // planner guesses this index (which every live-ROI query may use) is very selective and picks it for the newest-
    // first list too, sorting a whole station: minutes at 10M ROIs (seen in bench/src/pages.ts). The group indexes
    // of 0008 were added the same way.
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db);
      if (Number(rows[0]?.n) > 0) {
        for (const index of ['rois_live_ipp_size_idx', 'rois_unclassified_idx', 'rois_hi_idx']) {
          await sql`analyze ${sql.id(index)}`.execute(db);
        }
      }
    }
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index rois_live_ipp_size_idx`.execute(db);
    await sql`create index rois_ipp_size_idx on rois (ipp_id, size_px, id)`.execute(db);
  },
});
