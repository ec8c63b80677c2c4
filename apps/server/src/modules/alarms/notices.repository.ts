import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AlarmDeliveriesTable, Database } from '../../db/schema.ts';

/** The team, its row locked on PostgreSQL (SQLite runs one write transaction at a time): saves of its webhook queue up. */
export function lockTeam(db: Kysely<Database>, groupId: number, forUpdate: boolean) {
  const query = db.selectFrom('teams').select('id').where('id', '=', groupId);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function findWebhook(db: Kysely<Database>, groupId: number) {
  return db.selectFrom('alarm_webhooks').selectAll().where('group_id', '=', groupId).executeTakeFirst();
}

export async function saveWebhook(db: Kysely<Database>, groupId: number, url: string, secret: string, at: number) {
  await db
    .insertInto('alarm_webhooks')
    .values({ group_id: groupId, url, secret, updated_at: at })
    .onConflict((oc) => oc.column('group_id').doUpdateSet({ url, secret, updated_at: at }))
    .execute();
}

export function removeWebhook(db: Kysely<Database>, groupId: number) {
  return db.deleteFrom('alarm_webhooks').where('group_id', '=', groupId).execute();
}

export function insertDelivery(db: Kysely<Database>, values: Insertable<AlarmDeliveriesTable>) {
  return db.insertInto('alarm_deliveries').values(values).execute();
}

/** Where a notice goes: a team's webhook (recipient null), or one person's address. */
export interface Receiver {
  channel: string;
  group_id: number;
  recipient: string | null;
}

/** Deliveries due now that no process holds. */
function due(db: Kysely<Database>, now: number) {
  return db
    .selectFrom('alarm_deliveries')
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_at', '<=', now)
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', now)]));
}

/** The first due delivery of each receiver, oldest first: one row per receiver however many it has waiting. */
export function dueHeads(db: Kysely<Database>, now: number, limit: number) {
  return db
    .selectFrom('alarm_deliveries')
    .selectAll()
    .where(
      'id',
      'in',
      due(db, now)
        .select((eb) => eb.fn.min('id').as('id'))
        .groupBy(['channel', 'group_id', 'recipient']),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The next due delivery of one receiver. */
export function nextDueOf(db: Kysely<Database>, receiver: Receiver, now: number) {
  return due(db, now)
    .selectAll()
    .where('channel', '=', receiver.channel)
    .where('group_id', '=', receiver.group_id)
    .where((eb) => (receiver.recipient === null ? eb('recipient', 'is', null) : eb('recipient', '=', receiver.recipient)))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** A failing receiver waits as a whole: none of its pending deliveries is tried before `until`. */
export function deferReceiver(db: Kysely<Database>, receiver: Receiver, until: number) {
  return db
    .updateTable('alarm_deliveries')
    .set({ next_at: until })
    .where('channel', '=', receiver.channel)
    .where('group_id', '=', receiver.group_id)
    .where((eb) => (receiver.recipient === null ? eb('recipient', 'is', null) : eb('recipient', '=', receiver.recipient)))
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_at', '<', until)
    .execute();
}

/** Takes a delivery for this process until `until`; false when another process took it first. */
export async function leaseDelivery(db: Kysely<Database>, id: number, now: number, until: number) {
  const result = await db
    .updateTable('alarm_deliveries')
    .set({ leased_until: until })
    .where('id', '=', id)
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null)
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function updateDelivery(db: Kysely<Database>, id: number, values: Updateable<AlarmDeliveriesTable>) {
  return db.updateTable('alarm_deliveries').set(values).where('id', '=', id).execute();
}

export async function deliveryCounts(db: Kysely<Database>, groupId: number, channel: string) {
  const row = await db
    .selectFrom('alarm_deliveries')
    .select((eb) => [
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when(eb.and([eb('delivered_at', 'is', null), eb('failed_at', 'is', null)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('pending'),
      eb.fn.sum<number | string | null>(eb.case().when('failed_at', 'is not', null).then(1).else(0).end()).as('failed'),
    ])
    .where('group_id', '=', groupId)
    .where('channel', '=', channel)
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending ?? 0), failed: Number(row.failed ?? 0) };
}

/** The last delivery that ended (delivered or given up) or was tried, for the administrators' view. */
export function lastAttempt(db: Kysely<Database>, groupId: number, channel: string) {
  return db
    .selectFrom('alarm_deliveries')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('channel', '=', channel)
    .where('attempted_at', 'is not', null)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Who is e-mailed about an alarm of a station: members of its team with an address who chose every alarm of the team,
 * or the stations they follow and follow this one.
 */
export async function mailRecipients(db: Kysely<Database>, groupId: number, ippId: number) {
  const rows = await db
    .selectFrom('users')
    .leftJoin('user_views', 'user_views.user_id', 'users.id')
    .select(['users.id', 'users.email', 'users.language', 'users.alarm_email', 'user_views.ipp_ids'])
    .where('users.group_id', '=', groupId)
    .where('users.alarm_email', 'in', ['team', 'followed'])
    .where('users.email', '!=', '')
    .orderBy('users.id')
    .execute();
  return rows.filter((row) => {
    if (row.alarm_email === 'team') return true;
    try {
      return (JSON.parse(row.ipp_ids ?? '[]') as unknown[]).includes(ippId);
    } catch {
      return false;
    }
  });
}

/** Which of these users are of the team (a rule may route only to its own team's people). */
export async function teamMemberIds(db: Kysely<Database>, groupId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('group_id', '=', groupId)
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => r.id);
}

/** The named people of the team with an address, whatever their own e-mail choice (a rule routed to them). */
export function namedRecipients(db: Kysely<Database>, groupId: number, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'email', 'language'])
    .where('group_id', '=', groupId)
    .where('id', 'in', [...ids])
    .where('email', '!=', '')
    .orderBy('id')
    .execute();
}
