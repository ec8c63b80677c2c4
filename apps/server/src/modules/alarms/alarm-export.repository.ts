import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { silencedAt } from './alarms.repository.ts';

/** A team's alarms raised in [from, to), maybe of one station. */
export interface ExportedAlarms {
  groupId: number;
  ippId: number | undefined;
  from: number;
  to: number;
}

/** Where the previous page ended: pages go by (raised_at, id), so a row is never read twice nor skipped by an offset. */
export interface PageEnd {
  raised_at: number;
  id: number;
}

function raisedIn(db: Kysely<Database>, filter: ExportedAlarms) {
  let query = db
    .selectFrom('alarms')
    .where('alarms.group_id', '=', filter.groupId)
    .where('alarms.raised_at', '>=', filter.from)
    .where('alarms.raised_at', '<', filter.to);
  if (filter.ippId !== undefined) query = query.where('alarms.ipp_id', '=', filter.ippId);
  return query;
}

export async function countRaised(db: Kysely<Database>, filter: ExportedAlarms) {
  const row = await raisedIn(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Up to `limit` of them after `after`, oldest first, and whether a silence covers each now. Alone on its table, so the
 * (group_id, raised_at) index gives each page in order whatever the planner's statistics say (a join made PostgreSQL
 * sort everything after the page on fresh data).
 */
export function raisedPage(db: Kysely<Database>, filter: ExportedAlarms, after: PageEnd | null, limit: number, now: number) {
  let query = raisedIn(db, filter)
    .select([
      'alarms.id',
      'alarms.ipp_id',
      'alarms.severity',
      'alarms.state',
      'alarms.rule_name',
      'alarms.kind',
      'alarms.value',
      'alarms.threshold',
      'alarms.raised_at',
      'alarms.acknowledged_at',
      'alarms.acknowledged_by_name',
      'alarms.ack_note',
      'alarms.cleared_at',
      'alarms.cleared_by_name',
      'alarms.clear_reason',
    ])
    .select((eb) => silencedAt(now)(eb).as('silenced'));
  // The plain bound lets the index start each page where the last one ended.
  if (after)
    query = query
      .where('alarms.raised_at', '>=', after.raised_at)
      .where((eb) =>
        eb.or([
          eb('alarms.raised_at', '>', after.raised_at),
          eb.and([eb('alarms.raised_at', '=', after.raised_at), eb('alarms.id', '>', after.id)]),
        ]),
      );
  return query.orderBy('alarms.raised_at').orderBy('alarms.id').limit(limit).execute();
}
export type ExportedAlarmRow = Awaited<ReturnType<typeof raisedPage>>[number];

/** The stations alarms were raised on: what the export says of each. */
export async function stationsByIds(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('ipps')
    .select(['id', 'dev_id', 'site_name', 'time_zone', 'longitude'])
    .where('id', 'in', [...ids])
    .execute();
}
