import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hourOf } from '../stats/rollup-keys.ts';
import type { HourAddition, HourRow } from './completeness-hours.ts';

/**
 * Adds a report's share to its hours (one addition per hour, at most a couple of days of them), in hour order:
 * concurrent writers then wait for each other, never deadlock.
 */
export async function addCompleteness(trx: Kysely<Database>, ippId: number, additions: readonly HourAddition[]) {
  const rows = [...additions].sort((a, b) => a.hour - b.hour).map((a) => ({ ipp_id: ippId, ...a }));
  if (rows.length === 0) return;
  const added = (column: keyof HourAddition) => sql<number>`completeness_hour.${sql.ref(column)} + excluded.${sql.ref(column)}`;
  await trx
    .insertInto('completeness_hour')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['ipp_id', 'hour']).doUpdateSet({
        online_s: added('online_s'),
        sampling_s: added('sampling_s'),
        frames_expected: added('frames_expected'),
        expected: added('expected'),
        expected_reports: added('expected_reports'),
      }),
    )
    .execute();
}

/** One image stored: its capture hour received one more (never taken back when the image is deleted later). */
export async function bumpReceived(trx: Kysely<Database>, ippId: number, capturedAt: number) {
  await trx
    .insertInto('completeness_hour')
    .values({ ipp_id: ippId, hour: hourOf(capturedAt), received: 1 })
    .onConflict((oc) => oc.columns(['ipp_id', 'hour']).doUpdateSet({ received: sql<number>`completeness_hour.received + 1` }))
    .execute();
}

/** A station's stored hours in [start, end), oldest first (at most one row per hour: a year is 8,784 rows). */
export async function completenessHours(db: Kysely<Database>, ippId: number, start: number, end: number): Promise<HourRow[]> {
  const rows = await db
    .selectFrom('completeness_hour')
    .select(['hour', 'online_s', 'sampling_s', 'frames_expected', 'expected', 'expected_reports', 'received'])
    .where('ipp_id', '=', ippId)
    .where('hour', '>=', start)
    .where('hour', '<', end)
    .orderBy('hour')
    .execute();
  // PostgreSQL answers bigint as text.
  return rows.map((r) => ({
    hour: Number(r.hour),
    online_s: Number(r.online_s),
    sampling_s: Number(r.sampling_s),
    frames_expected: Number(r.frames_expected),
    expected: Number(r.expected),
    expected_reports: Number(r.expected_reports),
    received: Number(r.received),
  }));
}

/**
 * The first hour a station's reports recorded (null: none yet). Hours with only images received (stored before the
 * record began, imported, or dated by the file) do not start it.
 */
export async function firstCompletenessHour(db: Kysely<Database>, ippId: number): Promise<number | null> {
  const row = await db
    .selectFrom('completeness_hour')
    .select((eb) => eb.fn.min('hour').as('first'))
    .where('ipp_id', '=', ippId)
    .where((eb) => eb.or([eb('online_s', '>', 0), eb('expected_reports', '>', 0)]))
    .executeTakeFirst();
  return row?.first == null ? null : Number(row.first);
}
