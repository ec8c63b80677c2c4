import { ResultCode } from '@ipp/contracts';
import { AppError } from '../../http/app-error.ts';
import type { UserRow } from '../users/users.repository.ts';

/**
 * The one place for the team rule (docs/architecture.md "Access"): the superadmin sees every team's objects, everyone
 * else their own team's. Services load the rows they need and ask here instead of writing the rule out; another
 * team's object answers exactly like a missing one (the access-control matrix, test/access-matrix.test.ts, checks
 * every route against it). Role rules (who may write what) stay with the routes' access declarations and, for
 * folders, in folder-access.ts.
 */
export type Actor = Pick<UserRow, 'role' | 'group_id'>;

/** Anything that belongs to a team: a station, an ROI, a model, a job, a folder, an alarm rule… */
export interface TeamObject {
  group_id: number | null;
}

/** Whether the caller may see an object of a team. An object of no team is the superadmin's alone. */
export function ownsTeamObject(actor: Actor, groupId: number | null): boolean {
  return actor.role === 'superadmin' || (groupId !== null && groupId === actor.group_id);
}

/** The rows the caller may see, in their order (a batch: one rule for a list of ids). */
export function ownedOnly<T extends TeamObject>(actor: Actor, rows: readonly T[]): T[] {
  return rows.filter((row) => ownsTeamObject(actor, row.group_id));
}

/** The row when the caller may see it; a missing row and another team's both throw `missing()`. */
export function requireOwned<T extends TeamObject>(actor: Actor, row: T | null | undefined, missing: () => AppError): T {
  if (!row || !ownsTeamObject(actor, row.group_id)) throw missing();
  return row;
}

/**
 * Every id's row, each one the caller may see, by id; any id missing or of another team throws `missing()` for the
 * whole call, so a batch never half-happens and never tells which ids exist elsewhere.
 */
export function requireAllOwned<T extends TeamObject & { id: number }>(
  actor: Actor,
  ids: readonly number[],
  rows: readonly T[],
  missing: () => AppError,
): Map<number, T> {
  const seen = new Map(ownedOnly(actor, rows).map((row) => [row.id, row] as const));
  for (const id of ids) if (!seen.has(id)) throw missing();
  return seen;
}

/**
 * The team whose data a caller sees: a superadmin any (or the one asked for), everyone else their own. Anyone else
 * naming another team is refused (1011) rather than silently shown their own: a cross-team request is always a
 * refusal, and the same one whether that team exists or not (the access-control matrix checks both).
 */
export function visibleGroup(actor: Actor, requested?: number): number | undefined {
  if (actor.role === 'superadmin') return requested;
  if (requested !== undefined && requested !== actor.group_id) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
  return actor.group_id ?? -1;
}

/** A plain user, not an administrator of their team nor the superadmin: they read and label, and manage nothing. */
export const isPlainUser = (actor: Actor) => actor.role === 'user';

/** A call that acts on one team and named none: 1002 "teamRequired" on group_id. */
export const teamRequired = () => new AppError(ResultCode.BAD_PARAM, 'teamRequired', {}, 'group_id');

/**
 * The one team a call acts on (a rule, a webhook, a class's visibility): the caller's own; a superadmin must name one.
 * Whether a named team exists is the caller's to check, inside its transaction where it has one.
 */
export function teamActedOn(actor: Actor, requested?: number): number {
  const team = visibleGroup(actor, requested);
  if (team === undefined || team < 0) throw teamRequired();
  return team;
}

/** A body naming the team an object goes to: anyone but the superadmin may name only their own (`null`: none named). */
export function requireOwnTeam(actor: Actor, groupId: number | null, refusal: () => AppError): void {
  if (actor.role !== 'superadmin' && groupId !== null && groupId !== actor.group_id) throw refusal();
}
