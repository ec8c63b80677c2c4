import type { IppConfig } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A station's team and binarization threshold (its configuration, spec §3). */
export async function stationOf(db: Kysely<Database>, ippId: number) {
  const row = await db.selectFrom('ipps').select(['group_id', 'config']).where('id', '=', ippId).executeTakeFirstOrThrow();
  const config = JSON.parse(row.config) as Partial<IppConfig>;
  return { groupId: row.group_id, threshold: config.binarization_threshold };
}

/** Ids of a team's stations. */
export async function teamStationIds(db: Kysely<Database>, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom('ipps').select('id').where('group_id', '=', groupId).execute();
  return rows.map((r) => r.id);
}

/** Ids of every team, ascending. */
export async function teamIds(db: Kysely<Database>): Promise<number[]> {
  const teams = await db.selectFrom('teams').select('id').orderBy('id').execute();
  return teams.map((t) => t.id);
}
