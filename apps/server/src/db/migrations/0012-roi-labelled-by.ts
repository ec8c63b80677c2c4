import type { Kysely } from 'kysely';

/**
 * Who gave an ROI its human (HI) label and when (issue 20: the detail pane says who labelled an image and when).
 * `labelled_by` is the user's id (no foreign key, like `deleted_by`: a removed account leaves the id, shown unnamed),
 * `labelled_at` ms. Both null for AI and unidentified ROIs, and for HI labels given before this migration or by an
 * import (no one to name).
 */
export const roiLabelledByMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('rois').addColumn('labelled_by', 'integer').execute();
    await db.schema.alterTable('rois').addColumn('labelled_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('rois').dropColumn('labelled_at').execute();
    await db.schema.alterTable('rois').dropColumn('labelled_by').execute();
  },
};
