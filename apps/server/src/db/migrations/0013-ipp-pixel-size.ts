import type { Kysely } from 'kysely';

/**
 * A station's pixel size (issue 22): micrometres of the scene per image pixel, set on the instrument form. Null =
 * unknown: the console then shows sizes in pixels and says so, instead of guessing.
 */
export const ippPixelSizeMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ipps').addColumn('pixel_size_um', 'double precision').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('ipps').dropColumn('pixel_size_um').execute();
  },
};
