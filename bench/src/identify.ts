/**
 * Identify benchmark: the identify workspace's reads and a 10k-ROI bulk move on the same fleet as the overview/detail
 * benchmark (10 stations, one year, 8 classes) with 1M and with 10M ROIs. The ROI list is keyset-paged, so a deep
 * page should cost what page 1 costs, and both what the SQL of one page costs plus the API's own work; the list's
 * total may count the matching ROIs up to 100,000 (countUpTo), which is measured on its own. Every figure is also
 * given as a multiple of a floor measured in the same run (a signed-in GET that touches no ROI), because these
 * machines are shared and noisy.
 * The databases have no planner statistics (the server never runs ANALYZE on SQLite) unless `--analyze` is given.
 *
 *   npm run bench:identify                 # 1M and 10M (about 15 minutes; loading 10M rows and slow reads)
 *   npm run bench:identify -- --quick      # 100k and 1M
 *   npm run bench:identify -- --write      # also rewrite the identify figures in docs/benchmarks.md
 *   npm run bench:identify -- --keep       # leave the databases; then --reuse <dir>,<dir> measures them again
 *   npm run bench:identify -- --analyze    # with planner statistics (ANALYZE), as the overview/detail benchmark
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { buildRoiRollups, seedFleet } from './fleet.ts';
import * as browse from '../../apps/server/src/modules/identify/browse.repository.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STATIONS = 10;
const CLASSES = 8;
const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
const SPAN_DAYS = 365;
/** The list's page size (the web's) and the server's count cap (identify.service.ts COUNT_CAP). */
const LIMIT = 200;
const COUNT_CAP = 100_000;
/**
 * Pages reached by cursor start at the middle of the station's list and at position 1,000,000 (or 1,000 before the
 * end when the station holds fewer).
 */
const DEEP = 1_000_000;
const BULK = 10_000;

const { values: flags } = parseArgs({
  options: {
    reuse: { type: 'string' },
    keep: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    runs: { type: 'string', default: '40' },
    'bulk-runs': { type: 'string', default: '5' },
    analyze: { type: 'boolean', default: false },
  },
});
const sizes = flags.quick ? [100_000, 1_000_000] : [1_000_000, 10_000_000];
const runs = Number(flags.runs);
const bulkRuns = Number(flags['bulk-runs']);
const WARMUP = 5;
/** A read whose run takes seconds gets fewer runs: as many as fit in this, but at least MIN_RUNS. */
const READ_BUDGET_MS = 120_000;
const MIN_RUNS = 3;

