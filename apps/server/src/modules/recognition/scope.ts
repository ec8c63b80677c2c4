import { ResultCode } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { requireAllOwned, teamRequired, visibleGroup } from '../access/access.ts';
import { roiNotFound } from '../access/not-found.ts';
import { findRoisCore } from '../rois/rois.repository.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import type { UserRow } from '../users/users.repository.ts';

/** Whose data a recognition call is about: the team, the ROIs the caller may see. */

/** The team a call is about: the caller's own; a superadmin names one (or gets the first team). */
export async function teamOf(db: Kysely<Database>, actor: UserRow, requested?: number): Promise<number> {
  const team = visibleGroup(actor, requested);
  if (team !== undefined) {
    if (actor.role === 'superadmin' && !(await findTeamById(db, team))) {
      throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'group_id', reasonKey: 'reason.unknownTeam' }, 'group_id');
    }
    return team;
  }
  if (actor.group_id !== null) return actor.group_id;
  throw teamRequired();
}

/** ROIs the caller may see (their team's, any for a superadmin), or 1002 naming the first missing one. */
export async function visibleRois(db: Kysely<Database>, actor: UserRow, ids: readonly number[], field = 'roi_id') {
  const rows = await findRoisCore(db, ids);
  return requireAllOwned(actor, ids, rows, () => roiNotFound(field));
}
