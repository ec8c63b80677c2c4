import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function readUserView(db: Kysely<Database>, userId: number) {
  const row = await db.selectFrom('user_views').select(['group_id', 'ipp_ids']).where('user_id', '=', userId).executeTakeFirst();
  return row ? { group_id: row.group_id, ids: JSON.parse(row.ipp_ids) as number[] } : null;
}

export async function writeUserView(db: Kysely<Database>, userId: number, groupId: number | null, ids: number[], now: number) {
  const values = { group_id: groupId, ipp_ids: JSON.stringify(ids), updated_at: now };
  await db
    .insertInto('user_views')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}
