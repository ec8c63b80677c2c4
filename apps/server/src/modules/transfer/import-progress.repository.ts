import type { Kysely } from 'kysely';
import type { Database, ImportProgressTable } from '../../db/schema.ts';

const DAY = 86_400_000;

export type ImportProgressRow = ImportProgressTable;

/** A new progress row; false when the id is taken (by another import, of anyone). Rows over a day old go first. */
export async function startProgress(k: Kysely<Database>, id: string, userId: number, total: number, now: number) {
  await k
    .deleteFrom('import_progress')
    .where('updated_at', '<', now - DAY)
    .execute();
  const row = await k
    .insertInto('import_progress')
    .values({ id, user_id: userId, phase: 'upload', done: 0, total, report: null, error: null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setProgress(
  k: Kysely<Database>,
  id: string,
  changes: Partial<Pick<ImportProgressTable, 'phase' | 'done' | 'total' | 'report' | 'error'>>,
  now: number,
) {
  await k
    .updateTable('import_progress')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export function findProgress(k: Kysely<Database>, id: string) {
  return k.selectFrom('import_progress').selectAll().where('id', '=', id).executeTakeFirst();
}
