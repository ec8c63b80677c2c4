/**
 * Recognition benchmark, on the embedded SQLite default in a fresh temporary data directory:
 *
 * 1. Re-identification of one station's 100,000 ROIs of the last 24 hours (target ≤ 60 s): every ROI has stored
 *    features — the real feature vectors of the labelled PWSSC images (../shared/data/pwssc-spc, read in place, never
 *    copied), assigned round-robin with ±2% noise — and the team's active model is a forest trained on those images.
 *    The job is queued by POST /api/roi/re-identify and timed through app.jobs.drain(). Its floor, measured in the
 *    same run, is the least the same work needs: raw better-sqlite3 reading the feature vectors in (time, id) order
 *    and writing each ROI's class, one transaction per 500. predictMany of all vectors alone, and one instrumented run
 *    that splits the job into classification, SQL by statement and the rest, say where the time goes.
 * 2. "More like this" at 1,000,000 ROIs of one team: the first GET /api/ai/similar of a fresh server (it loads the
 *    team's index) against reading the descriptors in raw better-sqlite3, then the median of 50 queries against a
 *    bare scan of the same int8 descriptors in this process; reads that take seconds get fewer runs (at least 5).
 *    Measured as loaded (no planner statistics, as the server leaves SQLite, like the identify benchmark) and again
 *    after ANALYZE, to show the index's reads do not depend on them.
 * 3. Then bench/src/features.ts, if it is there (feature extraction per image against a bare sharp decode).
 *
 *   npm run bench:recognition                 # 100k ROIs and 1M descriptors (about 15 minutes)
 *   npm run bench:recognition -- --quick      # 20k and 200k, a subset of the images (smoke check)
 *   npm run bench:recognition -- --write      # also rewrite the recognition figures in docs/benchmarks.md
 *   npm run bench:recognition -- --keep       # leave the database
 *   npm run bench:recognition -- --skip-features  # without bench/src/features.ts, which otherwise runs after it
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import { type Kysely, type KyselyPlugin, type OperationNode } from 'kysely';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { mulberry32 } from '../../apps/server/src/lib/random.ts';
import { TeamModel, loadPredictor, trainTeamModel } from '../../apps/server/src/modules/recognition/team-model.ts';
import { VECTOR_NAMES, VECTOR_VERSION, vectorOfImage } from '../../apps/server/src/modules/recognition/vector.ts';
import { SIM_DIMS, descriptorOf } from '../../apps/server/src/modules/recognition/descriptor.ts';
import type { Measures } from '../../apps/server/src/modules/recognition/features.ts';
import { REID_BATCH } from '../../apps/server/src/modules/recognition/reidentify-job.ts';
import { descriptorsAfter } from '../../apps/server/src/modules/recognition/features.repository.ts';
import { LATE_WINDOW } from '../../apps/server/src/modules/recognition/similarity.ts';
import { buildRoiRollups, seedFleet } from './fleet.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 24, 8, 0, 0);
const STATIONS = 10;
/** Relative noise on each feature of a copied vector (uniform ±2%). */
const NOISE = 0.02;
const TARGET_S = 60;
/** GET /api/ai/similar's default page, and the candidates the service asks the index for (limit * 3 + 10). */
const SIMILAR_LIMIT = 24;
const CANDIDATES = SIMILAR_LIMIT * 3 + 10;
const INSTANT_MS = 100;

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    images: { type: 'string' },
    'skip-features': { type: 'boolean', default: false },
    runs: { type: 'string' },
    queries: { type: 'string' },
  },
});
const REID_N = flags.quick ? 20_000 : 100_000;
const SIM_N = flags.quick ? 200_000 : 1_000_000;
/** Runs of the job and of its floor (alternating), first queries of a fresh server, similarity queries. */
const RUNS = Number(flags.runs ?? (flags.quick ? 1 : 3));
const LOADS = flags.quick ? 1 : 3;
const QUERIES = Number(flags.queries ?? (flags.quick ? 20 : 50));
const WARMUP = 5;

const here = path.dirname(fileURLToPath(import.meta.url));
const IMAGES = path.resolve(flags.images ?? path.join(here, '../../../shared/data/pwssc-spc'));

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
const ms = (v: number) =>
  v >= 10_000
    ? `${(v / 1000).toFixed(1)} s`
    : v >= 1000
      ? `${(v / 1000).toFixed(2)} s`
      : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
