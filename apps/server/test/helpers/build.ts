import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { Role } from '@ipp/contracts';
import { buildApp } from '../../src/app.ts';
import { testConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { hashPassword } from '../../src/modules/auth/password.ts';
import { insertTeam } from '../../src/modules/teams/teams.repository.ts';
import { insertUser } from '../../src/modules/users/users.repository.ts';
import { TEST_DATABASE_URL, type TestDialect } from './dialects.ts';

export class FakeClock {
  constructor(public now = Date.UTC(2026, 10, 22, 8, 0, 0)) {}
  readonly read = () => this.now;
  advance(ms: number) {
    this.now += ms;
  }
}

export interface TestEnv {
  app: FastifyInstance;
  db: Db;
  clock: FakeClock;
  config: Config;
  close(): Promise<void>;
}

/** A fresh database (SQLite file in a temp dir, or a new PostgreSQL schema), migrated, and the app on top. */
export async function buildTestApp(
  dialect: TestDialect,
  options: { config?: Partial<Config>; beforeReady?: (app: FastifyInstance) => void | Promise<void> } = {},
): Promise<TestEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-test-'));
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create schema ${schema}`);
  const db = openDatabase({
    dataDir,
    databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : undefined,
    pgSchema: dialect === 'postgres' ? schema : undefined,
  });
  try {
    await migrateToLatest(db);
  } catch (error) {
    // A schema left behind by a failed migration would be read by no one and pile up in the shared test database.
    await db.close();
    if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
    throw error;
  }
  const config = testConfig({ DATA_DIR: dataDir, ...options.config });
  const clock = new FakeClock();
  const app = await buildApp({ config, db, clock: clock.read });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    db,
    clock,
    config,
    async close() {
      await app.close();
      await db.close();
      if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export const PASSWORD = 'secret-pass';

export async function createTeam(env: TestEnv, name: string) {
  return insertTeam(env.db.kysely, name, env.clock.now);
}

export async function createUser(
  env: TestEnv,
  account: string,
  role: Role,
  extra: { groupId?: number | null; demo?: boolean; password?: string } = {},
) {
  return insertUser(env.db.kysely, {
    account,
    name: `Name of ${account}`,
    password_hash: await hashPassword(extra.password ?? PASSWORD, env.config.SCRYPT_LOG_N),
    phone: '',
    email: '',
    group_id: extra.groupId ?? null,
    role,
    avatar: '',
    is_demo: extra.demo ? 1 : 0,
    created_at: env.clock.now,
    updated_at: env.clock.now,
  });
}

export function loginRequest(env: TestEnv, username: string, password = PASSWORD, lang = 'en') {
  return env.app.inject({
    method: 'POST',
    url: '/api/wyrbac/login/login',
    headers: { 'x-lang': lang },
    payload: { username, password },
  });
}

export async function login(env: TestEnv, username: string, password = PASSWORD): Promise<string> {
  const res = await loginRequest(env, username, password);
  const body = res.json();
  if (body.code !== 1000) throw new Error(`login of ${username} failed: ${res.body}`);
  return body.data.token as string;
}

export function get(env: TestEnv, url: string, token?: string, lang = 'en') {
  return env.app.inject({ method: 'GET', url, headers: { 'x-lang': lang, ...(token ? { 'x-token': token } : {}) } });
}

export const body = (res: LightMyRequestResponse) =>
  res.json() as {
    code: number;
    data: unknown;
    msg?: string;
    model: { field?: string; requestId?: string } | null;
    count: number;
    index: unknown;
  };
