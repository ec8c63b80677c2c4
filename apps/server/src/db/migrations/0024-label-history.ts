import type { Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { atomically, withIdColumn } from './column-types.ts';

/**
 * Label history and undo (issue 25).
 *
 * `roi_label_events`: one row per change of an ROI's label (class and human/AI flag), with who made it (a user, or a
 * model for a re-identification), by which action, from and to. Labels given before this upgrade have no event: the
 * history starts at the ROI's current label.
 *
 * `bulk_actions` + `bulk_action_rois` + `bulk_action_members`: each user's last bulk action as it changed things,
 * the ROIs' state before and after and the folder memberships it added or removed, so that it can be undone exactly
 * for a while (modules/undo).
 */
export function labelHistoryMigration(dialect: DialectName) {
  return {
    up: (outer: Kysely<unknown>) =>
      atomically(outer, dialect, async (db) => {
        await withIdColumn(db.schema.createTable('roi_label_events'), dialect)
          .addColumn('roi_id', 'integer', (c) => c.notNull().references('rois.id').onDelete('cascade'))
          .addColumn('at', 'bigint', (c) => c.notNull())
          // No foreign keys: removing a user or a model would scan this growing table; the history then names a
          // removed account (ids are never reused).
          .addColumn('user_id', 'integer')
          .addColumn('model_id', 'integer')
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('from_class_id', 'integer')
          .addColumn('from_hi', 'integer', (c) => c.notNull())
          .addColumn('to_class_id', 'integer')
          .addColumn('to_hi', 'integer', (c) => c.notNull())
          .addColumn('bulk_id', 'integer')
          .execute();
        await db.schema.createIndex('roi_label_events_roi_idx').on('roi_label_events').columns(['roi_id', 'id']).execute();

        await withIdColumn(db.schema.createTable('bulk_actions'), dialect)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('category_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('affected', 'integer', (c) => c.notNull())
          .addColumn('undone_at', 'bigint')
          // JSON [folder id, …]: folders the action created (a temporary class, a gallery's class folder).
          .addColumn('created_folders', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('bulk_actions_user_idx').on('bulk_actions').columns(['user_id', 'id']).execute();

        await db.schema
          .createTable('bulk_action_rois')
          .addColumn('bulk_id', 'integer', (c) => c.notNull().references('bulk_actions.id').onDelete('cascade'))
          // No foreign key: a purge must neither scan the journal nor silently shorten it; an ROI gone since the
          // action is counted as skipped by the undo.
          .addColumn('roi_id', 'integer', (c) => c.notNull())
          // JSON RoiState (undo.repository.ts), before and after the action.
          .addColumn('before', 'text', (c) => c.notNull())
          .addColumn('after', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('bulk_action_rois_pk', ['bulk_id', 'roi_id'])
          .execute();

        await db.schema
          .createTable('bulk_action_members')
          .addColumn('bulk_id', 'integer', (c) => c.notNull().references('bulk_actions.id').onDelete('cascade'))
          .addColumn('folder_id', 'integer', (c) => c.notNull())
          .addColumn('roi_id', 'integer', (c) => c.notNull())
          // 1: the action put the ROI in the folder; 0: it took it out (added_at: when it had been put there).
          .addColumn('added', 'integer', (c) => c.notNull())
          .addColumn('added_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('bulk_action_members_pk', ['bulk_id', 'folder_id', 'roi_id'])
          .execute();
      }),
    async down(db: Kysely<unknown>) {
      for (const table of ['bulk_action_members', 'bulk_action_rois', 'bulk_actions', 'roi_label_events']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
