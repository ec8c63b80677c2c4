import type { Kysely } from 'kysely';

/**
 * An ROI's own pixel size (issue 37): images imported from another instrument than the station's carry the pixel size
 * the import gave (`npm run import -- --pixel-size`, the console import's field); null = the station's.
 */
export function roiPixelSizeMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('rois').addColumn('pixel_size_um', 'double precision').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('rois').dropColumn('pixel_size_um').execute();
    },
  };
}
