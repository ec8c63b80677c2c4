import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { User, UserIndexQuery } from '@ipp/contracts';
import type { Database, UsersTable } from '../../db/schema.ts';
import { escapeLike } from '../../db/query-helpers.ts';

export type UserRow = Selectable<UsersTable>;

export function findUserByAccount(db: Kysely<Database>, account: string) {
  return db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Holds the user's row until the transaction ends (PostgreSQL): one account's sign-ins and settings writes take turns. */
export async function lockUser(db: Kysely<Database>, id: number) {
  await db.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute();
}

export async function insertUser(db: Kysely<Database>, user: Insertable<UsersTable>): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Kysely<Database>, id: number, changes: Updateable<UsersTable>) {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

export async function deleteUser(db: Kysely<Database>, id: number) {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countSuperadmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'superadmin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type UserFilter = Pick<UserIndexQuery, 'account' | 'email' | 'phone' | 'group_id'>;

const contains = (column: string, text: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;

function filtered(db: Kysely<Database>, filter: UserFilter) {
  let query = db.selectFrom('users as u').leftJoin('teams as t', 't.id', 'u.group_id');
  if (filter.account) query = query.where(contains('u.account', filter.account));
  if (filter.email) query = query.where(contains('u.email', filter.email));
  if (filter.phone) query = query.where(contains('u.phone', filter.phone));
  if (filter.group_id !== undefined) query = query.where('u.group_id', '=', filter.group_id);
  return query;
}

export async function countFilteredUsers(db: Kysely<Database>, filter: UserFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const USER_COLUMNS = [
  'u.id',
  'u.account',
  'u.name',
  'u.phone',
  'u.email',
  'u.group_id',
  't.name as group_name',
  'u.role',
  'u.is_demo',
  'u.created_at',
] as const;

type UserSelection = { is_demo: number; group_name: string | null } & Omit<User, 'demo' | 'group_name'>;
const toUser = ({ is_demo, ...r }: UserSelection): User => ({ ...r, group_name: r.group_name ?? null, demo: is_demo === 1 });

export async function listUsers(db: Kysely<Database>, filter: UserFilter, offset: number, limit: number): Promise<User[]> {
  const rows = await filtered(db, filter).select(USER_COLUMNS).orderBy('u.id').offset(offset).limit(limit).execute();
  return rows.map(toUser);
}

export async function findUserView(db: Kysely<Database>, id: number): Promise<User | undefined> {
  const row = await filtered(db, {}).select(USER_COLUMNS).where('u.id', '=', id).executeTakeFirst();
  return row && toUser(row);
}