async function load(db: Db, rois: number) {
  const k = db.kysely;
  await seedFleet(k, STATIONS, NOW);
  // The secondary indexes of `rois` are dropped for the load and built again from their own definitions afterwards:
  // the same indexes, built by one sort each instead of 10M random inserts.
  const indexes = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name = 'rois' and sql is not null`.execute(k);
  for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(k);
  const start = NOW - SPAN_DAYS * DAY;
  // Rows generated inside SQLite: station, time, class and size from independent multiplicative hashes of the row
  // number (high bits, so they are not correlated), spread uniformly over the whole year at every size. As in the
  // overview/detail benchmark every ROI is AI-classified; besides, one in 50 is labelled by hand (hi = 1, the HI
  // group of the tree) and one in about 300 is a favourite. The new columns (deleted_at, review_status, ...) keep
  // their defaults: nothing recycled, nothing waiting for review.
  const hash = (mult: number) => sql`((x * ${sql.lit(mult)}) % 4294967296)`;
  const cls = sql`(1 + (${hash(2246822519)} / 65536) % ${sql.lit(CLASSES)})`;
  await sql`
    with recursive seq(x) as (select 1 union all select x + 1 from seq where x < ${sql.lit(rois)})
    insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, roi_labelindex, confidence,
                      class_id, hi, favorite_at)
    select 1 + (${hash(3266489917)} / 65536) % ${sql.lit(STATIONS)},
           ${sql.lit(start)} + cast(${hash(2654435761)} * ${sql.raw(String((SPAN_DAYS * DAY) / 2 ** 32))} as integer),
           ${sql.lit(NOW)},
           printf('%064x', x), 'image/png', 9000, 120, 90,
           100 + (${hash(668265263)} / 65536) % 20000,
           ${cls}, 0.5 + ((${hash(374761393)} / 65536) % 50) / 100.0, ${cls},
           case when x % 50 = 0 then 1 else 0 end,
           case when x % ${sql.lit(Math.max(1, Math.floor(rois / 300)))} = 0 then ${sql.lit(NOW)} - x else null end
    from seq`.execute(k);
  for (const index of indexes.rows) await sql.raw(index.sql).execute(k);
  // Rollups and maintained counts as ingest would have left them (the rollup property test proves ingest keeps them
  // equal to this).
  await buildRoiRollups(k);
  // No ANALYZE here, unlike the overview/detail benchmark: a freshly loaded database is measured without planner
  // statistics, the worst case (the server's PRAGMA optimize at open samples them when a database is opened again,
  // as with --reuse); several of these plans depend on them (docs/benchmarks.md).
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** A position in one station's list (newest first) and the cursor that starts the next page there. */
interface Cursor {
  position: number;
  cursor: string;
  at: browse.Keyset;
}

interface Loaded {
  rois: number;
  dir: string;
  db: Db;
  app: Awaited<ReturnType<typeof buildApp>>;
  token: string;
  /** Per station id. */
  cursors: Map<number, { middle: Cursor; deep: Cursor }>;
  /** The newest 10k live ROIs of station 1: what "select all" over its list's first 50 pages gives. */
  bulkIds: number[];
  folders: [number, number];
}

/** `--keep` leaves the loaded databases; `--reuse small,large` measures them again without loading. */
const reused = flags.reuse?.split(',');

/** The cursor the server would hand out for a row (identify.service.ts encodeCursor: base64url of [sort value, id]). */
const encodeCursor = (at: browse.Keyset) => Buffer.from(JSON.stringify(at)).toString('base64url');

async function prepare(rois: number, index: number): Promise<Loaded> {
  const dir = reused?.[index] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-bench-identify-'));
  const db = openDatabase({ dataDir: dir });
  if (!reused) {
    await migrateToLatest(db);
    const t0 = performance.now();
    await load(db, rois);
    console.log(`  loaded ${rois.toLocaleString('en')} ROIs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } else {
    const { n } = await db.kysely
      .selectFrom('rois')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) !== rois)
      throw new Error(`${dir} holds ${Number(n).toLocaleString('en')} ROIs, not ${rois.toLocaleString('en')}`);
  }
  // Planner statistics: none by default, as the server leaves a SQLite database; `--analyze` measures with them.
  if (flags.analyze) await sql`analyze`.execute(db.kysely);
  else for (const table of ['sqlite_stat1', 'sqlite_stat4']) await sql`drop table if exists ${sql.id(table)}`.execute(db.kysely);
  const app = await buildApp({ config: testConfig({ DATA_DIR: dir, STATS_UTC_OFFSET: 8 }), db, clock: () => NOW });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/wyrbac/login/login',
    payload: { username: 'bench', password: 'bench-pass' },
  });
  const token = (login.json() as { data: { token: string } }).data.token;
  const target: Loaded = { rois, dir, db, app, token, cursors: new Map(), bulkIds: [], folders: [0, 0] };
  await resetBulkState(target);
  const k = db.kysely;
  for (let ipp = 1; ipp <= STATIONS; ipp++) {
    const { n } = await k
      .selectFrom('rois')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ipp_id', '=', ipp)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    // The row at that position, picked once by SQL; the next page starts after it.
    const cursorAt = async (position: number): Promise<Cursor> => {
      const row = await k
        .selectFrom('rois')
        .select(['roi_time', 'id'])
        .where('ipp_id', '=', ipp)
        .where('deleted_at', 'is', null)
        .orderBy('roi_time', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .offset(position - 1)
        .executeTakeFirstOrThrow();
      const at: browse.Keyset = [row.roi_time, row.id];
      return { position, at, cursor: encodeCursor(at) };
    };
    target.cursors.set(ipp, {
      middle: await cursorAt(Math.floor(Number(n) / 2)),
      deep: await cursorAt(Math.min(DEEP, Number(n) - 1000)),
    });
  }
  const newest = async (ippId?: number) => {
    let q = k.selectFrom('rois').select('id').where('deleted_at', 'is', null);
    if (ippId !== undefined) q = q.where('ipp_id', '=', ippId);
    return (await q.orderBy('roi_time', 'desc').orderBy('id', 'desc').limit(BULK).execute()).map((r) => r.id);
  };
  target.bulkIds = await newest(1);
  // A station of the 100k fleet holds fewer than 10k ROIs: then the team's newest.
  if (target.bulkIds.length < BULK) target.bulkIds = await newest();
  target.folders = [await folder(target, '100Bench'), await folder(target, '101Bench2')];
  return target;
}

