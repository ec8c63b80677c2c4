import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import type { Role } from '@ipp/contracts';
import { buildApp } from '../../src/app.ts';
import { testConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { hashPassword } from '../../src/security/password.ts';
import { insertTeam } from '../../src/modules/teams/teams.repository.ts';
import { insertUser } from '../../src/modules/users/users.repository.ts';
import { adminQuery, databaseUrl } from './pg-admin.ts';
import './provided.ts';
import type { TestDialect } from './dialects.ts';

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

/**
 * A fresh database (a copy of the run's migrated SQLite file in a temp dir, or a new PostgreSQL database made from the
 * run's migrated template; test/global-setup.ts makes both) and the app on top.
 */
export async function buildTestApp(
  dialect: TestDialect,
  options: { config?: Partial<Config>; beforeReady?: (app: FastifyInstance) => void | Promise<void> } = {},
): Promise<TestEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-test-'));
  const database = dialect === 'postgres' ? await createWorldDatabase() : undefined;
  let db: Db | undefined;
  const dropWorld = async () => {
    await db?.close();
    if (database) await dropWorldDatabase(database);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const config = testConfig({ DATA_DIR: dataDir, ...options.config });
  const clock = new FakeClock();
  let app: FastifyInstance;
  try {
    if (!database) fs.copyFileSync(inject('sqliteTemplate'), path.join(dataDir, SQLITE_FILE));
    db = openDatabase({ dataDir, sqliteFile: SQLITE_FILE, databaseUrl: database && databaseUrl(database) });
    app = await buildApp({ config, db, clock: clock.read });
    await options.beforeReady?.(app);
    await app.ready();
  } catch (error) {
    // A database left behind would be read by no one and pile up on the shared test server.
    await dropWorld();
    throw error;
  }
  return {
    app,
    db: db!,
    clock,
    config,
    async close() {
      await app.close();
      await dropWorld();
    },
  };
}

const SQLITE_FILE = 'ipp-console.sqlite';

/**
 * Drops a world's database once its connections are gone. pg's Pool.end() resolves as soon as it has asked its idle
 * clients to end, before their sessions have closed; DROP DATABASE … WITH (FORCE) then killed those sessions and
 * each dying client raised an unhandled error (vitest failed the run for them). A plain DROP DATABASE waits up to
 * 5 s for other sessions to leave; only a connection still open after that is forced.
 */
async function dropWorldDatabase(name: string) {
  try {
    await adminQuery(`drop database if exists ${name}`);
  } catch (error) {
    if ((error as { code?: string }).code !== '55006') throw error;
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}

async function createWorldDatabase(): Promise<string> {
  const template = inject('pgTemplate');
  if (!template) throw new Error('PostgreSQL world asked for, but test/global-setup.ts made no template');
  const name = `ipp_t_${crypto.randomBytes(6).toString('hex')}`;
  // WAL_LOG (the default) copied the small template in about 30 ms here, FILE_COPY in 36 to 112.
  await adminQuery(`create database ${name} template ${template}`);
  return name;
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
