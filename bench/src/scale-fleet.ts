/** The fleets bench:scale measures: a generated PostgreSQL fleet opened with an in-process server, signed in. */
import os from 'node:os';
import type { LogEvent } from 'kysely';
import { sql } from 'kysely';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { percentile } from './server-process.ts';

const LIMIT = 200;
/** A deep page: the cursor at this position of a station's list (80% of it when shorter). */
const DEEP = 400_000;

type App = Awaited<ReturnType<typeof buildApp>>;

export interface Fleet {
  url: string;
  db: Db;
  app: App;
  token: string;
  rois: number;
  /** Statements Kysely ran while `capturing` is set (the partition trial replays them). */
  captured: { sql: string; params: readonly unknown[] }[];
  capturing: boolean;
  deep: Map<number, string>;
}

export async function openFleet(url: string): Promise<Fleet> {
  const fleet = { url, captured: [], capturing: false, deep: new Map() } as unknown as Fleet;
  const log = (event: LogEvent) => {
    if (fleet.capturing && event.level === 'query') fleet.captured.push({ sql: event.query.sql, params: event.query.parameters });
  };
  fleet.db = openDatabase({ dataDir: os.tmpdir(), databaseUrl: url, log });
  await migrateToLatest(fleet.db);
  const { now, n } = (
    await sql<{ now: string; n: string }>`select max(received_at) as now, count(*) as n from rois`.execute(fleet.db.kysely)
  ).rows[0]!;
  fleet.rois = Number(n);
  fleet.app = await buildApp({
    config: testConfig({ DATA_DIR: os.tmpdir(), STATS_UTC_OFFSET: 8, FEATURE_WORKERS: 0, SIMILARITY_PRELOAD: 'off' }),
    db: fleet.db,
    clock: () => Number(now),
  });
  await fleet.app.ready();
  const login = await fleet.app.inject({
    method: 'POST',
    url: '/api/wyrbac/login/login',
    payload: { username: 'bench', password: 'bench-pass' },
  });
  fleet.token = (login.json() as { data: { token: string } }).data.token;
  return fleet;
}

interface Answer {
  code: number;
  count?: number;
  data: { next?: string | null; count_capped?: boolean };
}

export async function get(f: Fleet, url: string): Promise<Answer> {
  const res = await f.app.inject({ method: 'GET', url, headers: { 'x-token': f.token } });
  const answer = res.json() as Answer;
  if (answer.code !== 1000) throw new Error(`GET ${url}: ${res.body.slice(0, 300)}`);
  return answer;
}

export const listUrl = (station: number, filter = '') =>
  `/api/roi/index?category_id=-100&ipp_id=${station}&limit=${LIMIT}${filter}`;

/** The cursor of the newest-first page at DEEP (or 80% of the list), found once per station by one offset call. */
export async function findDeep(f: Fleet, station: number) {
  const first = await get(f, listUrl(station));
  const count = first.count ?? 0;
  const page = Math.floor((first.data.count_capped ? DEEP : Math.min(DEEP, count * 0.8)) / LIMIT);
  const answer = await get(f, `${listUrl(station)}&page=${page}`);
  if (answer.data.next) f.deep.set(station, answer.data.next);
}

export interface Page {
  name: string;
  url: (f: Fleet, station: number) => string;
}

export const IDENTIFY: Page[] = [
  { name: 'identify: newest first, page 1', url: (_f, s) => listUrl(s) },
  { name: 'identify: newest first, deep page', url: (f, s) => `${listUrl(s)}&after=${f.deep.get(s)}` },
  { name: 'identify: largest class, page 1', url: (_f, s) => listUrl(s, '&code=t:ai:c:1') },
  { name: 'identify: rare class, page 1', url: (_f, s) => listUrl(s, '&code=t:ai:c:40') },
  { name: 'identify: last 31 days, page 1', url: (_f, s) => listUrl(s, '&Roi_time_s=-31%20day') },
  { name: 'identify: size 500–2000 px, page 1', url: (_f, s) => listUrl(s, '&coordRange_0=500&coordRange_1=2000') },
];

/** The median, as the other benchmarks take it (server-process.ts percentile). */
export const median = (values: number[]) => percentile(values, 50);
export const ms = (v: number) => (v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);
