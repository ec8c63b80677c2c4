import { ALARM_SEVERITIES, type AlarmListQuery, type TrendSeriesKey } from '@ipp/contracts';
import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { AlarmRulesTable, AlarmsTable, Database } from '../../db/schema.ts';

export type AlarmRuleRow = Selectable<AlarmRulesTable>;
export type AlarmRow = Selectable<AlarmsTable>;

/** A team's rules, each with its class's name (biology rules). */
export function rulesOfGroup(db: Kysely<Database>, groupId: number) {
  return db
    .selectFrom('alarm_rules')
    .leftJoin('classes', 'classes.id', 'alarm_rules.class_id')
    .selectAll('alarm_rules')
    .select('classes.name as class_name')
    .where('alarm_rules.group_id', '=', groupId)
    .orderBy('alarm_rules.id')
    .execute();
}

export function findRule(db: Kysely<Database>, id: number) {
  return db.selectFrom('alarm_rules').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRuleWithClass(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('alarm_rules')
    .leftJoin('classes', 'classes.id', 'alarm_rules.class_id')
    .selectAll('alarm_rules')
    .select('classes.name as class_name')
    .where('alarm_rules.id', '=', id)
    .executeTakeFirst();
}

export async function countRules(db: Kysely<Database>, groupId: number) {
  const row = await db
    .selectFrom('alarm_rules')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertRule(db: Kysely<Database>, values: Insertable<AlarmRulesTable>) {
  const row = await db.insertInto('alarm_rules').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function updateRule(db: Kysely<Database>, id: number, values: Updateable<AlarmRulesTable>) {
  return db.updateTable('alarm_rules').set(values).where('id', '=', id).execute();
}

export function deleteRule(db: Kysely<Database>, id: number) {
  return db.deleteFrom('alarm_rules').where('id', '=', id).execute();
}

/** The enabled rules that watch a station: its own and the team-wide ones. */
export function enabledRulesFor(db: Kysely<Database>, groupId: number, ippId: number) {
  return db
    .selectFrom('alarm_rules')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('ipp_id', 'is', null), eb('ipp_id', '=', ippId)]))
    .orderBy('id')
    .execute();
}

export function ippIdentity(db: Kysely<Database>, id: number) {
  return db.selectFrom('ipps').select(['id', 'group_id', 'dev_id', 'site_name']).where('id', '=', id).executeTakeFirst();
}

/** What the rules read of a station. */
export function stationForAlarms(db: Kysely<Database>, ippId: number) {
  return db
    .selectFrom('ipps')
    .select([
      'id',
      'group_id',
      'dev_id',
      'site_name',
      'time_zone',
      'longitude',
      'last_online_at',
      'reported_offline_at',
      'online_since',
      'latest_telemetry',
      'last_roi_at',
      'config',
    ])
    .where('id', '=', ippId)
    .executeTakeFirst();
}
export type StationForAlarms = NonNullable<Awaited<ReturnType<typeof stationForAlarms>>>;

/** Stations of teams that have an enabled rule, for the periodic check (silence raises no report). */
export async function stationsWithRules(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('ipps')
    .select('ipps.id')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('alarm_rules')
          .select('alarm_rules.id')
          .whereRef('alarm_rules.group_id', '=', 'ipps.group_id')
          .where('alarm_rules.enabled', '=', 1),
      ),
    )
    .orderBy('ipps.id')
    .execute();
  return rows.map((r) => r.id);
}

