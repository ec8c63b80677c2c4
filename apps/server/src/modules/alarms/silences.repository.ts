import type { Insertable, Kysely } from 'kysely';
import type { AlarmSilencesTable, Database } from '../../db/schema.ts';

/** The silences covering a station at `now` (their rule, null for all rules). */
export function silencesOfStation(db: Kysely<Database>, groupId: number, ippId: number, now: number) {
  return db
    .selectFrom('alarm_silences')
    .select(['id', 'rule_id'])
    .where('group_id', '=', groupId)
    .where('starts_at', '<=', now)
    .where('ends_at', '>', now)
    .where((w) => w.or([w('ipp_id', 'is', null), w('ipp_id', '=', ippId)]))
    .execute();
}

/** A team's silences running at `now` or planned after it, soonest end first, with their station's and rule's names. */
export function silencesOfGroup(db: Kysely<Database>, groupId: number, now: number) {
  return db
    .selectFrom('alarm_silences')
    .leftJoin('ipps', 'ipps.id', 'alarm_silences.ipp_id')
    .leftJoin('alarm_rules', 'alarm_rules.id', 'alarm_silences.rule_id')
    .selectAll('alarm_silences')
    .select(['ipps.site_name', 'ipps.dev_id', 'alarm_rules.name as rule_name'])
    .where('alarm_silences.group_id', '=', groupId)
    .where('alarm_silences.ends_at', '>', now)
    .orderBy('alarm_silences.ends_at')
    .orderBy('alarm_silences.id')
    .execute();
}

export async function countLiveSilences(db: Kysely<Database>, groupId: number, now: number) {
  const row = await db
    .selectFrom('alarm_silences')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('group_id', '=', groupId)
    .where('ends_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSilence(db: Kysely<Database>, values: Insertable<AlarmSilencesTable>) {
  const row = await db.insertInto('alarm_silences').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findSilence(db: Kysely<Database>, id: number) {
  return db.selectFrom('alarm_silences').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Ends a silence now (a planned one never starts): 0 rows when it had ended already. */
export async function endSilence(db: Kysely<Database>, id: number, now: number) {
  await db.deleteFrom('alarm_silences').where('id', '=', id).where('starts_at', '>', now).execute();
  const ended = await db
    .updateTable('alarm_silences')
    .set({ ends_at: now })
    .where('id', '=', id)
    .where('ends_at', '>', now)
    .executeTakeFirst();
  return Number(ended.numUpdatedRows);
}