const x = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)}×`;
const us = (totalMs: number, n: number) => `${((totalMs * 1000) / n).toFixed(totalMs * 1000 < n * 10 ? 2 : 1)} µs`;
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------------------------
// The real feature vectors of the labelled images.

interface Sample {
  folder: string;
  values: Float32Array;
  measures: Measures;
}

/** Every image under IMAGES/<class>/ (with --quick every fourth of each class), in a fixed shuffled order. */
async function sampleImages(): Promise<Sample[]> {
  if (!fs.existsSync(IMAGES)) throw new Error(`${IMAGES} not found: the PWSSC images (pass --images <dir>)`);
  const folders = fs
    .readdirSync(IMAGES, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const out: Sample[] = [];
  const threshold = DEFAULT_IPP_CONFIG.binarization_threshold;
  for (const folder of folders) {
    const files = fs
      .readdirSync(path.join(IMAGES, folder))
      .filter((f) => /\.(png|jpe?g)$/i.test(f))
      .sort()
      .filter((_, i) => !flags.quick || i % 4 === 0);
    for (const file of files) {
      const f = await vectorOfImage(fs.readFileSync(path.join(IMAGES, folder, file)), { threshold });
      out.push({ folder, values: f.values, measures: f.measures });
    }
  }
  // The day's stream mixes taxa: a fixed shuffle, so that consecutive ROIs are of different classes.
  const r = mulberry32(7);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function noisy(values: Float32Array, r: () => number) {
  const out = new Float32Array(values.length);
  for (let f = 0; f < values.length; f++) out[f] = values[f]! * (1 + NOISE * (2 * r() - 1));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Loading.

interface Bench {
  dir: string;
  file: string;
  db: Db;
  raw: SQLite.Database;
  samples: Sample[];
  teamId: number;
  /** Class id of each sample's folder, and each class's label index. */
  classOf: number[];
  labelIndex: Map<number, number>;
  modelJson: string;
  trainMs: number;
  trees: number;
  /** Feature vectors of the re-identified ROIs (id = index + 1), and the class each starts with. */
  reidVecs: Float32Array[];
  initialClass: Int32Array;
  /** Every ROI's descriptor (id = index + 1), as stored. */
  sims: Int8Array;
}

/** The server's pragmas (db/database.ts) on a second, raw connection, for loading and for the floors. */
function rawConnection(file: string) {
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('cache_size = -65536');
  raw.pragma('mmap_size = 268435456');
  return raw;
}

/**
 * Inserts ROIs `from`…`to` (ids, 1-based) with their features: ROI i carries sample (i - 1) % samples, with noise.
 * `place` gives its station, time and class; the descriptor is computed from the noisy vector as ingest would.
 */
function insertRois(
  b: Bench,
  from: number,
  to: number,
  place: (id: number, sample: number) => { ipp: number; time: number; classId: number },
  keepVectors: boolean,
) {
  const roi = b.raw.prepare(`insert into rois (id, ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px,
      roi_labelindex, confidence, class_id, hi) values (?, ?, ?, ?, ?, 'image/png', 9000, 120, 90, ?, ?, 0.5, ?, 0)`);
  const features = b.raw.prepare(
    'insert into roi_features (roi_id, version, vec, sim, measures, biovolume) values (?, ?, ?, ?, ?, ?)',
  );
  const measures = b.samples.map((s) => JSON.stringify(s.measures));
  const r = mulberry32(from);
  const chunk = b.raw.transaction((first: number, last: number) => {
    for (let id = first; id <= last; id++) {
      const s = (id - 1) % b.samples.length;
      const sample = b.samples[s]!;
      const at = place(id, s);
      const vec = noisy(sample.values, r);
      const sim = descriptorOf(vec);
      b.sims.set(sim, (id - 1) * SIM_DIMS);
      if (keepVectors) b.reidVecs.push(vec);
      roi.run(
        id,
        at.ipp,
        at.time,
        NOW,
        id.toString(16).padStart(64, '0'),
        Math.max(1, Math.round(sample.measures.area_px)),
        b.labelIndex.get(at.classId)!,
        at.classId,
      );
      features.run(
        id,
        VECTOR_VERSION,
        Buffer.from(vec.buffer, vec.byteOffset, vec.byteLength),
        Buffer.from(sim.buffer, sim.byteOffset, sim.byteLength),
        measures[s]!,
        sample.measures.biovolume_px3,
      );
    }
  });
  for (let first = from; first <= to; first += 50_000) chunk(first, Math.min(to, first + 49_999));
  b.raw.pragma('wal_checkpoint(TRUNCATE)');
}

/** Rollups and maintained counts rebuilt from `rois` (bench/src/fleet.ts), as ingest would have left them. */
async function rebuildRollups(k: Kysely<Database>) {
  for (const table of ['roi_rollup_hour', 'roi_rollup_day', 'roi_count_hour', 'roi_totals', 'roi_class_counts'] as const) {
    await k.deleteFrom(table).execute();
  }
  await k.deleteFrom('rollup_meta').where('key', '=', 'day_offset_hours').execute();
  await buildRoiRollups(k);
}

async function prepare(): Promise<Bench> {
  let t0 = performance.now();
  const samples = await sampleImages();
  const featureMs = performance.now() - t0;
  console.log(
    `  features of ${samples.length} images (${VECTOR_NAMES.length} values each) in ${(featureMs / 1000).toFixed(1)} s ` +
      `(${(featureMs / samples.length).toFixed(1)} ms per image)`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-bench-recognition-'));
  const db = openDatabase({ dataDir: dir });
  await migrateToLatest(db);
  const k = db.kysely;
  const teamId = await seedFleet(k, STATIONS, NOW);
  const folders = [...new Set(samples.map((s) => s.folder))].sort();
  const labelIndex = new Map<number, number>();
  const classIdOf = new Map<string, number>();
  for (const [i, folder] of folders.entries()) {
    const index = 100 + i;
    const row = await k
      .insertInto('classes')
      .values({ name: `${index}${folder}`, label_index: index, system: 0, group_id: null, created_at: NOW })
      .returning('id')
      .executeTakeFirstOrThrow();
    labelIndex.set(row.id, index);
    classIdOf.set(folder, row.id);
  }
  const classOf = samples.map((s) => classIdOf.get(s.folder)!);
  // The team's model as a training job would store it: a forest with the server's defaults on the real vectors.
  t0 = performance.now();
  const classifier = trainTeamModel({ x: samples.map((s) => s.values), y: classOf }, { seed: 1 });
  const trainMs = performance.now() - t0;
  const modelJson = JSON.stringify(classifier.toJSON());
  console.log(
    `  team model (forest of ${classifier.forest.trees} trees + softmax regression), ${folders.length} classes, trained in ${(trainMs / 1000).toFixed(1)} s`,
  );
  await k
    .insertInto('ai_models')
    .values({
      group_id: teamId,
      version: 1,
      status: 'ready',
      active: 1,
      feature_version: VECTOR_VERSION,
      train_size: samples.length,
      classes: folders.length,
      model: modelJson,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  const file = path.join(dir, 'ipp-console.sqlite');
  const b: Bench = {
    dir,
    file,
    db,
    raw: rawConnection(file),
    samples,
    teamId,
    classOf,
    labelIndex,
    modelJson,
    trainMs,
    trees: classifier.forest.trees,
    reidVecs: [],
    initialClass: new Int32Array(REID_N),
    sims: new Int8Array(SIM_N * SIM_DIMS),
  };
  // Station B1's last 24 hours, in time order; each ROI starts labelled with the class of the sample half the set
  // away (another class, nearly always), so re-identification moves nearly every ROI: the most writes.
  t0 = performance.now();
  const half = Math.floor(samples.length / 2);
  insertRois(
    b,
    1,
    REID_N,
    (id, s) => {
      const classId = classOf[(s + half) % samples.length]!;
      b.initialClass[id - 1] = classId;
      return { ipp: 1, time: NOW - DAY + Math.floor(((id - 0.5) * DAY) / REID_N), classId };
    },
    true,
  );
  await rebuildRollups(k);
  console.log(`  loaded ${REID_N.toLocaleString('en')} ROIs with features in ${secs(t0)}`);
  return b;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Re-identification.

async function serverOf(b: Bench, db: Db = b.db) {
  const app = await buildApp({ config: testConfig({ DATA_DIR: b.dir, STATS_UTC_OFFSET: 8 }), db, clock: () => NOW });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/wyrbac/login/login',
    payload: { username: 'bench', password: 'bench-pass' },
  });
  const token = (login.json() as { data: { token: string } }).data.token;
  return { app, token };
}
type Server = Awaited<ReturnType<typeof serverOf>>;

/** Back to the state before a re-identification: the starting classes, no AI labels, nothing to review. */
async function resetReid(b: Bench) {
  const update = b.raw.prepare(
    'update rois set class_id = ?, roi_labelindex = ?, review_status = 0, reviewed_at = null where id = ?',
  );
  b.raw.transaction(() => {
    for (let i = 0; i < REID_N; i++) update.run(b.initialClass[i]!, b.labelIndex.get(b.initialClass[i]!)!, i + 1);
    b.raw.prepare('delete from ai_labels').run();
  })();
  await rebuildRollups(b.db.kysely);
  b.raw.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * The floor: what the job cannot do without — read each ROI's stored vector in (time, id) order, 500 at a time, by
 * the same keyset the job walks, and write its class in one transaction per 500 — in raw better-sqlite3.
 * The classes written are the model's (computed beforehand), so the same rows and index entries change.
 */
function reidFloor(b: Bench, predicted: Int32Array) {
  const select = b.raw.prepare(`select r.id, r.roi_time, f.vec from rois r join roi_features f on f.roi_id = r.id
    where r.ipp_id = 1 and r.deleted_at is null and r.hi = 0 and r.roi_time >= ? and r.roi_time <= ? and (r.roi_time, r.id) > (?, ?)
    order by r.roi_time, r.id limit ${REID_BATCH}`);
  const update = b.raw.prepare('update rois set class_id = ?, roi_labelindex = ? where id = ?');
  const write = b.raw.transaction((ids: number[]) => {
    for (const id of ids) update.run(predicted[id - 1]!, b.labelIndex.get(predicted[id - 1]!)!, id);
  });
  const started = performance.now();
  let [time, id, n] = [-1, 0, 0];
  for (;;) {
    const rows = select.all(NOW - DAY, NOW, time, id) as { id: number; roi_time: number; vec: Buffer }[];
    if (rows.length === 0) break;
    let check = 0;
    for (const row of rows) {
      const copy = new Uint8Array(row.vec.byteLength);
      copy.set(row.vec);
      check += new Float32Array(copy.buffer)[0]!;
    }
    if (Number.isNaN(check)) throw new Error('NaN');
    write(rows.map((r) => r.id));
    n += rows.length;
    [time, id] = [rows[rows.length - 1]!.roi_time, rows[rows.length - 1]!.id];
  }
  if (n !== REID_N) throw new Error(`floor read ${n} ROIs, not ${REID_N}`);
  return performance.now() - started;
}

interface JobOutcome {
  ms: number;
  submitMs: number;
  changed: number;
  review: number;
}

/** POST /api/roi/re-identify for station B1's last 24 hours, then the queue drained: the job's whole time. */
async function runJob(b: Bench, s: Server, around: { before?: () => void; after?: () => void } = {}): Promise<JobOutcome> {
  let started = performance.now();
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/roi/re-identify',
    headers: { 'x-token': s.token },
    payload: { dev_id: 'B1', Roi_time_s: String(NOW - DAY), Roi_time_e: String(NOW) },
  });
  const submitMs = performance.now() - started;
  const answer = res.json() as { code: number; data: { job_id: number; rois: number } };
  if (answer.code !== 1000 || answer.data.rois !== REID_N) throw new Error(`re-identify: ${res.body.slice(0, 300)}`);
  around.before?.();
  started = performance.now();
  await s.app.jobs.drain();
  const took = performance.now() - started;
  around.after?.();
  const job = await b.db.kysely.selectFrom('jobs').selectAll().where('id', '=', answer.data.job_id).executeTakeFirstOrThrow();
  if (job.status !== 'done' || job.done !== REID_N)
    throw new Error(`job ${job.id}: ${job.status}, ${job.done} done, ${job.error}`);
  const { n } = await b.db.kysely
    .selectFrom('rois')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('review_status', '=', 1)
    .executeTakeFirstOrThrow();
  return { ms: took, submitMs, changed: job.changed, review: Number(n) };
}

/**
 * The statement a query node is, for the profile: its verb and table, the tables it joins, the first column an update
 * sets and whether a select has a LIMIT — enough to tell the job's statements apart (docs/benchmarks.md names them).
 */
function statementOf(node: OperationNode): string {
  type Node = Record<string, unknown>;
  const verb = {
    SelectQueryNode: 'select',
    InsertQueryNode: 'insert into',
    UpdateQueryNode: 'update',
    DeleteQueryNode: 'delete from',
  }[node.kind as string];
  const tableOf = (n: unknown): string | undefined => {
    if (!n || typeof n !== 'object') return undefined;
    const o = n as Node;
    if (o.kind === 'TableNode') return (o.table as { identifier?: { name?: string } }).identifier?.name ?? '?';
    for (const key of ['from', 'froms', 'into', 'table', 'node']) {
      const v = o[key];
      const found = Array.isArray(v) ? tableOf(v[0]) : tableOf(v);
      if (found) return found;
    }
    return undefined;
  };
  const o = node as unknown as Node;
  let key = `${verb ?? node.kind} ${tableOf(node) ?? '?'}`;
  const joins = Array.isArray(o.joins) ? (o.joins as Node[]).map((j) => tableOf(j.table)) : [];
  if (joins.length > 0) key += ` join ${joins.join(', ')}`;
  const updates = Array.isArray(o.updates) ? (o.updates as { column?: { column?: { name?: string } } }[]) : [];
  if (updates[0]?.column?.column?.name) key += ` set ${updates[0].column.column.name}`;
  if (o.limit) key += ' … limit';
  return key;
}

interface Profile {
  totalMs: number;
  predictMs: number;
  predictCalls: number;
  statements: Map<string, { n: number; ms: number }>;
}

/**
 * One job run on a second server whose database handle times every statement (a Kysely plugin: compile, execute
 * and read the result) and whose classifier calls are timed; what is left is JavaScript around them and the
 * transactions' begin and commit (each commit syncs the WAL, synchronous = FULL).
 */
async function profiledJob(b: Bench): Promise<Profile> {
  const statements = new Map<string, { n: number; ms: number }>();
  const open = new WeakMap<object, { at: number; key: string }>();
  let on = false;
  const timer: KyselyPlugin = {
    transformQuery(args) {
      if (on) open.set(args.queryId, { at: performance.now(), key: statementOf(args.node) });
      return args.node;
    },
    async transformResult(args) {
      const o = open.get(args.queryId);
      if (o) {
        const entry = statements.get(o.key) ?? { n: 0, ms: 0 };
        entry.n++;
        entry.ms += performance.now() - o.at;
        statements.set(o.key, entry);
      }
      return args.result;
    },
  };
  const s = await serverOf(b, { ...b.db, kysely: b.db.kysely.withPlugin(timer) });
  const predictMany = TeamModel.prototype.predictMany;
  let predictMs = 0;
  let predictCalls = 0;
  TeamModel.prototype.predictMany = function (this: TeamModel, ...args: Parameters<typeof predictMany>) {
    const t = performance.now();
    const out = predictMany.apply(this, args);
    predictMs += performance.now() - t;
    predictCalls++;
    return out;
  };
  try {
    // Only the drain: the submission and the checks after it are not part of the job.
    const outcome = await runJob(b, s, { before: () => (on = true), after: () => (on = false) });
    return { totalMs: outcome.ms, predictMs, predictCalls, statements };
  } finally {
    on = false;
    TeamModel.prototype.predictMany = predictMany;
    await s.app.close();
  }
}

interface ReidResult {
  floor: number;
  job: number;
  predict: number;
  submit: number;
  changed: number;
  review: number;
  profile: Profile;
}

async function benchReid(b: Bench): Promise<ReidResult> {
  const model = loadPredictor(JSON.parse(b.modelJson));
  const predicted = new Int32Array(REID_N);
  const s = await serverOf(b);
  const times = { floor: [] as number[], job: [] as number[], predict: [] as number[], submit: [] as number[] };
  let last: JobOutcome | null = null;
  for (let run = 0; run < RUNS; run++) {
    // predictMany of every vector, as the job's model classifies them (500 at a time there; the same per vector).
    const t = performance.now();
    const top = model.predictMany(b.reidVecs, 3);
    times.predict.push(performance.now() - t);
    top.forEach((p, i) => (predicted[i] = p[0]!.class_id));
    for (const which of run % 2 === 0 ? ['floor', 'job'] : ['job', 'floor']) {
      await resetReid(b);
      if (which === 'floor') {
        times.floor.push(reidFloor(b, predicted));
      } else {
        last = await runJob(b, s);
        times.job.push(last.ms);
        times.submit.push(last.submitMs);
      }
      console.log(`  run ${run + 1}: ${which} ${ms(which === 'floor' ? times.floor.at(-1)! : times.job.at(-1)!)}`);
    }
  }
  await s.app.close();
  await resetReid(b);
  const profile = await profiledJob(b);
  console.log(`  instrumented job ${ms(profile.totalMs)}`);
  return {
    floor: median(times.floor),
    job: median(times.job),
    predict: median(times.predict),
    submit: median(times.submit),
    changed: last!.changed,
    review: last!.review,
    profile,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Similarity.

/** The team grows to SIM_N ROIs: the rest over the year before, round-robin over its stations. */
async function growTeam(b: Bench) {
  const t0 = performance.now();
  const span = 365 * DAY;
  const extra = SIM_N - REID_N;
  insertRois(
    b,
    REID_N + 1,
    SIM_N,
    (id, s) => ({
      ipp: 1 + (id % STATIONS),
      time: NOW - DAY - span + Math.floor(((id - REID_N - 0.5) * span) / extra),
      classId: b.classOf[s]!,
    }),
    false,
  );
  await rebuildRollups(b.db.kysely);
  console.log(`  loaded ${extra.toLocaleString('en')} more ROIs with features (${label(SIM_N)} in all) in ${secs(t0)}`);
}

/** The floor of a query: every descriptor's squared distance to the query's, in one tight loop, keeping the best. */
function bareScan(sims: Int8Array, n: number, q: Int8Array) {
  let best = Infinity;
  let at = -1;
  for (let i = 0, o = 0; i < n; i++, o += SIM_DIMS) {
    let d = 0;
    for (let j = 0; j < SIM_DIMS; j++) {
      const t = sims[o + j]! - q[j]!;
      d += t * t;
    }
    if (d < best) {
      best = d;
      at = i;
    }
  }
  return at;
}

/** The floor of loading the index: every stored descriptor read into one typed array, in raw better-sqlite3. */
function loadFloor(b: Bench) {
  const started = performance.now();
  const out = new Int8Array(SIM_N * SIM_DIMS);
  let n = 0;
  for (const row of b.raw.prepare('select roi_id, sim from roi_features order by roi_id').iterate() as IterableIterator<{
    roi_id: number;
    sim: Buffer;
  }>) {
    out.set(row.sim, n * SIM_DIMS);
    n++;
  }
  if (n !== SIM_N) throw new Error(`load floor read ${n}`);
  return performance.now() - started;
}

interface SimResult {
  first: number;
  firstRuns: number;
  loadFloor: number;
  scan: number;
  check: number;
  late: number;
  nearest: number;
  api: number;
  userInfo: number;
  queries: number;
  update: number;
}

async function get(s: Server, url: string) {
  const started = performance.now();
  const res = await s.app.inject({ method: 'GET', url, headers: { 'x-token': s.token } });
  const took = performance.now() - started;
  const answer = res.json() as { code: number; data: { items?: unknown[] } };
  if (answer.code !== 1000) throw new Error(`${url}: ${res.body.slice(0, 300)}`);
  return { took, answer };
}

/**
 * What SimilarityIndex runs before every scan to pick up descriptors added by other processes (its readNew:
 * roi_features above the highest id it has read), here with nothing new to find; every 2 s it reads the late window
 * below that id as well. The same query, built by the same function.
 */
async function newDescriptorCheck(b: Bench, late = false) {
  const started = performance.now();
  const read = await descriptorsAfter(b.db.kysely, late ? SIM_N - LATE_WINDOW : SIM_N);
  if (read.scanned !== (late ? LATE_WINDOW : 0)) throw new Error(`the check read ${read.scanned} rows`);
  return performance.now() - started;
}

/** Reads that take seconds get fewer runs: as many as fit in this, at least MIN_QUERIES. */
const QUERY_BUDGET_MS = flags.quick ? 10_000 : 120_000;
const MIN_QUERIES = 5;
/** First queries (each on a fresh server) stop repeating once they have taken this long. */
const LOAD_BUDGET_MS = 120_000;

async function benchSimilar(b: Bench): Promise<SimResult> {
  // Queries spread over the whole team, from the oldest to the newest ROI.
  const spread = QUERIES + WARMUP;
  const ids = Array.from({ length: spread }, (_, i) => 1 + Math.floor(((i * 7919) % spread) * (SIM_N / spread)));
  const firsts: number[] = [];
  const loads: number[] = [];
  let s: Server | null = null;
  const loadStart = performance.now();
  for (let i = 0; i < LOADS && (i === 0 || performance.now() - loadStart < LOAD_BUDGET_MS); i++) {
    // A fresh server each time: its first query loads the team's index.
    if (s) await s.app.close();
    s = await serverOf(b);
    if (i % 2 === 1) loads.push(loadFloor(b));
    const { took, answer } = await get(s, `/api/ai/similar?roi_id=${ids[i]}`);
    if ((answer.data.items ?? []).length !== SIMILAR_LIMIT) throw new Error('similar: a short answer');
    firsts.push(took);
    if (i % 2 === 0) loads.push(loadFloor(b));
    console.log(`  first query ${ms(took)}, load floor ${ms(loads.at(-1)!)}`);
  }
  const server = s!;
  const indexSize = server.app.similarity.size(b.teamId);
  if (indexSize !== SIM_N) throw new Error(`index holds ${indexSize}`);
  const times = {
    scan: [] as number[],
    check: [] as number[],
    late: [] as number[],
    nearest: [] as number[],
    api: [] as number[],
    userInfo: [] as number[],
  };
  const started = performance.now();
  let warmup = WARMUP;
  for (const [i, id] of ids.entries()) {
    const q = b.sims.subarray((id - 1) * SIM_DIMS, id * SIM_DIMS);
    let t = performance.now();
    if (bareScan(b.sims, SIM_N, q) < 0) throw new Error('scan');
    const scan = performance.now() - t;
    const check = await newDescriptorCheck(b);
    const late = await newDescriptorCheck(b, true);
    t = performance.now();
    await server.app.similarity.nearest(b.teamId, q, CANDIDATES, id);
    const nearest = performance.now() - t;
    const api = (await get(server, `/api/ai/similar?roi_id=${id}`)).took;
    const userInfo = (await get(server, '/api/wyrbac/login/user-info')).took;
    // A query of seconds: one warm-up, then as many as fit in the budget.
    if (i === 0 && api > 1000) warmup = 1;
    if (i < warmup) continue;
    times.scan.push(scan);
    times.check.push(check);
    times.late.push(late);
    times.nearest.push(nearest);
    times.api.push(api);
    times.userInfo.push(userInfo);
    if (times.api.length >= QUERIES) break;
    if (times.api.length >= MIN_QUERIES && performance.now() - started > QUERY_BUDGET_MS) break;
  }
  // A descriptor replaced after its features were computed again (re-identification, POST /ai/features): found by
  // id in the index; the newest ROIs are at the end.
  const updates: number[] = [];
  for (let i = 0; i < 20; i++) {
    const id = SIM_N - i;
    const t = performance.now();
    server.app.similarity.update(b.teamId, id, b.sims.subarray((id - 1) * SIM_DIMS, id * SIM_DIMS));
    updates.push(performance.now() - t);
  }
  await server.app.close();
  console.log(`  ${times.api.length} queries: GET /api/ai/similar ${ms(median(times.api))}, bare scan ${ms(median(times.scan))}`);
  return {
    first: median(firsts),
    firstRuns: firsts.length,
    loadFloor: median(loads),
    scan: median(times.scan),
    check: median(times.check),
    late: median(times.late),
    nearest: median(times.nearest),
    api: median(times.api),
    userInfo: median(times.userInfo),
    queries: times.api.length,
    update: median(updates),
  };
}

// ---------------------------------------------------------------------------------------------------------------

console.log(
  `Recognition benchmark: re-identification of ${label(REID_N)} ROIs (${RUNS} runs, median), similarity over ${label(SIM_N)} ` +
    `descriptors (${QUERIES} queries, median), SQLite`,
);
const loadAtStart = os.loadavg()[0]!;
const benchStart = performance.now();
const bench = await prepare();
console.log('- re-identification');
const reid = await benchReid(bench);
console.log('- similarity');
await growTeam(bench);
console.log('  as loaded: no planner statistics (the server runs no ANALYZE on SQLite)');
const simPlain = await benchSimilar(bench);
const analyzeStart = performance.now();
bench.raw.exec('analyze');
console.log(`  after ANALYZE (${secs(analyzeStart)}): planner statistics for every table`);
const simAnalyzed = await benchSimilar(bench);
bench.raw.close();
await bench.db.close();
if (flags.keep) console.log(`  kept ${bench.dir}`);
else fs.rmSync(bench.dir, { recursive: true, force: true });

const elapsedMs = performance.now() - benchStart;
const N = REID_N;
const reidTable = [
  `| re-identification, ${label(N)} ROIs (median of ${RUNS}) | time | per ROI | × floor |`,
  '|---|---|---|---|',
  `| floor: raw better-sqlite3, read the ${label(N)} stored vectors in (time, id) order and write each class, one transaction per ${REID_BATCH} | ${ms(reid.floor)} | ${us(reid.floor, N)} | 1.00× |`,
  `| job: POST /roi/re-identify, then app.jobs.drain() (${N / REID_BATCH} steps of ${REID_BATCH}) | ${ms(reid.job)} | ${us(reid.job, N)} | ${x(reid.job / reid.floor)} |`,
  `| for comparison: predictMany of the ${label(N)} vectors alone, outside the job (team model: ${bench.trees} trees + softmax regression, top 3) | ${ms(reid.predict)} | ${us(reid.predict, N)} | ${x(reid.predict / reid.floor)} |`,
  `| submitting: POST /roi/re-identify (counts the ROIs, queues the job) | ${ms(reid.submit)} | — | — |`,
].join('\n');

const p = reid.profile;
const sqlMs = [...p.statements.values()].reduce((a, e) => a + e.ms, 0);
const sqlN = [...p.statements.values()].reduce((a, e) => a + e.n, 0);
const rest = p.totalMs - p.predictMs - sqlMs;
const profileRows = [...p.statements]
  .sort((a, b) => b[1].ms - a[1].ms)
  .map(([key, e]) => `| SQL: ${key} | ${e.n.toLocaleString('en')} | ${ms(e.ms)} | ${us(e.ms, N)} | ${pct(e.ms, p.totalMs)} |`);
const profileTable = [
  `| where one job's time goes (one instrumented run) | calls | time | per ROI | share |`,
  '|---|---|---|---|---|',
  `| whole job (app.jobs.drain()) | — | ${ms(p.totalMs)} | ${us(p.totalMs, N)} | 100% |`,
  `| classification: TeamModel.predictMany | ${p.predictCalls} | ${ms(p.predictMs)} | ${us(p.predictMs, N)} | ${pct(p.predictMs, p.totalMs)} |`,
  `| SQL statements, all (compile, run, read the result) | ${sqlN.toLocaleString('en')} | ${ms(sqlMs)} | ${us(sqlMs, N)} | ${pct(sqlMs, p.totalMs)} |`,
  ...profileRows,
  `| the rest: JavaScript around them, transactions' begin and commit (WAL sync) | — | ${ms(rest)} | ${us(rest, N)} | ${pct(rest, p.totalMs)} |`,
].join('\n');

