import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, IppsTable } from '../../db/schema.ts';
import { escapeLike } from '../../db/query-helpers.ts';

export interface IppFilter {
  keyword?: string;
  groupId?: number;
}

const COLUMNS = [
  'i.id',
  'i.dev_id',
  'i.site_name',
  'i.country',
  'i.longitude',
  'i.latitude',
  'i.group_id',
  't.name as group_name',
  'i.serial_number',
  'i.pixel_size_um',
  'i.time_zone',
  'i.config',
  'i.last_online_at',
  'i.wiper_status',
  'i.config_version',
  'i.applied_config',
  'i.latest_telemetry',
  'i.online_ms',
  'i.last_roi_at',
  'i.reported_offline_at',
  'i.updated_at',
  'i.created_at',
] as const;

function filtered(db: Kysely<Database>, filter: IppFilter) {
  let query = db.selectFrom('ipps as i').leftJoin('teams as t', 't.id', 'i.group_id');
  if (filter.groupId !== undefined) query = query.where('i.group_id', '=', filter.groupId);
  if (filter.keyword) {
    const pattern = `%${escapeLike(filter.keyword.toLowerCase())}%`;
    query = query.where((eb) =>
      eb.or(
        ['i.site_name', 'i.dev_id', 'i.serial_number'].map(
          (column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  return query;
}

export async function countIpps(db: Kysely<Database>, filter: IppFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listIpps(db: Kysely<Database>, filter: IppFilter, offset: number, limit: number) {
  return filtered(db, filter).select(COLUMNS).select(newestCapture).orderBy('i.id').offset(offset).limit(limit).execute();
}

/** Capture time (Roi_time) of the station's newest live image: the "latest image time" users see (issue 20). */
function newestCapture(eb: ExpressionBuilder<Database & { i: IppsTable }, 'i'>) {
  return eb
    .selectFrom('rois as r')
    .select('r.roi_time')
    .whereRef('r.ipp_id', '=', 'i.id')
    .where('r.deleted_at', 'is', null)
    .orderBy('r.roi_time', 'desc')
    .limit(1)
    .as('last_image_at');
}

export type IppSelection = Awaited<ReturnType<typeof listIpps>>[number];

export function findIpp(db: Kysely<Database>, id: number) {
  return filtered(db, {}).select(COLUMNS).select(newestCapture).where('i.id', '=', id).executeTakeFirst();
}

/** The instrument's configuration and version, locked for the rest of the transaction on PostgreSQL. */
export function lockIppConfig(db: Kysely<Database>, id: number, forUpdate: boolean) {
  const query = db
    .selectFrom('ipps')
    .select(['id', 'dev_id', 'site_name', 'group_id', 'config', 'config_version', 'applied_config'])
    .where('id', '=', id);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export type LockedIppConfig = NonNullable<Awaited<ReturnType<typeof lockIppConfig>>>;

export async function insertIpp(db: Kysely<Database>, row: Insertable<IppsTable>): Promise<number> {
  return (await db.insertInto('ipps').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateIpp(db: Kysely<Database>, id: number, changes: Updateable<IppsTable>) {
  await db.updateTable('ipps').set(changes).where('id', '=', id).execute();
}

export async function deleteIpp(db: Kysely<Database>, id: number) {
  await db.deleteFrom('ipps').where('id', '=', id).execute();
}

/** The ids among `ids` that are instruments of the team, with their dev_id. */
export function ippsOfTeamAmong(db: Kysely<Database>, groupId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('ipps').select(['id', 'dev_id']).where('group_id', '=', groupId).where('id', 'in', ids).execute();
}

export async function countRoisOf(db: Kysely<Database>, ippId: number): Promise<number> {
  const row = await db
    .selectFrom('roi_totals')
    .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
    .where('ipp_id', '=', ippId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The latest ROI of each station (the form's "current image"). */
export async function latestRoiOf(db: Kysely<Database>, ippId: number) {
  return db
    .selectFrom('rois')
    .select(['id', 'sha256'])
    .where('ipp_id', '=', ippId)
    .orderBy('roi_time', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
