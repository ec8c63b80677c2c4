import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const ADMIN_PASSWORD = 'e2e-admin-pass';
/** The password of the demo accounts that --seed-demo creates (demo, demo_admin, demo_user). */
export const DEMO_PASSWORD = 'demo123';
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface RunningServer {
  url: string;
  dataDir: string;
  log: () => string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash: no shutdown, nothing cleaned up (the data directory and the database stay). */
  kill(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Whether the PostgreSQL server of the suites that need one answers (CI must have it; elsewhere they skip, loudly). */
export async function pgReachable() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function pgAdmin(sql: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface Database {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database on the test server, named with the prefix and a random tail; drop() removes it. */
export async function createDatabase(prefix = 'ipp_e2e'): Promise<Database> {
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  await pgAdmin(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => pgAdmin(`drop database if exists ${name} with (force)`) };
}

export interface ServerOptions {
  dialect?: 'sqlite' | 'postgres';
  env?: Record<string, string>;
  /** A prepared data directory (a database loaded beforehand); a fresh one without. */
  dataDir?: string;
  /** An existing PostgreSQL database to share with other processes (created and dropped by the caller). */
  databaseUrl?: string;
}

/**
 * Starts the real server (`npm start`'s entry point, with demo seeding) on the production web build,
 * in a fresh data directory (or the one given), or a fresh PostgreSQL database.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // WEB_DIST (as the server reads it) lets a run use a build of its own instead of the shared one.
  const dist = path.join(process.env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'), 'index.html');
  if (!fs.existsSync(dist)) throw new Error('No production web build: run "npm run build" first (npm test does it).');
  const port = await freePort();
  // A prepared data directory (a database loaded beforehand) or a fresh one.
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-e2e-'));
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    // Most specs need an empty station list; the monitoring spec turns the 30-day demo history on.
    IPP_DEMO_HISTORY: 'off',
    // Servers of different specs may share the broker: each its own shared-subscription group.
    MQTT_GROUP: `e2e-${crypto.randomBytes(4).toString('hex')}`,
  };
  let database: Database | null = null;
  if (options.databaseUrl) {
    env.DATABASE_URL = options.databaseUrl;
  } else if (options.dialect === 'postgres') {
    database = await createDatabase();
    env.DATABASE_URL = database.url;
  }
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', '--seed-demo'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (output.includes('IPP Console on')) break;
    if (Date.now() > deadline) throw new Error(`server did not start in 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    log: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
