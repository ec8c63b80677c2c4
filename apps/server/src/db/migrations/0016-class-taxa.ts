import type { Kysely } from 'kysely';

/**
 * Each team's taxonomy (issue 22): the taxon a team maps a class to — its Latin name as EcoTaxa knows it, the WoRMS
 * AphiaID, a Chinese name. One row per team and class; a class the team has not mapped takes the starter list's
 * entry (modules/taxa/starter-taxa.ts), if any. An empty name is the team saying "no taxon".
 */
export const classTaxaMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('class_taxa')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('class_id', 'integer', (c) => c.notNull().references('classes.id').onDelete('cascade'))
      .addColumn('taxon_name', 'varchar(128)', (c) => c.notNull())
      .addColumn('aphia_id', 'integer')
      .addColumn('name_zh', 'varchar(64)')
      .addColumn('updated_by', 'integer')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('class_taxa_pk', ['group_id', 'class_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('class_taxa').execute();
  },
};
