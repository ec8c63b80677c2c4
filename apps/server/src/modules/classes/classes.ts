import { ResultCode, type ClassItem } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { isPlainUser, requireOwnTeam } from '../access/access.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as repo from './classes.repository.ts';
import type { ClassRow } from './classes.repository.ts';
import { teamNotFound } from '../access/not-found.ts';

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

/**
 * The team whose visibility applies to the caller: one's own (naming another is refused, 1011); the superadmin's is
 * the team it names (an unknown one is 1002), or none.
 */
export async function viewerTeam(db: Kysely<Database>, actor: UserRow, requested?: number): Promise<number | undefined> {
  if (actor.role !== 'superadmin') {
    requireOwnTeam(actor, requested ?? null, forbidden); // naming another team is refused, 1011
    return actor.group_id ?? undefined;
  }
  if (requested === undefined) return undefined;
  const team = await findTeamById(db, requested);
  if (!team) throw teamNotFound();
  return team.id;
}

/**
 * The classes the caller may see listed (class tree, /tool/sys-init and every class picker built on it): plain users
 * lose the classes their team hides; administrators and the superadmin keep them, marked hidden.
 */
export async function classesVisibleTo(db: Kysely<Database>, actor: UserRow, requestedTeam?: number) {
  const rows = await repo.classesForTeam(db, await viewerTeam(db, actor, requestedTeam));
  return isPlainUser(actor) ? rows.filter((c) => !c.hidden) : rows;
}

/** Whether the caller is a plain user whose team hides the class (the class pickers never offer it to them). */
export async function hiddenFromUser(db: Kysely<Database>, actor: UserRow, classId: number): Promise<boolean> {
  if (!isPlainUser(actor) || actor.group_id === null) return false;
  return repo.isHidden(db, classId, actor.group_id);
}

/**
 * The classes hidden from the caller: a plain user's team's hidden classes, none for administrators and the
 * superadmin. Every answer that names classes or counts by class (ecology, corrected counts, the overview's and Data
 * detail's class counts) leaves these out for a plain user (docs/decisions.md "Issue 37: a hidden class is hidden
 * everywhere a plain user reads classes").
 */
export async function hiddenClassesFor(db: Kysely<Database>, actor: UserRow): Promise<ReadonlySet<number>> {
  if (!isPlainUser(actor) || actor.group_id === null) return new Set();
  return new Set(await repo.hiddenClassIds(db, actor.group_id));
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
  if (isPlainUser(actor) || actor.is_demo === 1) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
  throw new AppError(ResultCode.FORBIDDEN, cls.group_id === null ? 'classShared' : 'classNotOwned', {}, 'class_id');
}

export const ownerOf = (cls: Pick<ClassRow, 'system' | 'group_id'>): ClassItem['owner'] =>
  cls.system === 1 ? 'system' : cls.group_id === null ? 'shared' : 'team';

/** Refuses one more class for a team that owns CLASS_LIMIT_PER_TEAM already. */
export async function assertTeamClassRoom(db: Kysely<Database>, team: number) {
  if ((await repo.countTeamClasses(db, team)) >= CLASS_LIMIT_PER_TEAM)
    throw new AppError(ResultCode.BAD_PARAM, 'classLimit', { max: CLASS_LIMIT_PER_TEAM }, 'title');
}

/**
 * The class a reference folder stands for: the class of the same name, else the class with the label index of the
 * title's three digits ("001Discs" → 001Copepod's class); undefined when neither exists.
 */
export async function titleResolver(db: Kysely<Database>) {
  const classes = await repo.allClasses(db);
  return (title: string) =>
    classes.find((c) => c.name === title) ??
    (/^\d{3}/.test(title)
      ? classes.find((c) => c.label_index !== null && c.label_index === Number(title.slice(0, 3)))
      : undefined);
}
