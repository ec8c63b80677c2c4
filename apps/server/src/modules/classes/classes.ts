import { ResultCode, type ClassItem } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { UserRow } from '../users/users.repository.ts';

/**
 * The class model (docs/decisions.md "Class ownership"). The label indexes 001–999 (the three leading digits of a
 * name) are one number space shared by every team: instruments and models report a class by its number, so a number
 * means the same class everywhere. Each class has an owner: system (seeded, never renamed or deleted), shared (the
 * superadmin's; group_id null) or the team that made it (group_id). Only the owner changes it: a team's
 * administrators their team's classes, the superadmin every class. Visibility is each team's own: a team's
 * administrators hide any class from their team's plain users (class_hidden), which changes nothing for other teams.
 */

/** How many classes one team may own, so no team can exhaust the shared 999 numbers (8 are system classes). */
export const CLASS_LIMIT_PER_TEAM = 100;

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

export const isPlainUser = (actor: UserRow) => actor.role === 'user';

/**
 * The team whose visibility applies to the caller: one's own (naming another is refused, 1011); the superadmin's is
 * the team it names (an unknown one is 1002), or none.
 */
export async function viewerTeam(db: Kysely<Database>, actor: UserRow, requested?: number): Promise<number | undefined> {
  if (actor.role !== 'superadmin') {
    if (requested !== undefined && requested !== actor.group_id) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
    return actor.group_id ?? undefined;
  }
  if (requested === undefined) return undefined;
  const team = await db.selectFrom('teams').select('id').where('id', '=', requested).executeTakeFirst();
  if (!team) throw new AppError(ResultCode.BAD_PARAM, 'teamNotFound', {}, 'group_id');
  return team.id;
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

/**
 * The classes the caller may see listed (class tree, /tool/sys-init and every class picker built on it): plain users
 * lose the classes their team hides; administrators and the superadmin keep them, marked hidden.
 */
export async function classesVisibleTo(db: Kysely<Database>, actor: UserRow, requestedTeam?: number) {
  const rows = await classesForTeam(db, await viewerTeam(db, actor, requestedTeam));
  return isPlainUser(actor) ? rows.filter((c) => !c.hidden) : rows;
}

/** Whether the caller is a plain user whose team hides the class (the class pickers never offer it to them). */
export async function hiddenFromUser(db: Kysely<Database>, actor: UserRow, classId: number): Promise<boolean> {
  if (!isPlainUser(actor) || actor.group_id === null) return false;
  const row = await db
    .selectFrom('class_hidden')
    .select('class_id')
    .where('class_id', '=', classId)
    .where('group_id', '=', actor.group_id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The owner's rights over a class (rename, delete, highlight): its team's administrators, or the superadmin. */
export function mayManageClass(actor: UserRow, cls: Pick<ClassRow, 'group_id'>): boolean {
  if (actor.is_demo === 1) return false;
  if (actor.role === 'superadmin') return true;
  return actor.role === 'administrator' && cls.group_id !== null && cls.group_id === actor.group_id;
}

/** Refuses a caller that does not own the class, saying who may change it (no other team is named). */
export function assertMayManageClass(actor: UserRow, cls: Pick<ClassRow, 'group_id' | 'system'>) {
  if (mayManageClass(actor, cls)) return;
  if (actor.role === 'user' || actor.is_demo === 1) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
  throw new AppError(ResultCode.FORBIDDEN, cls.group_id === null ? 'classShared' : 'classNotOwned', {}, 'class_id');
}

export const ownerOf = (cls: Pick<ClassRow, 'system' | 'group_id'>): ClassItem['owner'] =>
  cls.system === 1 ? 'system' : cls.group_id === null ? 'shared' : 'team';

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

/** Refuses one more class for a team that owns CLASS_LIMIT_PER_TEAM already. */
export async function assertTeamClassRoom(db: Kysely<Database>, team: number) {
  const row = await db
    .selectFrom('classes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('group_id', '=', team)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= CLASS_LIMIT_PER_TEAM)
    throw new AppError(ResultCode.BAD_PARAM, 'classLimit', { max: CLASS_LIMIT_PER_TEAM }, 'title');
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
