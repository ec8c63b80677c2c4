import type { Job, ModelList, ModelReport, RoiInsight, Similar, Thresholds, TreeNode } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, roiMultipart, telemetry, uploadRoi } from './helpers/device.ts';
import { shapePng, type Shape } from './helpers/shapes.ts';
import { JobLost, JobRunner, LEASE_MS } from '../src/modules/recognition/job-runner.ts';
import { ReidentifyJob } from '../src/modules/recognition/reidentify-job.ts';
import { FeaturePool } from '../src/modules/recognition/feature-pool.ts';
import { ModelStore } from '../src/modules/recognition/model-store.ts';
import { SimilarityIndex } from '../src/modules/recognition/similarity.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { mulberry32 } from '../src/lib/random.ts';
import { BACKBONE_VERSION } from '../src/modules/recognition/vector.ts';

const MIN = 60_000;
type Token = string | undefined;
const SHAPES: Shape[] = ['disc', 'rod', 'ring'];

describe.each(dialects)('AI recognition on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: { id: number; key: string };
  let b1: { id: number; key: string };
  /** Class id of each shape (system classes 001, 002, 003). */
  let classOf: Record<Shape, number>;
  let labelOf: Record<Shape, number>;
  let seed = 1000;

  const now = () => env.clock.now;
  const okData = async <T>(token: Token, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const res = body(await call(env, token, method, url, payload));
    if (res.code !== 1000) throw new Error(`${method} ${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };
  const fail = async (token: Token, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
    body(await call(env, token, method, url, payload, lang)) as { code: number; msg: string };
  /** An ROI of a shape: human-labelled (hi) in its class, or arriving with a device label index (0 = none). */
  const ingest = async (
    ippId: number,
    shape: Shape,
    opts: { hi?: boolean; label?: number; at?: number; confidence?: number } = {},
  ) =>
    (
      await env.app.rois.ingest({
        ippId,
        capturedAt: opts.at ?? now() - 30 * MIN,
        labelIndex: opts.label ?? 0,
        confidence: opts.confidence ?? null,
        sizePx: 100,
        data: await shapePng(shape, ++seed),
        hiClassId: opts.hi ? classOf[shape] : undefined,
      })
    ).roiId;
  const roiRow = (id: number) => env.db.kysely.selectFrom('rois').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Trains team A from 10 human-labelled ROIs of each shape and answers the model list. */
  const trainTeamA = async () => {
    for (const shape of SHAPES) for (let i = 0; i < 10; i++) await ingest(a1.id, shape, { hi: true });
    const started = await okData<{ job_id: number; model_id: number }>(w.tokens.ownAdmin, 'POST', '/api/ai/models/train', {});
    await env.app.jobs.drain();
    const job = await okData<Job>(w.tokens.ownAdmin, 'GET', `/api/ai/job?job_id=${started.job_id}`);
    expect(job.status, job.error ?? '').toBe('done');
    return okData<ModelList>(w.tokens.ownAdmin, 'GET', '/api/ai/models');
  };
  /** roi_class_counts agree with the rois table (what every bulk change must keep). */
  const countsAgree = async () => {
    const kept = await env.db.kysely
      .selectFrom('roi_class_counts')
      .select(['ipp_id', 'kind', 'class_key', 'n'])
      .where('n', '>', 0)
      .execute();
    const actual = await env.db.kysely
      .selectFrom('rois')
      .select(['ipp_id', 'hi', 'roi_labelindex', 'class_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('deleted_at', 'is', null)
      .groupBy(['ipp_id', 'hi', 'roi_labelindex', 'class_id'])
      .execute();
    const want = new Map<string, number>();
    for (const r of actual) {
      const key = `${r.ipp_id}:${r.hi === 1 ? 2 : r.roi_labelindex === 0 ? 0 : 1}:${r.class_id ?? 0}`;
      want.set(key, (want.get(key) ?? 0) + Number(r.n));
    }
    expect(new Map(kept.map((k) => [`${k.ipp_id}:${k.kind}:${k.class_key}`, Number(k.n)]))).toEqual(want);
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    const classes = await env.db.kysely
      .selectFrom('classes')
      .select(['id', 'label_index'])
      .where('label_index', 'in', [1, 2, 3])
      .orderBy('label_index')
      .execute();
    classOf = { disc: classes[0]!.id, rod: classes[1]!.id, ring: classes[2]!.id };
    labelOf = { disc: 1, rod: 2, ring: 3 };
  });
  afterEach(() => env.close());

  it('measures every ROI at ingest and on demand, with morphology in the detail call', async () => {
    const res = body(
      await uploadRoi(env, a1.key, { captured_at: now() - MIN, label_index: 0, size_px: 100 }, await shapePng('disc', 1)),
    );
    expect(res.code).toBe(1000);
    const roiId = (res.data as { roi_id: number }).roi_id;
    const insight = await okData<RoiInsight>(w.tokens.user, 'GET', `/api/ai/roi?roi_id=${roiId}`);
    expect(insight.ai).toBeNull(); // no model yet
    expect(insight.measures!.area_px).toBeGreaterThan(100);
    expect(insight.measures!.circularity).toBeGreaterThan(0.8);
    const computed = await okData<{ names: string[]; items: { roi_id: number; values: number[] }[] }>(
      w.tokens.user,
      'POST',
      '/api/python/feature',
      { roi_ids: [roiId] },
    );
    expect(computed.items[0]!.values.length).toBe(computed.names.length);
    expect(computed.items[0]!.values.every(Number.isFinite)).toBe(true);
    // Another team's ROI answers like a missing one.
    expect((await fail(w.tokens.otherAdmin, 'GET', `/api/ai/roi?roi_id=${roiId}`)).code).toBe(1002);
    expect((await fail(w.tokens.otherAdmin, 'POST', '/api/python/feature', { roi_id: roiId })).code).toBe(1002);
    expect((await fail(w.tokens.user, 'POST', '/api/python/feature', {})).code).toBe(1002);
  });

  it('trains a team model from human labels, then labels arriving ROIs with confidence and top classes', async () => {
    expect((await fail(w.tokens.user, 'POST', '/api/ai/models/train', {})).code).toBe(1011);
    const list = await trainTeamA();
    expect(list.items).toHaveLength(1);
    const model = list.items[0]!;
    expect([model.status, model.active, model.version, model.train_size, model.classes]).toEqual(['ready', true, 1, 30, 3]);
    expect(model.cv_accuracy).toBeGreaterThanOrEqual(0.9);
    expect(list.active_id).toBe(model.id);
    // Team B sees no model of team A.
    expect((await okData<ModelList>(w.tokens.otherAdmin, 'GET', '/api/ai/models')).items).toEqual([]);
    expect((await fail(w.tokens.otherAdmin, 'POST', '/api/ai/models/activate', { model_id: model.id })).code).toBe(1002);

    // Its evaluation, readable in the console: per class, and the confusions (drawn shapes: few or none).
    const report = await okData<ModelReport>(w.tokens.ownAdmin, 'GET', `/api/ai/model/report?model_id=${model.id}`);
    expect([report.model_id, report.version, report.folds, report.n, report.accuracy]).toEqual([
      model.id,
      1,
      5,
      30,
      model.cv_accuracy,
    ]);
    // Calibration error of the cross-validated confidences, and the backbone's held-out card (issue 38).
    expect(report.ece).toBeGreaterThanOrEqual(0);
    expect(report.ece).toBeLessThan(0.5);
    expect(report.backbone?.version).toBe(BACKBONE_VERSION);
    expect(report.backbone?.natural_images).toBeGreaterThan(0);
    expect(report.classes.map((c) => [c.class_name, c.support]).sort()).toEqual([
      ['001Copepod', 10],
      ['002Diatom_chain', 10],
      ['003Dinoflagellate', 10],
    ]);
    const errors = report.confusions.reduce((n, c) => n + c.count, 0);
    expect(errors).toBe(Math.round(30 * (1 - model.cv_accuracy!)));
    for (const c of report.classes) expect(c.recall).toBeGreaterThanOrEqual(0.7);
    expect((await fail(w.tokens.otherAdmin, 'GET', `/api/ai/model/report?model_id=${model.id}`)).code).toBe(1002);
    expect((await fail(w.tokens.user, 'GET', `/api/ai/model/report?model_id=${model.id}`)).code).toBe(1011);
    const missing = await fail(w.tokens.ownAdmin, 'GET', '/api/ai/model/report?model_id=999999', undefined, 'zh');
    expect([missing.code, missing.msg]).toEqual([1002, '模型不存在']);

    for (const shape of SHAPES) {
      const id = await ingest(a1.id, shape);
      const row = await roiRow(id);
      expect([row.class_id, row.roi_labelindex, row.hi]).toEqual([classOf[shape], labelOf[shape], 0]);
      const insight = await okData<RoiInsight>(w.tokens.user, 'GET', `/api/ai/roi?roi_id=${id}`);
      expect(insight.ai!.class_id).toBe(classOf[shape]);
      expect(insight.ai!.top[0]!.class_id).toBe(classOf[shape]);
      expect(insight.ai!.top.length).toBeGreaterThan(1);
      expect(insight.ai!.model_version).toBe(1);
    }
    // A station of team B has no model: its unlabelled ROI stays unidentified.
    const bRow = await roiRow(await ingest(b1.id, 'disc'));
    expect([bRow.class_id, bRow.roi_labelindex]).toEqual([null, 0]);
    // A device label is the instrument's: kept.
    const labelled = await roiRow(await ingest(a1.id, 'disc', { label: 3 }));
    expect(labelled.roi_labelindex).toBe(3);
    await countsAgree();
  });

  it('sends labels below the confidence threshold to the review queue', async () => {
    await trainTeamA();
    const saved = await okData<Thresholds>(w.tokens.ownAdmin, 'POST', '/api/ai/thresholds', {
      default: 0.2,
      // A class's own threshold replaces its automatic one: every disc to review, no rod.
      items: [
        { class_id: classOf.disc, threshold: 1 },
        { class_id: classOf.rod, threshold: 0 },
      ],
    });
    expect(saved.default).toBe(0.2);
    expect(saved.items.map((i) => [i.class_id, i.threshold]).sort()).toEqual(
      [
        [classOf.disc, 1],
        [classOf.rod, 0],
      ].sort(),
    );
    const disc = await roiRow(await ingest(a1.id, 'disc'));
    const rod = await roiRow(await ingest(a1.id, 'rod'));
    expect([disc.review_status, rod.review_status]).toEqual([1, 0]);
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/ai/thresholds', { default: 2 })).code).toBe(1002);
    expect(
      (await fail(w.tokens.ownAdmin, 'POST', '/api/ai/thresholds', { items: [{ class_id: 999999, threshold: 0.5 }] })).code,
    ).toBe(1002);
    expect((await fail(w.tokens.user, 'GET', '/api/ai/thresholds')).code).toBe(1011);
  });

  it('a calibrated model answers auto-accept thresholds per class for the team target precision', async () => {
    await trainTeamA();
    const t = await okData<Thresholds>(w.tokens.ownAdmin, 'GET', '/api/ai/thresholds');
    expect([t.calibrated, t.target_precision]).toEqual([true, 0.95]);
    expect(t.auto.map((a) => a.class_id).sort()).toEqual(Object.values(classOf).sort());
    for (const a of t.auto) {
      // Drawn shapes are told apart in every fold: the target is reached, and every label of the class accepted.
      expect(a.threshold).not.toBeNull();
      expect([a.precision, a.coverage, a.predicted]).toEqual([1, 1, 10]);
    }
    const saved = await okData<Thresholds>(w.tokens.ownAdmin, 'POST', '/api/ai/thresholds', { target_precision: 0.99 });
    expect(saved.target_precision).toBe(0.99);
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/ai/thresholds', { target_precision: 0.3 })).code).toBe(1002);
    // Labels at or above their class's automatic threshold are the machine's; the ROI waits for no review.
    const id = await ingest(a1.id, 'ring');
    const insight = await okData<RoiInsight>(w.tokens.user, 'GET', `/api/ai/roi?roi_id=${id}`);
    const auto = saved.auto.find((a) => a.class_id === classOf.ring)!;
    expect((await roiRow(id)).review_status).toBe(insight.ai!.confidence >= auto.threshold! ? 0 : 1);
    expect(insight.ai!.confidence).toBeLessThan(1);
  });

  it('counts a station per class with the model-labelled part corrected for the model’s confusions', async () => {
    const list = await trainTeamA();
    const modelId = list.items[0]!.id;
    for (const shape of SHAPES) await ingest(a1.id, shape); // model-labelled
    await ingest(a1.id, 'disc', { label: labelOf.ring }); // the instrument's label: not corrected
    const range = `dev_id=A1&start=${now() - 60 * MIN}&end=${now()}`;
    // 3,500 L of water in the range: concentrations of a few thousandths of an individual per litre.
    await telemetry(env, a1.key, { at: now() - 50 * MIN, volume_total_l: 100 });
    await telemetry(env, a1.key, { at: now() - MIN, volume_total_l: 3600 });
    type Counts = {
      volume_l: number;
      items: {
        class_id: number | null;
        human: number;
        model_raw: number;
        model_corrected: number;
        other: number;
        raw: number;
        corrected: number;
        low: number;
        high: number;
        concentration_raw: number | null;
      }[];
      uncorrectable: number;
    };
    const plain = await okData<Counts>(w.tokens.user, 'GET', `/api/ai/corrected-counts?${range}`);
    const of = (c: Counts, shape: Shape) => c.items.find((i) => i.class_id === classOf[shape])!;
    // The model separated the shapes perfectly in its cross-validation: nothing to correct.
    expect([of(plain, 'disc').human, of(plain, 'disc').model_raw, of(plain, 'disc').model_corrected]).toEqual([10, 1, 1]);
    expect([of(plain, 'ring').other, of(plain, 'ring').raw]).toEqual([1, 12]);
    // Per litre in 3 significant figures, not 2 decimals (issue 38: "0.01 (0.01–0.01)").
    expect(plain.volume_l).toBeGreaterThan(1000);
    const ring = of(plain, 'ring').concentration_raw!;
    expect(ring).toBe(Number((12 / plain.volume_l).toPrecision(3)));
    expect(ring).toBeLessThan(0.01);
    expect(ring).not.toBe(Math.round(ring * 100) / 100);
    expect(plain.uncorrectable).toBe(0);
    // A model known to call half the rods discs: its one disc and one rod are corrected to no disc and two rods.
    const report = JSON.parse(
      (await env.db.kysely.selectFrom('ai_models').select('report').where('id', '=', modelId).executeTakeFirstOrThrow()).report!,
    );
    const cls = report.matrix.classes as number[];
    const at = (s: Shape) => cls.indexOf(classOf[s]);
    const counts = cls.map(() => cls.map(() => 0));
    counts[at('disc')]![at('disc')] = 100;
    counts[at('rod')]![at('rod')] = 50;
    counts[at('rod')]![at('disc')] = 50;
    counts[at('ring')]![at('ring')] = 100;
    report.matrix.counts = counts;
    await env.db.kysely
      .updateTable('ai_models')
      .set({ report: JSON.stringify(report) })
      .where('id', '=', modelId)
      .execute();
    const corrected = await okData<Counts>(w.tokens.user, 'GET', `/api/ai/corrected-counts?${range}`);
    expect(of(corrected, 'disc').model_raw).toBe(1);
    expect(of(corrected, 'disc').model_corrected).toBeCloseTo(0, 1);
    expect(of(corrected, 'rod').model_corrected).toBeCloseTo(2, 1);
    expect(of(corrected, 'rod').corrected).toBeCloseTo(12, 1);
    expect(of(corrected, 'rod').low).toBeLessThanOrEqual(of(corrected, 'rod').corrected);
    expect(of(corrected, 'rod').high).toBeGreaterThanOrEqual(of(corrected, 'rod').corrected);
    // Another team's station is unknown; an empty range is refused in the caller's language.
    expect((await fail(w.tokens.otherAdmin, 'GET', `/api/ai/corrected-counts?${range}`)).code).toBe(1002);
    const empty = await fail(
      w.tokens.user,
      'GET',
      `/api/ai/corrected-counts?dev_id=A1&start=${now()}&end=${now()}`,
      undefined,
      'zh',
    );
    expect([empty.code, empty.msg]).toEqual([1002, '结束时间必须晚于开始时间']);
  });

  it('re-identifies a station over a time range in batches, moving labels and counts', async () => {
    // Rods the instrument called discs (label 1), and discs it did not label.
    const wrong: number[] = [];
    for (let i = 0; i < 6; i++) wrong.push(await ingest(a1.id, 'rod', { label: labelOf.disc, at: now() - (50 - i) * MIN }));
    const unlabelled = await ingest(a1.id, 'disc', { at: now() - 40 * MIN });
    const old = await ingest(a1.id, 'rod', { label: labelOf.disc, at: now() - 3 * 24 * 60 * MIN });
    await trainTeamA();
    const job = await okData<{ job_id: number; rois: number }>(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', {
      dev_id: 'A1',
      Roi_time_s: '-24 hour',
      class_id: classOf.disc,
    });
    expect(job.rois).toBe(6);
    const queued = await okData<Job>(w.tokens.user, 'GET', `/api/ai/job?job_id=${job.job_id}`);
    expect([queued.status, queued.kind, queued.dev_id, queued.total, queued.done]).toEqual(['queued', 'reidentify', 'A1', 6, 0]);
    await env.app.jobs.drain();
    const finished = await okData<Job>(w.tokens.user, 'GET', `/api/ai/job?job_id=${job.job_id}`);
    expect([finished.status, finished.done, finished.total, finished.changed]).toEqual(['done', 6, 6, 6]);
    for (const id of wrong) expect((await roiRow(id)).class_id).toBe(classOf.rod);
    // Outside the class filter or the range: untouched.
    expect((await roiRow(unlabelled)).class_id).toBeNull(); // arrived before any model: unidentified, not in the filter
    expect((await roiRow(old)).class_id).toBe(classOf.disc);
    await countsAgree();
    const tree = await okData<TreeNode[]>(w.tokens.ownAdmin, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${a1.id}`);
    expect(JSON.stringify(tree)).toContain(`c:${classOf.rod}"`);
    // Another team cannot see or cancel it.
    expect((await fail(w.tokens.otherAdmin, 'GET', `/api/ai/job?job_id=${job.job_id}`)).code).toBe(1002);
    expect((await okData<{ items: Job[] }>(w.tokens.otherAdmin, 'GET', '/api/ai/jobs')).items).toEqual([]);
  });

  it('a re-identification gives every ROI it scores the model’s confidence; list, ROI and AI label agree', async () => {
    // The instrument labelled these right (rod as rod), with its own scores: the model keeps the class.
    const kept: number[] = [];
    for (let i = 0; i < 4; i++) {
      kept.push(await ingest(a1.id, 'rod', { label: labelOf.rod, confidence: 0.123 + i / 100, at: now() - (20 - i) * MIN }));
    }
    const moved = await ingest(a1.id, 'ring', { label: labelOf.disc, confidence: 0.777, at: now() - 10 * MIN });
    await trainTeamA();
    const job = await okData<{ job_id: number }>(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', {
      dev_id: 'A1',
      Roi_time_s: '-24 hour',
    });
    await env.app.jobs.drain();
    expect((await okData<Job>(w.tokens.user, 'GET', `/api/ai/job?job_id=${job.job_id}`)).status).toBe('done');
    const page = await okData<{ items: { id: number; class_id: number | null; confidence: number | null }[] }>(
      w.tokens.user,
      'GET',
      `/api/roi/index?category_id=-100&ipp_id=${a1.id}&limit=1000`,
    );
    for (const id of [...kept, moved]) {
      const insight = await okData<RoiInsight>(w.tokens.user, 'GET', `/api/ai/roi?roi_id=${id}`);
      const row = await roiRow(id);
      const listed = page.items.find((r) => r.id === id)!;
      expect(insight.ai, `ROI ${id}`).not.toBeNull();
      // One current label: the class and the confidence the model gave, wherever they are read.
      expect([row.class_id, listed.class_id]).toEqual([insight.ai!.class_id, insight.ai!.class_id]);
      expect(row.confidence).toBeCloseTo(insight.ai!.confidence, 6);
      expect(listed.confidence).toBeCloseTo(insight.ai!.confidence, 6);
      expect(row.confidence).not.toBeCloseTo(id === moved ? 0.777 : 0.123, 2);
    }
    expect((await roiRow(moved)).class_id).toBe(classOf.ring);
  });

  it('an image validated or labelled by hand leaves the review queue; a dubious verdict stays', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await ingest(a1.id, 'disc', { label: labelOf.disc, confidence: 0.3 }));
    await env.db.kysely.updateTable('rois').set({ review_status: 1 }).where('id', 'in', ids).execute();
    await env.db.kysely.updateTable('rois').set({ review_status: 3 }).where('id', '=', ids[2]!).execute();
    await okData(w.tokens.user, 'POST', '/api/roi/save-move', { type: '81', category_id: -100, roi_ids: [ids[0]] });
    await okData(w.tokens.user, 'POST', '/api/roi/save-move', {
      type: '82',
      category_id: -100,
      roi_ids: [ids[1], ids[2]],
      target_id: classOf.rod,
    });
    const rows = await Promise.all(ids.map(roiRow));
    expect(rows.map((r) => [r.hi, r.review_status])).toEqual([
      [1, 2],
      [1, 2],
      [1, 3],
    ]);
    expect(rows[0]!.reviewed_at).toBe(now());
    const queue = await okData<{ items: { id: number }[] }>(
      w.tokens.ownAdmin,
      'GET',
      `/api/roi/index?category_id=-7&reviewed_type=0&limit=100`,
    );
    expect(queue.items.map((r) => r.id)).not.toContain(ids[0]);
    expect(queue.items.map((r) => r.id)).not.toContain(ids[1]);
  });

  it('two people validating the same waiting images at once: each leaves the queue once, one label event each', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await ingest(a1.id, 'disc', { label: labelOf.disc, confidence: 0.3 }));
    await env.db.kysely.updateTable('rois').set({ review_status: 1 }).where('id', 'in', ids).execute();
    const validate = (token: Token) =>
      call(env, token, 'POST', '/api/roi/save-move', { type: '81', category_id: -100, roi_ids: ids });
    const answers = (await Promise.all([validate(w.tokens.user), validate(w.tokens.ownAdmin)])).map(
      (r) => body(r) as { code: number; data: { affected: number } },
    );
    expect(answers.map((a) => a.code)).toEqual([1000, 1000]);
    // Between them the four images were validated exactly once.
    expect(answers.reduce((n, a) => n + a.data.affected, 0)).toBe(4);
    const rows = await Promise.all(ids.map(roiRow));
    expect(rows.map((r) => [r.hi, r.review_status])).toEqual(ids.map(() => [1, 2]));
    const events = await env.db.kysely.selectFrom('roi_label_events').select('roi_id').where('roi_id', 'in', ids).execute();
    expect(events).toHaveLength(4);
    await countsAgree();
  });

  it('resumes a re-identification whose worker died mid-way, labelling every ROI once', async () => {
    for (let i = 0; i < 12; i++) await ingest(a1.id, i % 2 ? 'rod' : 'ring', { label: labelOf.disc, at: now() - (50 - i) * MIN });
    await trainTeamA();
    const job = await okData<{ job_id: number; rois: number }>(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', {
      dev_id: 'A1',
      Roi_time_s: '-24 hour',
    });
    const models = new ModelStore(env.db);
    const similarity = new SimilarityIndex(env.db);
    const real = new ReidentifyJob(
      env.db,
      env.clock.read,
      env.app.rois,
      env.app.rois.blobs,
      models,
      similarity,
      new FeaturePool(0),
      5,
    );
    let steps = 0;
    // The first worker commits one batch of 5, then dies inside its second step (that step rolls back).
    const dying = new JobRunner(env.db, env.clock.read, {
      reidentify: (row, ctx) =>
        real.run(row, {
          ...ctx,
          step: async (trx, change) => {
            if (++steps === 2) throw new JobLost();
            await ctx.step(trx, change);
          },
        }),
    });
    expect(await dying.runOnce()).toBe(true);
    const half = await okData<Job>(w.tokens.ownAdmin, 'GET', `/api/ai/job?job_id=${job.job_id}`);
    expect([half.status, half.done]).toEqual(['running', 5]);
    // Nobody else takes it while the lease holds; after it runs out, another worker resumes.
    const second = new JobRunner(env.db, env.clock.read, { reidentify: real.run });
    expect(await second.runOnce()).toBe(false);
    env.clock.advance(LEASE_MS + 1);
    expect(await second.runOnce()).toBe(true);
    const finished = await okData<Job>(w.tokens.ownAdmin, 'GET', `/api/ai/job?job_id=${job.job_id}`);
    expect([finished.status, finished.done, finished.total]).toEqual(['done', 12, 12]);
    const labels = await env.db.kysely.selectFrom('ai_labels').select(['roi_id']).execute();
    expect(labels.length).toBe(12);
    await countsAgree();
    // The dead worker cannot write over the new owner.
    await expect(
      env.db.kysely.transaction().execute(async (trx) => {
        const { step } = await import('../src/modules/recognition/jobs.repository.ts');
        return step(trx, job.job_id, dying.owner, { done: 1, lease_until: now(), updated_at: now() });
      }),
    ).resolves.toBe(false);
  });

  // SQLite is one embedded process's database (two handles in one Node process would block each other's event loop).
  it.skipIf(dialect !== 'postgres')(
    'shares the job queue between two server processes: each job runs once, both take work',
    async () => {
      // A second process: its own database handle on the same PostgreSQL database.
      const other = openDatabase({ dataDir: env.config.DATA_DIR, databaseUrl: env.db.pg!.connectionString });
      try {
        const t = now();
        const ids: number[] = [];
        for (let i = 0; i < 8; i++) {
          const row = await env.db.kysely
            .insertInto('jobs')
            .values({
              kind: 'reidentify',
              group_id: w.teamA,
              user_id: null,
              ipp_id: null,
              class_id: null,
              start_at: null,
              end_at: null,
              model_id: null,
              status: 'queued',
              cursor_time: null,
              cursor_id: null,
              lease_owner: null,
              lease_until: null,
              error: null,
              created_at: t,
              updated_at: t,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(row.id);
        }
        const ran: { job: number; worker: string }[] = [];
        const handler =
          (worker: string, db: Db) =>
          async (job: { id: number }, ctx: Parameters<ConstructorParameters<typeof JobRunner>[2][string]>[1]) => {
            ran.push({ job: job.id, worker });
            // Long enough for the other process to claim meanwhile.
            await new Promise((resolve) => setTimeout(resolve, 40));
            await db.kysely.transaction().execute((trx) => ctx.step(trx, { done: 1, total: 1 }));
          };
        const first = new JobRunner(env.db, env.clock.read, { reidentify: handler('first', env.db) });
        const second = new JobRunner(other, env.clock.read, { reidentify: handler('second', other) });
        const drain = async (runner: JobRunner) => {
          while (await runner.runOnce());
        };
        await Promise.all([drain(first), drain(second)]);
        expect(ran.map((r) => r.job).sort((a, b) => a - b)).toEqual(ids);
        expect(new Set(ran.map((r) => r.worker))).toEqual(new Set(['first', 'second']));
        const rows = await env.db.kysely
          .selectFrom('jobs')
          .select(['status', 'attempts', 'done', 'error'])
          .where('id', 'in', ids)
          .execute();
        expect(rows.map((r) => [r.status, Number(r.attempts), Number(r.done), r.error])).toEqual(
          ids.map(() => ['done', 1, 1, null]),
        );
      } finally {
        await other.close();
      }
    },
  );

  it('cancels a queued job: nothing is relabelled', async () => {
    for (let i = 0; i < 3; i++) await ingest(a1.id, 'rod', { label: labelOf.disc, at: now() - (50 - i) * MIN });
    await trainTeamA();
    const job = await okData<{ job_id: number }>(w.tokens.ownAdmin, 'POST', '/api/roi/re-identify', {
      dev_id: 'A1',
      Roi_time_s: '-24 hour',
      class_id: classOf.disc,
    });
    expect((await fail(w.tokens.user, 'POST', '/api/ai/jobs/cancel', { job_id: job.job_id })).code).toBe(1011);
    const cancelled = await okData<Job>(w.tokens.ownAdmin, 'POST', '/api/ai/jobs/cancel', { job_id: job.job_id });
    expect(cancelled.status).toBe('cancelled');
    await env.app.jobs.drain();
    expect((await okData<Job>(w.tokens.ownAdmin, 'GET', `/api/ai/job?job_id=${job.job_id}`)).done).toBe(0);
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/ai/jobs/cancel', { job_id: job.job_id })).msg).toBe(
      'The job has already ended and cannot be cancelled',
    );
  });

  it('fails a training job clearly when there is not enough human-labelled data', async () => {
    await ingest(a1.id, 'disc', { hi: true });
    const started = await okData<{ job_id: number; model_id: number }>(w.tokens.ownAdmin, 'POST', '/api/ai/models/train', {});
    expect((await fail(w.tokens.ownAdmin, 'POST', '/api/ai/models/train', {})).msg).toBe(
      'A training job is already running for this team',
    );
    await env.app.jobs.drain();
    const job = await okData<Job>(w.tokens.ownAdmin, 'GET', `/api/ai/job?job_id=${started.job_id}`);
    expect([job.status, job.error]).toEqual(['failed', 'notEnoughData']);
    const list = await okData<ModelList>(w.tokens.ownAdmin, 'GET', '/api/ai/models');
    expect([list.items[0]!.status, list.active_id]).toEqual(['failed', null]);
  });

  it('finds more like this within the team, and the reference class of an ROI', async () => {
    const discs: number[] = [];
    for (let i = 0; i < 8; i++) discs.push(await ingest(a1.id, 'disc'));
    for (let i = 0; i < 8; i++) await ingest(a1.id, 'rod');
    for (let i = 0; i < 8; i++) await ingest(a1.id, 'ring');
    for (let i = 0; i < 8; i++) await ingest(b1.id, 'disc');
    const similar = await okData<Similar>(w.tokens.user, 'GET', `/api/ai/similar?roi_id=${discs[0]}&limit=7`);
    expect(similar.items.map((i) => i.id).sort()).toEqual(discs.slice(1).sort());
    expect(similar.items.every((i, k) => k === 0 || i.distance >= similar.items[k - 1]!.distance)).toBe(true);
    // A new disc joins the index at once.
    const late = await ingest(a1.id, 'disc');
    const again = await okData<Similar>(w.tokens.user, 'GET', `/api/ai/similar?roi_id=${discs[0]}&limit=8`);
    expect(again.items.map((i) => i.id)).toContain(late);
    expect((await fail(w.tokens.otherAdmin, 'GET', `/api/ai/similar?roi_id=${discs[0]}`)).code).toBe(1002);

    // Reference classes: a team library class of rods and one of discs.
    const folder = async (title: string) =>
      (await okData<{ roi_index_id: number }>(w.tokens.ownAdmin, 'POST', '/api/roi-index/save', { title, category_id: -2 }))
        .roi_index_id;
    const rodsId = await folder('002Rods');
    const discsId = await folder('001Discs');
    const rods = (await env.db.kysely.selectFrom('rois').select('id').where('ipp_id', '=', a1.id).execute())
      .map((r) => r.id)
      .slice(8, 16);
    expect(
      (await okData<{ affected: number }>(w.tokens.ownAdmin, 'POST', '/folders/add', { roi_index_id: rodsId, roi_ids: rods }))
        .affected,
    ).toBe(8);
    await okData(w.tokens.ownAdmin, 'POST', '/folders/add', { roi_index_id: discsId, roi_ids: discs.slice(1) });
    expect((await fail(w.tokens.user, 'POST', '/folders/add', { roi_index_id: rodsId, roi_ids: rods })).code).toBe(1011);
    const answer = await okData<{ classes: { class_id: number; votes: number }[] }>(w.tokens.user, 'POST', '/folders/query', {
      roi_id: discs[0],
      k: 5,
    });
    expect(answer.classes[0]!.class_id).toBe(classOf.disc);
    expect(
      (await okData<{ affected: number }>(w.tokens.ownAdmin, 'POST', '/folders/delete', { roi_index_id: rodsId, roi_ids: rods }))
        .affected,
    ).toBe(8);
  });

  it("keeps another process's similarity index exact: a late commit below the highest id is found, nearest is exact", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await ingest(a1.id, SHAPES[i % 3]!));
    for (let i = 0; i < 5; i++) await ingest(b1.id, 'disc');
    // Random descriptors, so nearest can be checked against a brute-force answer.
    const r = mulberry32(7);
    const sims = new Map<number, Int8Array>();
    for (const id of ids) {
      const sim = Int8Array.from({ length: 32 }, () => Math.floor(r() * 61) - 30);
      sims.set(id, sim);
      await env.db.kysely
        .updateTable('roi_features')
        .set({ sim: Buffer.from(sim.buffer) })
        .where('roi_id', '=', id)
        .execute();
    }
    // ROI ids[10]'s features are not committed yet when the other process first reads.
    const held = await env.db.kysely
      .selectFrom('roi_features')
      .selectAll()
      .where('roi_id', '=', ids[10]!)
      .executeTakeFirstOrThrow();
    await env.db.kysely.deleteFrom('roi_features').where('roi_id', '=', ids[10]!).execute();
    const other = new SimilarityIndex(env.db, 0);
    const brute = (q: Int8Array, exclude: number, among: number[]) =>
      among
        .filter((id) => id !== exclude)
        .map((id) => ({ id, d: sims.get(id)!.reduce((sum, v, j) => sum + (v - q[j]!) ** 2, 0) }))
        .sort((x, y) => x.d - y.d || x.id - y.id);
    const q = sims.get(ids[0]!)!;
    const first = await other.nearest(w.teamA, q, 29, ids[0]!);
    expect(other.size(w.teamA)).toBe(29);
    expect(first.map((c) => Math.round(c.distance ** 2))).toEqual(
      brute(
        q,
        ids[0]!,
        ids.filter((id) => id !== ids[10]),
      ).map((b) => b.d),
    );
    await env.db.kysely.insertInto('roi_features').values(held).execute();
    const second = await other.nearest(w.teamA, sims.get(ids[10]!)!, 5, -1);
    expect(second[0]).toEqual({ roi_id: ids[10], distance: 0 });
    expect(other.size(w.teamA)).toBe(30);
    // Every query answer equals brute force, for several queries and sizes.
    for (const k of [1, 3, 10]) {
      for (const from of [ids[3]!, ids[17]!, ids[29]!]) {
        const got = await other.nearest(w.teamA, sims.get(from)!, k, from);
        expect(got.map((c) => Math.round(c.distance ** 2))).toEqual(
          brute(sims.get(from)!, from, ids)
            .slice(0, k)
            .map((b) => b.d),
        );
      }
    }
    // A server that preloads holds every team's ROIs, each in its own team's index.
    const fresh = new SimilarityIndex(env.db);
    expect(await fresh.preload()).toBe(35);
    expect([fresh.size(w.teamA), fresh.size(w.teamB)]).toEqual([30, 5]);
  });

  it('renders an enhanced image once and classifies an uploaded image without storing it', async () => {
    const id = await ingest(a1.id, 'ring');
    const { url } = await okData<{ url: string }>(w.tokens.user, 'POST', '/enhance', { roi_id: id });
    expect(url).toMatch(/^roi\/file\/[0-9a-f]{64}\.enh\.png$/);
    const image = await env.app.inject({ method: 'GET', url: `/api/${url}` });
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/png']);
    expect((await okData<{ url: string }>(w.tokens.user, 'POST', '/enhance', { roi_id: id })).url).toBe(url);
    await trainTeamA();
    const before = await env.db.kysely
      .selectFrom('rois')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const form = roiMultipart({}, await shapePng('rod', 77));
    const res = body(
      await env.app.inject({
        method: 'POST',
        url: '/uploads',
        headers: { 'x-token': w.tokens.user!, ...form.headers },
        payload: form.payload,
      }),
    );
    expect(res.code).toBe(1000);
    const answer = res.data as { prediction: { class_id: number }[]; measures: { area_px: number } };
    expect(answer.prediction[0]!.class_id).toBe(classOf.rod);
    const after = await env.db.kysely
      .selectFrom('rois')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const notImage = roiMultipart({}, Buffer.from('hello'));
    const bad = body(
      await env.app.inject({
        method: 'POST',
        url: '/uploads',
        headers: { 'x-token': w.tokens.user!, ...notImage.headers },
        payload: notImage.payload,
      }),
    );
    expect(bad.code).toBe(1002);
    expect((await fail(undefined, 'POST', '/enhance', { roi_id: id })).code).toBe(1010);
  });
});