const S = label(SIM_N);
const simRow = (name: string, of: (r: SimResult) => number, floor: (r: SimResult) => number, floorName = 'floor') =>
  `| ${name} | ${[simPlain, simAnalyzed].map((r) => `${ms(of(r))} | ${x(of(r) / floor(r))} ${floorName}`).join(' | ')} |`;
const scanFloor = (r: SimResult) => r.scan;
const loadFloorOf = (r: SimResult) => r.loadFloor;
const simTable = [
  `| similarity, ${S} descriptors (median) | as loaded, no planner statistics (${simPlain.queries} queries) | × floor | after ANALYZE (${simAnalyzed.queries} queries) | × floor |`,
  '|---|---|---|---|---|',
  simRow(`floor: bare scan, ${S} × ${SIM_DIMS} int8 squared distances in one loop`, (r) => r.scan, scanFloor),
  simRow("the index's check for new descriptors (readNew's query, before every scan)", (r) => r.check, scanFloor),
  simRow(`the same, reading the late window of ${LATE_WINDOW} ids again (at most every 2 s per team)`, (r) => r.late, scanFloor),
  simRow(`SimilarityIndex.nearest (${CANDIDATES} candidates; check + scan)`, (r) => r.nearest, scanFloor),
  simRow(`GET /api/ai/similar (limit ${SIMILAR_LIMIT})`, (r) => r.api, scanFloor),
  simRow('for scale: GET /wyrbac/login/user-info', (r) => r.userInfo, scanFloor),
  simRow('SimilarityIndex.update of one descriptor (found by id; the newest ROIs)', (r) => r.update, scanFloor),
  simRow(
    `load floor: raw better-sqlite3, read the ${S} stored descriptors into one array`,
    (r) => r.loadFloor,
    loadFloorOf,
    'load floor',
  ),
  simRow(
    `first GET /api/ai/similar of a fresh server: loads the team's index (${simPlain.firstRuns} / ${simAnalyzed.firstRuns} runs)`,
    (r) => r.first,
    loadFloorOf,
    'load floor',
  ),
].join('\n');

