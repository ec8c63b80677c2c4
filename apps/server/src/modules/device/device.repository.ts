import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, IppsTable, TelemetryTable } from '../../db/schema.ts';

export function findIppByKeyHash(db: Kysely<Database>, keyHash: string) {
  return db.selectFrom('ipps').select(['id', 'dev_id', 'group_id']).where('device_key_hash', '=', keyHash).executeTakeFirst();
}

export function findIppByDevId(db: Kysely<Database>, devId: string) {
  return db
    .selectFrom('ipps')
    .select(['id', 'dev_id', 'group_id', 'device_key_hash'])
    .where('dev_id', '=', devId)
    .executeTakeFirst();
}

/** The instrument's ingest state, locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). */
export function lockIppState(db: Kysely<Database>, id: number, forUpdate: boolean) {
  const query = db
    .selectFrom('ipps')
    .select([
      'id',
      'last_online_at',
      'online_ms',
      'last_volume_total',
      'last_rois_total',
      'last_rois_at',
      'applied_config',
      'applied_at',
      'reported_offline_at',
      'online_since',
      'config',
      'config_version',
    ])
    .where('id', '=', id);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirstOrThrow();
}

/** Inserts a sample unless one with the same time exists; answers whether it was new. */
export async function insertTelemetry(db: Kysely<Database>, row: Insertable<TelemetryTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('telemetry')
    .values(row)
    .onConflict((oc) => oc.columns(['ipp_id', 'at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateIppState(db: Kysely<Database>, id: number, changes: Updateable<IppsTable>) {
  await db.updateTable('ipps').set(changes).where('id', '=', id).execute();
}

export function findDeviceConfig(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('ipps')
    .select(['dev_id', 'config', 'config_version', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export function allDeviceConfigs(db: Kysely<Database>) {
  return db.selectFrom('ipps').select(['id', 'dev_id', 'config', 'config_version', 'updated_at']).execute();
}
