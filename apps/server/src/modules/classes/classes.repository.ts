import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface ClassRow {
  id: number;
  name: string;
  label_index: number | null;
  system: number;
  group_id: number | null;
  attention: number;
}

/** A class as a viewer's team sees it: `hidden` when that team hides it from its plain users. */
export interface TeamClassRow extends ClassRow {
  hidden: boolean;
}

/** Every class by name, with whether `team` hides it (none hidden without a team). */
export async function classesForTeam(db: Kysely<Database>, team: number | undefined): Promise<TeamClassRow[]> {
  const rows = await db
    .selectFrom('classes as c')
    .leftJoin('class_hidden as h', (join) => join.onRef('h.class_id', '=', 'c.id').on('h.group_id', '=', team ?? -1))
    .select(['c.id', 'c.name', 'c.label_index', 'c.system', 'c.group_id', 'c.attention', 'h.class_id as hidden_id'])
    .orderBy('c.name')
    .execute();
  return rows.map(({ hidden_id, ...c }) => ({ ...c, hidden: hidden_id !== null }));
}

/** Whether `team` hides the class from its plain users. */
export async function isHidden(db: Kysely<Database>, classId: number, team: number): Promise<boolean> {
  const row = await db
    .selectFrom('class_hidden')
    .select('class_id')
    .where('class_id', '=', classId)
    .where('group_id', '=', team)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ids of the classes `team` hides from its plain users. */
export async function hiddenClassIds(db: Kysely<Database>, team: number): Promise<number[]> {
  const rows = await db.selectFrom('class_hidden').select('class_id').where('group_id', '=', team).execute();
  return rows.map((r) => r.class_id);
}

/** Whether images of teams other than `team` carry the class (live or in the recycle bin). */
export async function usedByOtherTeams(db: Kysely<Database>, classId: number, team: number): Promise<boolean> {
  const row = await db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .select('r.id')
    .where('r.class_id', '=', classId)
    .where('i.group_id', '<>', team)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many classes a team owns. */
export async function countTeamClasses(db: Kysely<Database>, team: number): Promise<number> {
  const row = await db
    .selectFrom('classes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('group_id', '=', team)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Shows a class to a team's plain users again, or hides it from them. */
export async function setHidden(db: Kysely<Database>, classId: number, team: number, hidden: boolean) {
  if (!hidden) {
    await db.deleteFrom('class_hidden').where('class_id', '=', classId).where('group_id', '=', team).execute();
    return;
  }
  // Two administrators hiding the same class at once both succeed (PostgreSQL answered the second with a 500).
  await db
    .insertInto('class_hidden')
    .values({ class_id: classId, group_id: team })
    .onConflict((oc) => oc.columns(['class_id', 'group_id']).doNothing())
    .execute();
}

/** A class's whole row by id, or undefined. */
export function findClassById(db: Kysely<Database>, id: number) {
  return db.selectFrom('classes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The id of the class with that name, or undefined. */
export function findClassIdByName(db: Kysely<Database>, name: string) {
  return db.selectFrom('classes').select('id').where('name', '=', name).executeTakeFirst();
}

/** The id and name of the class with that label index, or undefined. */
export function findClassByLabel(db: Kysely<Database>, labelIndex: number) {
  return db.selectFrom('classes').select(['id', 'name']).where('label_index', '=', labelIndex).executeTakeFirst();
}

/** Inserts a class; answers its new id. */
export async function insertClass(
  db: Kysely<Database>,
  values: { name: string; label_index: number; group_id: number | null; created_at: number },
): Promise<number> {
  const row = await db
    .insertInto('classes')
    .values({
      name: values.name,
      label_index: values.label_index,
      system: 0,
      group_id: values.group_id,
      created_at: values.created_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Renames a class; answers nothing. */
export async function renameClass(db: Kysely<Database>, id: number, name: string) {
  await db.updateTable('classes').set({ name }).where('id', '=', id).execute();
}

/** Sets a class's highlight (1 on, 0 off); answers nothing. */
export async function setClassAttention(db: Kysely<Database>, id: number, attention: number) {
  await db.updateTable('classes').set({ attention }).where('id', '=', id).execute();
}

/** Deletes a class; answers nothing. */
export async function deleteClass(db: Kysely<Database>, id: number) {
  await db.deleteFrom('classes').where('id', '=', id).execute();
}

/** The names of these classes, by id (none asked, none read). */
export async function classNames(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('classes')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Every class's name, by id. */
export async function allClassNames(db: Kysely<Database>): Promise<Map<number, string>> {
  return new Map((await db.selectFrom('classes').select(['id', 'name']).execute()).map((c) => [c.id, c.name]));
}

/** Every class, with what imports and training match on: name, label index, whether a system class, its team. */
export function allClasses(db: Kysely<Database>) {
  return db.selectFrom('classes').select(['id', 'name', 'label_index', 'system', 'group_id']).execute();
}

/** Every class that has a label index (the AI labels, spec §3): its id and label index. */
export function labelledClasses(db: Kysely<Database>) {
  return db.selectFrom('classes').select(['id', 'label_index']).where('label_index', 'is not', null).execute();
}

/** Every class that has a label index: its id, by label index. */
export async function classIdsByLabel(db: Kysely<Database>): Promise<Map<number, number>> {
  return new Map((await labelledClasses(db)).map((c) => [c.label_index!, c.id]));
}