export async function stationIdsOfGroup(db: Kysely<Database>, groupId: number) {
  const rows = await db.selectFrom('ipps').select('id').where('group_id', '=', groupId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The open alarms of a station, by rule. */
export function openAlarmsOf(db: Kysely<Database>, ippId: number) {
  return db.selectFrom('alarms').selectAll().where('ipp_id', '=', ippId).where('cleared_at', 'is', null).execute();
}

/** Raises an alarm unless one of the rule is open on the station already (another process got there first): its id or null. */
export async function raiseAlarm(db: Kysely<Database>, values: Insertable<AlarmsTable>) {
  const row = await db
    .insertInto('alarms')
    .values(values)
    .onConflict((oc) => oc.columns(['rule_id', 'ipp_id']).where('cleared_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export function updateAlarm(db: Kysely<Database>, id: number, values: Updateable<AlarmsTable>) {
  return db.updateTable('alarms').set(values).where('id', '=', id).where('cleared_at', 'is', null).executeTakeFirst();
}

/** Marks an active alarm notified at `at` unless someone did since `previous`; whether this call did. */
export async function markNotified(db: Kysely<Database>, id: number, previous: number | null, at: number) {
  const result = await db
    .updateTable('alarms')
    .set({ notified_at: at })
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('cleared_at', 'is', null)
    .where((eb) => (previous === null ? eb('notified_at', 'is', null) : eb('notified_at', '=', previous)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks an active alarm escalated; false when it was already, or is no longer active (another evaluation, process). */
export async function markEscalated(db: Kysely<Database>, id: number, at: number) {
  const result = await db
    .updateTable('alarms')
    .set({ escalated_at: at })
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('escalated_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Acknowledges an active alarm; 0 rows when someone else did first or it cleared meanwhile. */
export async function acknowledgeAlarm(
  db: Kysely<Database>,
  id: number,
  values: Pick<Updateable<AlarmsTable>, 'acknowledged_at' | 'acknowledged_by' | 'acknowledged_by_name' | 'ack_note'>,
) {
  const result = await db
    .updateTable('alarms')
    .set({ ...values, state: 'acknowledged' })
    .where('id', '=', id)
    .where('state', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A pending alarm becomes active (its condition held for the rule's duration); whether this call did it. `notified`
 * false: a silence holds its notice (notified_at stays null until it is sent).
 */
export async function promotePending(
  db: Kysely<Database>,
  id: number,
  values: Pick<AlarmRow, 'value' | 'raised_at'>,
  notified: boolean,
) {
  const result = await db
    .updateTable('alarms')
    .set({ ...values, state: 'active', last_seen_at: values.raised_at, notified_at: notified ? values.raised_at : null })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A pending alarm whose condition ended before it raised: it never was an alarm, so it leaves no history. */
export function dropPending(db: Kysely<Database>, id: number) {
  return db.deleteFrom('alarms').where('id', '=', id).where('state', '=', 'pending').execute();
}

/**
 * Clears the open alarms of a rule (it was changed or removed): pending ones go, the others clear. The cleared rows, for
 * their notices.
 */
export async function clearAlarmsOfRule(db: Kysely<Database>, ruleId: number, at: number) {
  await db.deleteFrom('alarms').where('rule_id', '=', ruleId).where('state', '=', 'pending').execute();
  return db
    .updateTable('alarms')
    .set({ state: 'cleared', cleared_at: at })
    .where('rule_id', '=', ruleId)
    .where('cleared_at', 'is', null)
    .returningAll()
    .execute();
}

/** One alarm with its station's identity, its class's name and whether it is silenced, as notices present it. */
export function alarmWithNames(db: Kysely<Database>, id: number, now: number) {
  return db
    .selectFrom('alarms')
    .innerJoin('ipps', 'ipps.id', 'alarms.ipp_id')
    .leftJoin('classes', 'classes.id', 'alarms.class_id')
    .selectAll('alarms')
    .select(['ipps.dev_id', 'ipps.site_name', 'ipps.time_zone', 'ipps.longitude', 'classes.name as class_name'])
    .select((eb) => silencedAt(now)(eb).as('silenced'))
    .where('alarms.id', '=', id)
    .executeTakeFirst();
}

export function findAlarm(db: Kysely<Database>, id: number) {
  return db.selectFrom('alarms').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface AlarmFilter {
  groupId: number | undefined;
  state: AlarmListQuery['state'];
  ippId?: number;
  kind?: string;
  id?: number;
}

function filtered(db: Kysely<Database>, filter: AlarmFilter) {
  let query = db.selectFrom('alarms').innerJoin('ipps', 'ipps.id', 'alarms.ipp_id');
  if (filter.groupId !== undefined) query = query.where('alarms.group_id', '=', filter.groupId);
  if (filter.state === 'open') query = query.where('alarms.cleared_at', 'is', null);
  else if (filter.state !== 'all') query = query.where('alarms.state', '=', filter.state);
  if (filter.ippId !== undefined) query = query.where('alarms.ipp_id', '=', filter.ippId);
  if (filter.kind !== undefined) query = query.where('alarms.kind', '=', filter.kind);
  if (filter.id !== undefined) query = query.where('alarms.id', '=', filter.id);
  return query;
}

/** ROIs of a class and litres sampled at a station since `fromHour` (the hour rollups: a few rows, never the ROIs). */
export async function classCountAndVolume(db: Kysely<Database>, ippId: number, classId: number, fromHour: number) {
  const count = await db
    .selectFrom('roi_rollup_hour')
    .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
    .where('ipp_id', '=', ippId)
    .where('class_key', '=', classId)
    .where('hour', '>=', fromHour)
    .executeTakeFirst();
  const volume = await db
    .selectFrom('telemetry_rollup_hour')
    .select((eb) => eb.fn.sum<number | string | null>('volume_l').as('v'))
    .where('ipp_id', '=', ippId)
    .where('hour', '>=', fromHour)
    .executeTakeFirst();
  return { count: Number(count?.n ?? 0), volumeL: Number(volume?.v ?? 0) };
}

/** A series' value in the station's last sample within [atLeast, atMost] (null: none, or it did not report it). */
export async function seriesValueBetween(
  db: Kysely<Database>,
  ippId: number,
  series: TrendSeriesKey,
  atLeast: number,
  atMost: number,
) {
  const row = await db
    .selectFrom('telemetry')
    .select(series)
    .where('ipp_id', '=', ippId)
    .where('at', '<=', atMost)
    .where('at', '>=', atLeast)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const value = row?.[series];
  return value === null || value === undefined ? null : Number(value);
}

export function classOwner(db: Kysely<Database>, classId: number) {
  return db.selectFrom('classes').select(['id', 'group_id']).where('id', '=', classId).executeTakeFirst();
}

export async function classNames(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .selectFrom('classes')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Heaviest first: critical 0 … warning 3 (anything else last). */
const severityRank = sql<number>`case alarms.severity ${sql.join(
  ALARM_SEVERITIES.map((s, i) => sql`when ${s} then ${i}`),
  sql` `,
)} else ${ALARM_SEVERITIES.length} end`;

/** Open alarms (one of the open states, or all open) heaviest first; history newest first. */
const bySeverity = (state: AlarmListQuery['state']) => state !== 'all' && state !== 'cleared';

export async function listAlarms(db: Kysely<Database>, filter: AlarmFilter, page: number, limit: number, now: number) {
  let ordered = filtered(db, filter)
    .leftJoin('classes', 'classes.id', 'alarms.class_id')
    .selectAll('alarms')
    .select(['ipps.dev_id', 'ipps.site_name', 'ipps.time_zone', 'ipps.longitude', 'classes.name as class_name'])
    .select((eb) => silencedAt(now)(eb).as('silenced'));
  if (bySeverity(filter.state)) ordered = ordered.orderBy(severityRank);
  const [rows, total] = await Promise.all([
    ordered
      .orderBy('alarms.raised_at', 'desc')
      .orderBy('alarms.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function countOpen(db: Kysely<Database>, groupId: number | undefined) {
  let query = db
    .selectFrom('alarms')
    .select(['state', 'severity', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('cleared_at', 'is', null)
    .groupBy(['state', 'severity']);
  if (groupId !== undefined) query = query.where('group_id', '=', groupId);
  const rows = await query.execute();
  const of = (state: string, severity?: string) =>
    rows
      .filter((r) => r.state === state && (severity === undefined || r.severity === severity))
      .reduce((sum, r) => sum + Number(r.n), 0);
  return {
    active: of('active'),
    acknowledged: of('acknowledged'),
    pending: of('pending'),
    by_severity: {
      critical: of('active', 'critical'),
      major: of('active', 'major'),
      minor: of('active', 'minor'),
      warning: of('active', 'warning'),
    },
  };
}

export function userEmailChoice(db: Kysely<Database>, userId: number) {
  return db.selectFrom('users').select(['alarm_email', 'email']).where('id', '=', userId).executeTakeFirst();
}

export function setUserEmailChoice(db: Kysely<Database>, userId: number, choice: string, at: number) {
  return db.updateTable('users').set({ alarm_email: choice, updated_at: at }).where('id', '=', userId).execute();
}

/** Clears an open (raised) alarm by hand; 0 rows when it cleared or was cleared meanwhile. */
export async function clearByHand(
  db: Kysely<Database>,
  id: number,
  values: Pick<Updateable<AlarmsTable>, 'cleared_at' | 'cleared_by_name' | 'clear_reason'>,
) {
  const result = await db
    .updateTable('alarms')
    .set({ ...values, state: 'cleared' })
    .where('id', '=', id)
    .where('cleared_at', 'is', null)
    .where('state', 'in', ['active', 'acknowledged'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Locks an alarm's row for the rest of the transaction (PostgreSQL; SQLite writes one at a time anyway). */
export function lockAlarm(db: Kysely<Database>, id: number, forUpdate: boolean) {
  const query = db.selectFrom('alarms').select(['id', 'group_id']).where('id', '=', id);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/** Whether a silence of the alarm's team covers it at `now` (its station or all, its rule or all). */
export const silencedAt = (now: number) => (eb: ExpressionBuilder<Database & { alarms: AlarmsTable }, 'alarms'>) =>
  eb.exists(
    eb
      .selectFrom('alarm_silences as s')
      .select('s.id')
      .whereRef('s.group_id', '=', 'alarms.group_id')
      .where('s.starts_at', '<=', now)
      .where('s.ends_at', '>', now)
      .where((w) => w.or([w('s.ipp_id', 'is', null), w('s.ipp_id', '=', w.ref('alarms.ipp_id'))]))
      .where((w) => w.or([w('s.rule_id', 'is', null), w('s.rule_id', '=', w.ref('alarms.rule_id'))])),
  );
