import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** What the monitoring calls need of a station they were asked about by its site ID. */
export const STATION_COLUMNS = [
  'id',
  'dev_id',
  'site_name',
  'group_id',
  'last_online_at',
  'reported_offline_at',
  'pixel_size_um',
] as const;

export function stationByDevId(db: Kysely<Database>, devId: string) {
  return db.selectFrom('ipps').select(STATION_COLUMNS).where('dev_id', '=', devId).executeTakeFirst();
}

export function stationTeamById(db: Kysely<Database>, id: number) {
  return db.selectFrom('ipps').select(['id', 'group_id']).where('id', '=', id).executeTakeFirst();
}

export function stationTeamByDevId(db: Kysely<Database>, devId: string) {
  return db.selectFrom('ipps').select(['id', 'group_id']).where('dev_id', '=', devId).executeTakeFirst();
}
