import { sql, type Kysely } from 'kysely';

/**
 * The size index covers live ROIs only, like the time index: the list's total for a size range then counts from the
 * index alone. Counting up to 100,001 ROIs of a station in a size range read every matching row of the table to skip
 * the recycled ones: 4.4 s on a cold station of a 10M-ROI fleet on PostgreSQL, 8 ms from the partial index
 * (docs/benchmarks.md). Sources other than the recycle bin always ask for live ROIs; the bin has its own index.
 */
export const liveSizeIndexMigration = {
  async up(db: Kysely<unknown>) {
    await sql`drop index rois_ipp_size_idx`.execute(db);
    await sql`create index rois_live_ipp_size_idx on rois (ipp_id, size_px, id) where deleted_at is null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index rois_live_ipp_size_idx`.execute(db);
    await sql`create index rois_ipp_size_idx on rois (ipp_id, size_px, id)`.execute(db);
  },
};