const header =
  `${new Date(Date.now()).toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}, SQLite; ` +
  `whole run ${(elapsedMs / 60_000).toFixed(1)} min, load average ${loadAtStart.toFixed(1)} at its start and ${os.loadavg()[0]!.toFixed(1)} at its end; ` +
  `model: the team model (${bench.trees} trees + softmax regression), ${new Set(bench.classOf).size} classes, trained on the features of ${bench.samples.length} PWSSC images in ${(bench.trainMs / 1000).toFixed(1)} s. ` +
  `Re-identification of ${N.toLocaleString('en')} ROIs: ${ms(reid.job)} (${us(reid.job, N)} per ROI), ${reid.job / 1000 <= TARGET_S ? 'within' : 'over'} the target of ${TARGET_S} s; ` +
  `${reid.changed.toLocaleString('en')} ROIs changed class, ${reid.review.toLocaleString('en')} sent to review. ` +
  `Similar images over ${S}: ${ms(simPlain.api)} per query as loaded, ${simPlain.api < INSTANT_MS ? 'under' : 'over'} ${INSTANT_MS} ms ` +
  `(${ms(simAnalyzed.api)} after ANALYZE); the first query of a server ${ms(simPlain.first)} (${ms(simAnalyzed.first)}).`;
console.log(`\n${header}\n\n${reidTable}\n\n${profileTable}\n\n${simTable}\n`);

