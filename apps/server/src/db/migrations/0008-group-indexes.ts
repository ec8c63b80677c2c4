import { sql, type Kysely } from 'kysely';

/**
 * The unclassified (UI) and human-identified (HI) groups of the identify tree are small subsets of a station's ROIs.
 * Without an index of their own a page of them walks the station's whole history, or on PostgreSQL the planner picks a
 * parallel scan of the table: 1.3 s for an empty UI group at 10M ROIs (bench/src/pages.ts). Partial indexes of live
 * ROIs led by the station, in list order, give page 1, any cursor page and the count straight from the index. The
 * query states these conditions as literals (browse.repository.ts), so SQLite, which cannot match a bound parameter
 * against an index's WHERE, uses them too.
 */
export const groupIndexesMigration = {
  async up(db: Kysely<unknown>) {
    await sql`create index rois_unclassified_idx on rois (ipp_id, roi_time, id)
      where hi = 0 and roi_labelindex = 0 and deleted_at is null`.execute(db);
    await sql`create index rois_hi_idx on rois (ipp_id, roi_time, id) where hi = 1 and deleted_at is null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index rois_hi_idx`.execute(db);
    await sql`drop index rois_unclassified_idx`.execute(db);
  },
};
