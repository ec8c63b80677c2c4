import type { Insertable, Kysely } from 'kysely';
import type { AlarmCommentsTable, Database } from '../../db/schema.ts';

/** An alarm's comment thread, oldest first. */
export function commentsOf(db: Kysely<Database>, alarmId: number) {
  return db
    .selectFrom('alarm_comments')
    .select(['id', 'alarm_id', 'user_name', 'text', 'created_at'])
    .where('alarm_id', '=', alarmId)
    .orderBy('id')
    .execute();
}

export async function countComments(db: Kysely<Database>, alarmId: number) {
  const row = await db
    .selectFrom('alarm_comments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('alarm_id', '=', alarmId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertComment(db: Kysely<Database>, values: Insertable<AlarmCommentsTable>) {
  return db
    .insertInto('alarm_comments')
    .values(values)
    .returning(['id', 'alarm_id', 'user_name', 'text', 'created_at'])
    .executeTakeFirstOrThrow();
}