if (flags.write) {
  const file = path.join(here, '../../docs/benchmarks.md');
  const text = fs.readFileSync(file, 'utf8');
  const section = [
    '<!-- recognition:start -->',
    header,
    '',
    reidTable,
    '',
    profileTable,
    '',
    simTable,
    '<!-- recognition:end -->',
  ].join('\n');
  const updated = text.includes('<!-- recognition:start -->')
    ? text.replace(/<!-- recognition:start -->[\s\S]*<!-- recognition:end -->/, section)
    : `${text.trimEnd()}\n\n## Recognition\n\n${section}\n`;
  fs.writeFileSync(file, updated);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}

// The other recognition benchmark, when it is there: feature extraction per image against a bare sharp decode
// (bench/src/features.ts), in its own process, with --quick passed on.
const featuresBench = path.join(here, 'features.ts');
if (!flags['skip-features'] && fs.existsSync(featuresBench)) {
  console.log('\n- feature extraction (bench/src/features.ts)');
  const args = [...(flags.quick ? ['--quick'] : []), ...(flags.images ? ['--dir', IMAGES] : [])];
  const child = spawnSync(process.execPath, ['--import', 'tsx', featuresBench, ...args], { stdio: 'inherit' });
  if (child.status !== 0) process.exitCode = child.status ?? 1;
}
