import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

/**
 * AI recognition (docs/recognition.md): each ROI's measured features, per-team models and their versions, AI labels
 * with confidence and top classes, per-class confidence thresholds, and one durable job queue (re-identification,
 * training) that replaces reid_jobs.
 */
export function recognitionMigration(dialect: DialectName) {
  const blob = dialect === 'sqlite' ? 'blob' : 'bytea';
  const real = dialect === 'sqlite' ? 'real' : 'double precision';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('roi_features')
        .addColumn('roi_id', 'integer', (c) => c.primaryKey().references('rois.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        // Float32 little-endian, FEATURE_NAMES order.
        .addColumn('vec', sql.raw(blob), (c) => c.notNull())
        // Int8 similarity descriptor (docs/recognition.md "Similarity").
        .addColumn('sim', sql.raw(blob), (c) => c.notNull())
        .addColumn('measures', 'text', (c) => c.notNull())
        .addColumn('biovolume', sql.raw(real), (c) => c.notNull())
        .execute();

      await withIdColumn(db.schema.createTable('ai_models'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('feature_version', 'integer', (c) => c.notNull())
        .addColumn('train_size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('classes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cv_accuracy', sql.raw(real))
        .addColumn('cv_balanced_accuracy', sql.raw(real))
        // The forest as JSON (Classifier.toJSON); null until trained.
        .addColumn('model', 'text')
        .addColumn('error', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('ai_models_version_uq', ['group_id', 'version'])
        .execute();

      await db.schema
        .createTable('ai_labels')
        .addColumn('roi_id', 'integer', (c) => c.primaryKey().references('rois.id').onDelete('cascade'))
        .addColumn('model_id', 'integer', (c) => c.notNull().references('ai_models.id').onDelete('cascade'))
        .addColumn('class_id', 'integer', (c) => c.notNull())
        .addColumn('confidence', sql.raw(real), (c) => c.notNull())
        // JSON [[class_id, p], …] best first, at most 3.
        .addColumn('top', 'text', (c) => c.notNull())
        .addColumn('low', 'integer', (c) => c.notNull())
        .addColumn('labelled_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ai_labels_model_idx').on('ai_labels').columns(['model_id']).execute();

      // class_id 0 holds the team's default threshold.
      await db.schema
        .createTable('ai_thresholds')
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('class_id', 'integer', (c) => c.notNull())
        .addColumn('threshold', sql.raw(real), (c) => c.notNull())
        .addPrimaryKeyConstraint('ai_thresholds_pk', ['group_id', 'class_id'])
        .execute();

      await withIdColumn(db.schema.createTable('jobs'), dialect)
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('ipp_id', 'integer', (c) => c.references('ipps.id').onDelete('cascade'))
        .addColumn('class_id', 'integer')
        .addColumn('start_at', 'bigint')
        .addColumn('end_at', 'bigint')
        .addColumn('model_id', 'integer', (c) => c.references('ai_models.id').onDelete('cascade'))
        // queued | running | done | cancelled | failed
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('changed', 'integer', (c) => c.notNull().defaultTo(0))
        // Keyset position of the last committed batch: (roi_time, id).
        .addColumn('cursor_time', 'bigint')
        .addColumn('cursor_id', 'integer')
        .addColumn('lease_owner', 'varchar(64)')
        .addColumn('lease_until', 'bigint')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_status_idx').on('jobs').columns(['status', 'id']).execute();
      await db.schema.createIndex('jobs_group_idx').on('jobs').columns(['group_id', 'id']).execute();
      await sql`insert into jobs (kind, group_id, user_id, ipp_id, class_id, start_at, end_at, status, total, done,
          created_at, updated_at)
        select 'reidentify', group_id, user_id, ipp_id, class_id, start_at, end_at, status, total, done, created_at,
          updated_at from reid_jobs order by id`.execute(db);
      await db.schema.dropTable('reid_jobs').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['jobs', 'ai_thresholds', 'ai_labels', 'ai_models', 'roi_features']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
