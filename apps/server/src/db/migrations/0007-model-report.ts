import type { Kysely } from 'kysely';

/**
 * A model's cross-validation report (per-class precision and recall, the most frequent confusions), kept with the
 * model so administrators can read it in the console (GET /api/ai/model/report). Models trained before have none.
 */
export const modelReportMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ai_models').addColumn('report', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('ai_models').dropColumn('report').execute();
  },
};
