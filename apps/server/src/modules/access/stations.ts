import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { requireOwned, type Actor } from './access.ts';
import * as repo from './access.repository.ts';
import { stationNotFound } from './not-found.ts';

/** A station the caller may see, by its site ID, with what the monitoring calls read of it. */
export async function visibleStationByDevId(db: Kysely<Database>, actor: Actor, devId: string, field = 'dev_id') {
  return requireOwned(actor, await repo.stationByDevId(db, devId), () => stationNotFound(field));
}

/** A station's id and team, when the caller may see it; by its site ID. */
export async function visibleStationTeamByDevId(db: Kysely<Database>, actor: Actor, devId: string, field = 'dev_id') {
  return requireOwned(actor, await repo.stationTeamByDevId(db, devId), () => stationNotFound(field));
}

/** A station's id and team, when the caller may see it; by its id (none named answers like an unknown one). */
export async function visibleStationTeamById(db: Kysely<Database>, actor: Actor, id: number | undefined, field = 'ipp_id') {
  return requireOwned(actor, id === undefined ? undefined : await repo.stationTeamById(db, id), () => stationNotFound(field));
}