describe('the demo recogniser', () => {
  it('trains the demo team a model from drawn plankton, once', async () => {
    const env = await buildTestApp('sqlite');
    try {
      const { seedDemo, DEMO_TEAM } = await import('../src/seed/demo.ts');
      const { seedDemoModel } = await import('../src/seed/demo-model.ts');
      const { findTeamByName } = await import('../src/modules/teams/teams.repository.ts');
      await seedDemo(env.db, env.clock.read, env.config.SCRYPT_LOG_N);
      const team = (await findTeamByName(env.db.kysely, DEMO_TEAM))!;
      const w = await buildWorld(env);
      await registerIpp(env, w.tokens.superadmin, team.id, 'DEMO-X');
      expect(await seedDemoModel(env.db, env.clock.read, env.app.rois, env.app.jobs)).toBe(true);
      await env.app.jobs.drain();
      const model = await env.db.kysely
        .selectFrom('ai_models')
        .selectAll()
        .where('group_id', '=', team.id)
        .executeTakeFirstOrThrow();
      expect([model.status, model.active, model.classes]).toEqual(['ready', 1, 8]);
      expect(model.cv_accuracy!).toBeGreaterThan(0.8);
      // Seeding again does nothing.
      expect(await seedDemoModel(env.db, env.clock.read, env.app.rois, env.app.jobs)).toBe(false);
    } finally {
      await env.close();
    }
  }, 120_000);
});
