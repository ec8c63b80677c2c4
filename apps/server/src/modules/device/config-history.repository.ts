import type { Insertable, Kysely } from 'kysely';
import type { Database, IppConfigHistoryTable } from '../../db/schema.ts';

/** SQL of the configuration audit (migration 0017): one row per configuration version of an instrument. */

export async function insertConfigVersion(db: Kysely<Database>, row: Insertable<IppConfigHistoryTable>) {
  await db.insertInto('ipp_config_history').values(row).execute();
}

export async function countConfigVersions(db: Kysely<Database>, ippId: number): Promise<number> {
  const row = await db
    .selectFrom('ipp_config_history')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('ipp_id', '=', ippId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const VERSION_COLUMNS = ['version', 'config', 'source', 'changed_by_name', 'changed_at', 'applied_at'] as const;

/** A page of versions, newest first, plus the one before the page's last (to tell what that one changed). */
export function configVersionsPage(db: Kysely<Database>, ippId: number, offset: number, limit: number) {
  return db
    .selectFrom('ipp_config_history')
    .select(VERSION_COLUMNS)
    .where('ipp_id', '=', ippId)
    .orderBy('version', 'desc')
    .offset(offset)
    .limit(limit + 1)
    .execute();
}

export type ConfigVersionRow = Awaited<ReturnType<typeof configVersionsPage>>[number];

/** Every version of these instruments, oldest first (the EcoTaxa export's settings in force). */
export function configVersionsOf(db: Kysely<Database>, ippIds: number[]) {
  if (ippIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ipp_config_history')
    .select(['ipp_id', ...VERSION_COLUMNS])
    .where('ipp_id', 'in', ippIds)
    .orderBy('ipp_id')
    .orderBy('version')
    .execute();
}

/** The device reported running version `version`: the first such report dates it. */
export async function markVersionApplied(db: Kysely<Database>, ippId: number, version: number, at: number) {
  await db
    .updateTable('ipp_config_history')
    .set({ applied_at: at })
    .where('ipp_id', '=', ippId)
    .where('version', '=', version)
    .where('applied_at', 'is', null)
    .execute();
}