interface Answer {
  code: number;
  count?: number;
  data: unknown;
}

async function call(target: Loaded, method: 'GET' | 'POST', url: string, payload?: object): Promise<[number, Answer]> {
  const started = performance.now();
  const res = await target.app.inject({ method, url, headers: { 'x-token': target.token }, ...(payload ? { payload } : {}) });
  const took = performance.now() - started;
  const answer = res.json() as Answer;
  if (answer.code !== 1000) throw new Error(`${method} ${url}: ${res.body.slice(0, 500)}`);
  return [took, answer];
}

/** The bench folders, created through the API the first time (a reused database already has them). */
async function folder(target: Loaded, title: string): Promise<number> {
  const found = await target.db.kysely
    .selectFrom('roi_folders')
    .select('id')
    .where('title', '=', title)
    .where('category_id', '=', 0)
    .executeTakeFirst();
  if (found) return found.id;
  const [, answer] = await call(target, 'POST', '/api/roi-index/save', { title, category_id: 0 });
  return (answer.data as { roi_index_id: number }).roi_index_id;
}

/** A reused database left by an interrupted run: its recycled ROIs restored, the bench folders emptied. */
async function resetBulkState(target: Loaded) {
  const k = target.db.kysely;
  const binned = (await k.selectFrom('rois').select('id').where('deleted_at', 'is not', null).execute()).map((r) => r.id);
  for (let i = 0; i < binned.length; i += BULK) {
    await call(target, 'POST', '/api/roi/save-move', { type: '113', category_id: -8, roi_ids: binned.slice(i, i + BULK) });
  }
  const members = await k
    .selectFrom('folder_rois as fr')
    .innerJoin('roi_folders as f', 'f.id', 'fr.folder_id')
    .select(['fr.folder_id', 'fr.roi_id'])
    .where('f.title', 'in', ['100Bench', '101Bench2'])
    .execute();
  for (const folderId of new Set(members.map((m) => m.folder_id))) {
    const ids = members.filter((m) => m.folder_id === folderId).map((m) => m.roi_id);
    for (let i = 0; i < ids.length; i += BULK) {
      await call(target, 'POST', '/api/roi/save-move', {
        type: '53',
        category_id: 0,
        code: `f:${folderId}`,
        roi_ids: ids.slice(i, i + BULK),
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reads. Run i looks at station 1 + i % 10 (and class 1 + i % 8), like the overview/detail benchmark.

interface Ctx {
  t: Loaded;
  ipp: number;
  cls: number;
}

/** The columns of one list item, as browse.repository.ts selects them, for the hand-written SQL. */
const ITEM = sql`select r.id, r.ipp_id, i.dev_id, i.site_name, i.group_id, r.roi_time, r.received_at, r.class_id, c.name as class_name,
       r.roi_labelindex, r.confidence, r.hi, r.size_px, r.bytes, r.width, r.height, r.favorite_at, r.sha256, r.mime, r.status,
       r.collect_status, r.is_demo_image, r.invalid, r.review_status, r.deleted_at, c.attention
  from rois r join ipps i on i.id = r.ipp_id left join classes c on c.id = r.class_id`;

const stationsOf = (ipp: number): browse.BrowseFilter => ({ source: { kind: 'stations', ippIds: [ipp] } });
const classOf = (ipp: number, cls: number): browse.BrowseFilter => ({ ...stationsOf(ipp), kind: 1, classKey: cls });
/** `Roi_time_s=-31 day`: the last 31 days before the server's clock (time-range.ts). */
const MONTH = { start: NOW - 31 * DAY, end: NOW };
const lastMonthOf = (ipp: number): browse.BrowseFilter => ({ ...stationsOf(ipp), ...MONTH });
const NEWEST: browse.BrowseSort = { field: 'Roi_time', dir: 'desc' };
const SMALLEST: browse.BrowseSort = { field: 'size', dir: 'asc' };

interface ListQuery {
  /** The API (GET /api/roi/index ...). */
  url: (c: Ctx) => string;
  /** The page as the hand-written keyset SELECT (LIMIT 201). */
  raw: (c: Ctx) => Promise<unknown>;
  /** The same page through the server's own repository (the SQL the API runs for it). */
  page: (c: Ctx) => Promise<unknown>;
  /** countUpTo(100,001) of the same filter through the server's repository: the count a list total may cost. */
  count: (c: Ctx) => Promise<unknown>;
}

interface Query {
  name: string;
  url: (c: Ctx) => string;
  raw?: (c: Ctx) => Promise<unknown>;
  list?: Omit<ListQuery, 'url' | 'raw'>;
}

const list = (c: Ctx, extra = '') => `/api/roi/index?category_id=-100&ipp_id=${c.ipp}&limit=${LIMIT}${extra}`;
const kOf = (c: Ctx) => c.t.db.kysely;
const cursorOf = (c: Ctx, which: 'middle' | 'deep') => c.t.cursors.get(c.ipp)![which];

/** The next page after a cursor: the API, the hand-written keyset SELECT (a row-value comparison) and the server's. */
const fromCursor = (which: 'middle' | 'deep', name: string): Query => ({
  name,
  url: (c) => list(c, `&after=${cursorOf(c, which).cursor}`),
  raw: (c) => {
    const [time, id] = cursorOf(c, which).at;
    return sql`${ITEM} where r.ipp_id = ${c.ipp} and r.deleted_at is null and (r.roi_time, r.id) < (${time}, ${id})
      order by r.roi_time desc, r.id desc limit ${LIMIT + 1}`.execute(kOf(c));
  },
  list: {
    page: (c) => browse.page(kOf(c), stationsOf(c.ipp), NEWEST, LIMIT + 1, { after: cursorOf(c, which).at }),
    count: (c) => browse.countUpTo(kOf(c), stationsOf(c.ipp), COUNT_CAP + 1),
  },
});

const QUERIES: Query[] = [
  { name: 'floor: GET /wyrbac/login/user-info', url: () => '/api/wyrbac/login/user-info' },
  {
    name: 'list page 1 (newest first)',
    url: (c) => list(c),
    raw: (c) =>
      sql`${ITEM} where r.ipp_id = ${c.ipp} and r.deleted_at is null order by r.roi_time desc, r.id desc limit ${LIMIT + 1}`.execute(
        kOf(c),
      ),
    list: {
      page: (c) => browse.page(kOf(c), stationsOf(c.ipp), NEWEST, LIMIT + 1, {}),
      count: (c) => browse.countUpTo(kOf(c), stationsOf(c.ipp), COUNT_CAP + 1),
    },
  },
  fromCursor('middle', 'list middle page (cursor)'),
  fromCursor('deep', 'list deep page (cursor)'),
  {
    name: 'list page 1, one AI class (t:ai:c:N)',
    url: (c) => list(c, `&code=t:ai:c:${c.cls}`),
    raw: (c) =>
      sql`${ITEM} where r.ipp_id = ${c.ipp} and r.deleted_at is null and r.hi = 0 and r.roi_labelindex != 0 and r.class_id = ${c.cls}
        order by r.roi_time desc, r.id desc limit ${LIMIT + 1}`.execute(kOf(c)),
    list: {
      page: (c) => browse.page(kOf(c), classOf(c.ipp, c.cls), NEWEST, LIMIT + 1, {}),
      count: (c) => browse.countUpTo(kOf(c), classOf(c.ipp, c.cls), COUNT_CAP + 1),
    },
  },
  {
    name: 'list page 1, last 31 days (Roi_time_s)',
    url: (c) => list(c, '&Roi_time_s=-31%20day'),
    raw: (c) =>
      sql`${ITEM} where r.ipp_id = ${c.ipp} and r.deleted_at is null and r.roi_time >= ${MONTH.start} and r.roi_time <= ${MONTH.end}
        order by r.roi_time desc, r.id desc limit ${LIMIT + 1}`.execute(kOf(c)),
    list: {
      page: (c) => browse.page(kOf(c), lastMonthOf(c.ipp), NEWEST, LIMIT + 1, {}),
      count: (c) => browse.countUpTo(kOf(c), lastMonthOf(c.ipp), COUNT_CAP + 1),
    },
  },
  {
    name: 'list page 1, smallest first (size asc)',
    url: (c) => list(c, '&diysort=size&sorttype=asc'),
    raw: (c) =>
      sql`${ITEM} where r.ipp_id = ${c.ipp} and r.deleted_at is null order by r.size_px asc, r.id asc limit ${LIMIT + 1}`.execute(
        kOf(c),
      ),
    list: {
      page: (c) => browse.page(kOf(c), stationsOf(c.ipp), SMALLEST, LIMIT + 1, {}),
      count: (c) => browse.countUpTo(kOf(c), stationsOf(c.ipp), COUNT_CAP + 1),
    },
  },
  {
    name: 'class tree: /roi-index/index -100',
    url: (c) => `/api/roi-index/index?category_id=-100&ipp_id=${c.ipp}`,
    raw: (c) => sql`select kind, class_key, n from roi_class_counts where ipp_id = ${c.ipp} and n != 0`.execute(kOf(c)),
  },
  {
    name: 'categories: /roi/categorys',
    url: () => '/api/roi/categorys',
    // Its statements that read ROIs or their counts: the station totals and the favourite, review and recycle counts.
    raw: async (c) => {
      // The team's stations as the service passes them: a list of ids.
      const team = sql`(${sql.join(Array.from({ length: STATIONS }, (_, i) => i + 1))})`;
      await sql`select ipp_id, class_key, n from roi_totals where n != 0 and ipp_id in ${team}`.execute(kOf(c));
      for (const subset of [
        sql`r.deleted_at is null and r.favorite_at is not null`,
        sql`r.deleted_at is null and r.review_status = 1`,
      ]) {
        await sql`select coalesce(r.class_id, 0) as class_key, count(*) as n from rois r where ${subset} and r.ipp_id in ${team}
          group by 1`.execute(kOf(c));
      }
      await sql`select coalesce(r.class_id, 0) as class_key, count(*) as n from rois r where r.deleted_at is not null
        and r.ipp_id in ${team} group by 1`.execute(kOf(c));
    },
  },
];

interface Timing {
  api: number;
  raw?: number;
  page?: number;
  count?: number;
  /** What the list call spends besides its page SQL (the same run's API − page): any count, and the API's own work. */
  rest?: number;
}

async function timed(fn: () => Promise<unknown>) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** One run of a query on one database: the API, then the hand-written SQL, the server's page SQL and its count. */
async function once(q: Query, c: Ctx, check: boolean): Promise<Timing> {
  const [api, answer] = await call(c.t, 'GET', q.url(c));
  if (check && q.list) {
    const page = answer.data as { items: unknown[]; next: string | null };
    if (page.items.length !== LIMIT || page.next === null) throw new Error(`${q.name}: a short page (${page.items.length})`);
  }
  const raw = q.raw ? await timed(() => q.raw!(c)) : undefined;
  if (!q.list) return { api, raw };
  const page = await timed(() => q.list!.page(c));
  const count = await timed(() => q.list!.count(c));
  return { api, raw, page, count, rest: api - page };
}

type Medians = Record<keyof Timing, number | undefined>;

/**
 * Both databases are open at once and every query alternates between them, so a noisy neighbour slows both
 * sides of a ratio alike.
 */
/** How many runs each read got (fewer than --runs for reads that take seconds). */
const measuredRuns = new Map<string, number>();

async function measureReads(a: Loaded, b: Loaded) {
  const out = new Map<string, [Medians, Medians]>();
  for (const q of QUERIES) {
    const times: [Timing[], Timing[]] = [[], []];
    // A read that takes seconds is warmed up once and run as often as READ_BUDGET_MS allows.
    const started = performance.now();
    let [warmup, total] = [WARMUP, runs + WARMUP];
    for (let i = 0; i < total; i++) {
      const first = i % 2 === 0 ? a : b;
      const second = first === a ? b : a;
      const ctx = (t: Loaded): Ctx => ({ t, ipp: 1 + (i % STATIONS), cls: 1 + (i % CLASSES) });
      const t1 = await once(q, ctx(first), i < warmup);
      const t2 = await once(q, ctx(second), i < warmup);
      if (i === 0) {
        const took = performance.now() - started;
        if (took > 1000) warmup = 1;
        total = warmup + Math.max(Math.min(MIN_RUNS, runs), Math.min(runs, Math.floor(READ_BUDGET_MS / took)));
      }
      if (i < warmup) continue;
      times[first === a ? 0 : 1].push(t1);
      times[second === a ? 0 : 1].push(t2);
    }
    const medians = (list: Timing[]): Medians => {
      const of = (key: keyof Timing) => (list[0]![key] === undefined ? undefined : median(list.map((t) => t[key]!)));
      return { api: of('api'), raw: of('raw'), page: of('page'), count: of('count'), rest: of('rest') };
    };
    out.set(q.name, [medians(times[0]), medians(times[1])]);
    measuredRuns.set(q.name, total - warmup);
    console.log(
      `  ${q.name}: ${out
        .get(q.name)!
        .map((m) => `${m.api!.toFixed(1)} ms`)
        .join(' / ')}`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Bulk: copy 10k ROIs of the site images into a folder, move them to another folder and back, take them out of the
// folder again, recycle them and restore them. Each run leaves the database as it found it.

interface BulkStep {
  /** The row of the table it is reported in (the two directions of the move share one). */
  row: string;
  body: (t: Loaded) => object;
}

const BULK_STEPS: BulkStep[] = [
  {
    row: 'copy 10k into a folder (51, from -100)',
    body: (t) => ({ type: '51', category_id: -100, roi_ids: t.bulkIds, target_id: t.folders[0] }),
  },
  {
    row: 'move 10k to another folder (52, both ways)',
    body: (t) => ({ type: '52', category_id: 0, code: `f:${t.folders[0]}`, roi_ids: t.bulkIds, target_id: t.folders[1] }),
  },
  {
    row: 'move 10k to another folder (52, both ways)',
    body: (t) => ({ type: '52', category_id: 0, code: `f:${t.folders[1]}`, roi_ids: t.bulkIds, target_id: t.folders[0] }),
  },
  {
    row: 'remove 10k from the folder (53)',
    body: (t) => ({ type: '53', category_id: 0, code: `f:${t.folders[0]}`, roi_ids: t.bulkIds }),
  },
  { row: 'recycle 10k (2, from -1000)', body: (t) => ({ type: '2', category_id: -1000, roi_ids: t.bulkIds }) },
  { row: 'restore 10k (113, from -8)', body: (t) => ({ type: '113', category_id: -8, roi_ids: t.bulkIds }) },
];

/** The floor is measured again before every bulk action, so the multiples compare with the same moment's floor. */
const BULK_FLOOR = 'floor (measured between the bulk actions)';

async function measureBulk(a: Loaded, b: Loaded) {
  const times = new Map<string, [number[], number[]]>([[BULK_FLOOR, [[], []]]]);
  for (let run = 0; run < bulkRuns + 1; run++) {
    for (const step of BULK_STEPS) {
      const first = run % 2 === 0 ? a : b;
      for (const t of [first, first === a ? b : a]) {
        const [floor] = await call(t, 'GET', '/api/wyrbac/login/user-info');
        if (run > 0) times.get(BULK_FLOOR)![t === a ? 0 : 1].push(floor);
        const [took, answer] = await call(t, 'POST', '/api/roi/save-move', step.body(t));
        const affected = (answer.data as { affected: number }).affected;
        if (affected !== BULK) throw new Error(`${step.row}: affected ${affected}, not ${BULK}`);
        if (run === 0) continue;
        const entry = times.get(step.row) ?? [[], []];
        entry[t === a ? 0 : 1].push(took);
        times.set(step.row, entry);
      }
    }
  }
  return new Map([...times].map(([name, [ta, tb]]) => [name, [median(ta), median(tb)] as [number, number]]));
}

async function release(target: Loaded) {
  await target.app.close();
  await target.db.close();
  if (flags.keep || reused) console.log(`  kept ${target.dir}`);
  else fs.rmSync(target.dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------------------

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
const x = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)}×`;
const [small, large] = sizes as [number, number];
const statistics = flags.analyze ? 'SQLite after ANALYZE' : 'SQLite without planner statistics (as the server leaves it)';
console.log(
  `Identify benchmark: ${STATIONS} stations, ${SPAN_DAYS} days, ${CLASSES} classes, ${statistics}, ${runs} runs per read (median), ` +
    `${bulkRuns} runs per bulk action (median)`,
);
console.log(`- ${label(small)}`);
const small_ = await prepare(small, 0);
console.log(`- ${label(large)}`);
const large_ = await prepare(large, 1);
const positions = (t: Loaded, which: 'middle' | 'deep') => {
  const all = [...t.cursors.values()].map((c) => c[which].position);
  return `${Math.min(...all).toLocaleString('en')}–${Math.max(...all).toLocaleString('en')}`;
};
const where = (which: 'middle' | 'deep') =>
  `${which} page after position ${label(small)} ${positions(small_, which)}, ${label(large)} ${positions(large_, which)}`;
console.log(`  ${where('middle')}; ${where('deep')}`);
const reads = await measureReads(small_, large_);
const bulk = await measureBulk(small_, large_);
await release(small_);
await release(large_);

const floorName = QUERIES[0]!.name;
const floors = reads.get(floorName)!.map((m) => m.api!) as [number, number];
const readRows = QUERIES.map((q) => {
  const [ma, mb] = reads.get(q.name)!;
  const side = (m: Medians, floor: number) =>
    `${ms(m.api!)} (${x(m.api! / floor)} floor) | ${m.raw === undefined ? '—' : ms(m.raw)} | ${m.raw === undefined ? '—' : x(m.api! / m.raw)}`;
  const name = measuredRuns.get(q.name) === runs ? q.name : `${q.name} [${measuredRuns.get(q.name)} runs]`;
  return `| ${name} | ${side(ma, floors[0])} | ${side(mb, floors[1])} | ${(mb.api! / ma.api!).toFixed(2)} |`;
});
const [S, L] = [label(small), label(large)];
const readTable = [
  `| read (median) | ${S}: API | ${S}: raw SQL | ${S}: API/raw | ${L}: API | ${L}: raw SQL | ${L}: API/raw | API ${L}/${S} |`,
  '|---|---|---|---|---|---|---|---|',
  ...readRows,
].join('\n');

const lists = QUERIES.filter((q) => q.list);
const splitRows = lists.map((q) => {
  const [ma, mb] = reads.get(q.name)!;
  const side = (m: Medians) => `${ms(m.page!)} | ${ms(m.rest!)} | ${ms(m.count!)}`;
  return `| ${q.name} | ${side(ma)} | ${side(mb)} | ${(mb.count! / ma.count!).toFixed(2)} |`;
});
const splitTable = [
  `| list call (median) | ${S}: page SQL | ${S}: API − page SQL | ${S}: countUpTo | ${L}: page SQL | ${L}: API − page SQL | ${L}: countUpTo | countUpTo ${L}/${S} |`,
  '|---|---|---|---|---|---|---|---|',
  ...splitRows,
].join('\n');

const page1 = reads.get(QUERIES[1]!.name)!;
const versusPage1 = (index: number, title: string) => {
  const other = reads.get(QUERIES[index]!.name)!;
  const ratios = [0, 1].map((i) => {
    const [p, d] = [page1[i]!, other[i]!];
    return `${label(sizes[i]!)}: API ${(d.api! / p.api!).toFixed(2)}, server page SQL ${(d.page! / p.page!).toFixed(2)}, raw SQL ${(d.raw! / p.raw!).toFixed(2)}`;
  });
  return `${title} / page 1 — ${ratios.join('; ')}.`;
};

const bulkFloors = bulk.get(BULK_FLOOR)!;
const bulkRows = [...bulk].map(
  ([name, [ta, tb]]) =>
    `| ${name} | ${ms(ta)} (${x(ta / bulkFloors[0])} floor) | ${ms(tb)} (${x(tb / bulkFloors[1])} floor) | ${(tb / ta).toFixed(2)} |`,
);
const bulkTable = [
  `| bulk action, 10,000 ROIs (median) | ${S} ROIs | ${L} ROIs | ratio ${L}/${S} |`,
  '|---|---|---|---|',
  ...bulkRows,
].join('\n');

const header = `${where('middle')}; ${where('deep')}. ${versusPage1(2, 'Middle page')} ${versusPage1(3, 'Deep page')}`;
console.log(`\n${readTable}\n\n${splitTable}\n\n${header}\n\n${bulkTable}\n`);

if (flags.write) {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../docs/benchmarks.md');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const section = [
    '<!-- identify:start -->',
    `${new Date(Date.now()).toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}; ${statistics}; ${runs} runs per read (fewer where marked), ${bulkRuns} per bulk action; ${header}`,
    '',
    readTable,
    '',
    splitTable,
    '',
    bulkTable,
    '<!-- identify:end -->',
  ].join('\n');
  const updated = text.includes('<!-- identify:start -->')
    ? text.replace(/<!-- identify:start -->[\s\S]*<!-- identify:end -->/, section)
    : `${text.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, updated);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
