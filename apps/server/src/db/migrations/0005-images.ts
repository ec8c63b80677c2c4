import { sql, type Kysely } from 'kysely';
import { SYSTEM_CLASSES } from '@ipp/contracts';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

/**
 * The images half (docs/decisions.md "Images"): folders (roi-index) and their members, the recycle bin and review
 * state on the ROI, attention classes, toolbar shortcuts, maintained counts per station × recognition group ×
 * class, and re-identification jobs.
 */
export function imagesMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      // Class names follow the spec's rule (three digits, then no spaces): "001 Copepod" becomes "001Copepod".
      for (const c of SYSTEM_CLASSES) {
        await db
          .updateTable('classes' as never)
          .set({ name: c.name } as never)
          .where('label_index' as never, '=', c.label_index as never)
          .execute();
      }
      await db.schema
        .alterTable('classes')
        .addColumn('attention', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      const roiColumns: [string, 'bigint' | 'integer', number | null][] = [
        ['deleted_at', 'bigint', null],
        ['deleted_by', 'integer', null],
        // 0 none, 1 waiting for review, 2 approved, 3 rejected.
        ['review_status', 'integer', 0],
        ['reviewed_at', 'bigint', null],
      ];
      for (const [name, type, fallback] of roiColumns) {
        await db.schema
          .alterTable('rois')
          .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
          .execute();
      }
      // Keyset paging orders by (time, id) within a station; the class and size filters have their own.
      await db.schema.createIndex('rois_ipp_time_id_idx').on('rois').columns(['ipp_id', 'roi_time', 'id']).execute();
      await db.schema
        .createIndex('rois_ipp_class_time_idx')
        .on('rois')
        .columns(['ipp_id', 'class_id', 'roi_time', 'id'])
        .execute();
      // Live ROIs only: a time-range page and its count read the index alone, never a recycled row (a station's
      // count of up to 100,001 ROIs in 5 ms instead of 300 ms at 10M, measured by bench/src/identify.ts).
      await db.schema
        .createIndex('rois_live_ipp_time_idx')
        .on('rois')
        .columns(['ipp_id', 'roi_time', 'id'])
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await db.schema.createIndex('rois_ipp_size_idx').on('rois').columns(['ipp_id', 'size_px', 'id']).execute();
      await db.schema.createIndex('rois_review_idx').on('rois').columns(['review_status', 'ipp_id', 'roi_time']).execute();
      // The recycle bin and the favourites are small subsets: partial indexes led by the station, so a count or a
      // page of them never walks a station's whole history.
      await db.schema
        .createIndex('rois_deleted_idx')
        .on('rois')
        .columns(['ipp_id', 'deleted_at', 'id'])
        .where(sql.ref('deleted_at'), 'is not', null)
        .execute();
      await db.schema.dropIndex('rois_favorite_idx').execute();
      await db.schema
        .createIndex('rois_favorite_idx')
        .on('rois')
        .columns(['ipp_id', 'favorite_at', 'id'])
        .where(sql.ref('favorite_at'), 'is not', null)
        .execute();
      await db.schema.dropIndex('rois_ipp_time_idx').execute();

      await withIdColumn(db.schema.createTable('roi_folders'), dialect)
        .addColumn('title', 'varchar(64)', (c) => c.notNull())
        .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('category_id', 'integer', (c) => c.notNull())
        .addColumn('group_id', 'integer', (c) => c.references('teams.id').onDelete('cascade'))
        .addColumn('ipp_id', 'integer', (c) => c.references('ipps.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('attention', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        // Live (not recycled) member ROIs, kept in the transaction that changes membership.
        .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('roi_folders_scope_idx')
        .on('roi_folders')
        .columns(['category_id', 'group_id', 'ipp_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('folder_rois')
        .addColumn('folder_id', 'integer', (c) => c.notNull().references('roi_folders.id').onDelete('cascade'))
        .addColumn('roi_id', 'integer', (c) => c.notNull().references('rois.id').onDelete('cascade'))
        .addColumn('added_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('folder_rois_pk', ['folder_id', 'roi_id'])
        .execute();
      await db.schema.createIndex('folder_rois_roi_idx').on('folder_rois').columns(['roi_id']).execute();

      await withIdColumn(db.schema.createTable('toolbar_items'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('category_id', 'integer', (c) => c.notNull())
        .addColumn('code', 'varchar(64)', (c) => c.notNull())
        .addColumn('title', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('toolbar_items_uq', ['user_id', 'category_id', 'code'])
        .execute();

      // Live ROIs per station × recognition group (0 ui, 1 ai, 2 hi) × class: the site images tree reads these.
      await db.schema
        .createTable('roi_class_counts')
        .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('class_key', 'integer', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('roi_class_counts_pk', ['ipp_id', 'kind', 'class_key'])
        .execute();
      await sql`insert into roi_class_counts (ipp_id, kind, class_key, n)
        select ipp_id, case when hi = 1 then 2 when roi_labelindex = 0 then 0 else 1 end, coalesce(class_id, 0), count(*)
        from rois group by 1, 2, 3`.execute(db);

      await withIdColumn(db.schema.createTable('reid_jobs'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('class_id', 'integer')
        .addColumn('start_at', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['reid_jobs', 'roi_class_counts', 'toolbar_items', 'folder_rois', 'roi_folders']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
