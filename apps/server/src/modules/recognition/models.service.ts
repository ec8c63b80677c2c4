import { ResultCode, type Model, type ModelList, type ModelReport, type Thresholds, type ThresholdsBody } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { requireOwned } from '../access/access.ts';
import { classNames } from '../classes/classes.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { autoAcceptOf, DEFAULT_TARGET_PRECISION } from './calibration.ts';
import type { JobRunner } from './job-runner.ts';
import * as jobs from './jobs.repository.ts';
import { labelTallies } from './labels.repository.ts';
import { DEFAULT_THRESHOLD, type ModelStore } from './model-store.ts';
import * as models from './models.repository.ts';
import { isPlainUser } from '../access/access.ts';
import { teamOf } from './scope.ts';
import type { ModelReportData } from './training.ts';
import { VECTOR_VERSION } from './vector.ts';
import { expectedCalibrationError } from './classifier/evaluation.ts';
import { backboneCard } from './embedding/backbone-card.ts';

const modelNotFound = () => new AppError(ResultCode.BAD_PARAM, 'modelNotFound', {}, 'model_id');

/** A team's model versions (docs/recognition.md "Classifier"): list, train, activate, report, review thresholds. */
export class ModelsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly store: ModelStore,
    private readonly runner: JobRunner,
  ) {}

  async listModels(actor: UserRow, groupId?: number): Promise<ModelList> {
    if (isPlainUser(actor)) throw forbidden();
    const team = await teamOf(this.db.kysely, actor, groupId);
    const rows = await models.listModels(this.db.kysely, team);
    const tallies = await labelTallies(
      this.db.kysely,
      rows.map((r) => r.id),
    );
    return {
      group_id: team,
      active_id: rows.find((r) => r.active === 1)?.id ?? null,
      items: rows.map((r) => presentModel(r, tallies.get(r.id))),
    };
  }

  /** POST /ai/models/train: a new model version and its training job. */
  async train(actor: UserRow, groupId?: number) {
    if (isPlainUser(actor) || actor.is_demo === 1) throw forbidden();
    const team = await teamOf(this.db.kysely, actor, groupId);
    const now = this.clock();
    const out = await this.db.kysely.transaction().execute(async (trx) => {
      const running = await jobs.activeTrainingJob(trx, team);
      if (running) throw new AppError(ResultCode.BAD_PARAM, 'trainingRunning', {}, 'group_id');
      const modelId = await models.createModel(trx, team, actor.id, VECTOR_VERSION, now);
      const jobId = await jobs.queueTrainingJob(trx, { team, userId: actor.id, modelId, now });
      return { job_id: jobId, model_id: modelId };
    });
    this.runner.poke();
    return out;
  }

  async activate(actor: UserRow, modelId: number): Promise<ModelList> {
    if (isPlainUser(actor) || actor.is_demo === 1) throw forbidden();
    const model = requireOwned(actor, await models.findModel(this.db.kysely, modelId), modelNotFound);
    if (model.status !== 'ready') throw new AppError(ResultCode.BAD_PARAM, 'modelNotReady', {}, 'model_id');
    await this.db.kysely.transaction().execute((trx) => models.activate(trx, model.group_id, modelId, this.clock()));
    this.store.invalidate(model.group_id);
    return this.listModels(actor, model.group_id);
  }

  /** GET /ai/model/report: the version's cross-validation report, with class names. */
  async modelReport(actor: UserRow, modelId: number): Promise<ModelReport> {
    if (isPlainUser(actor)) throw forbidden();
    const model = requireOwned(actor, await models.findModel(this.db.kysely, modelId), modelNotFound);
    if (model.report === null) throw new AppError(ResultCode.BAD_PARAM, 'noReport', {}, 'model_id');
    const data = JSON.parse(model.report) as ModelReportData;
    const names = await classNames(this.db.kysely, [
      ...data.classes.map((c) => c.class_id),
      ...data.confusions.flatMap((c) => [c.true_class_id, c.predicted_class_id]),
    ]);
    const name = (id: number) => names.get(id) ?? `#${id}`;
    return {
      model_id: model.id,
      version: model.version,
      folds: data.folds,
      n: data.n,
      accuracy: data.accuracy,
      balanced_accuracy: data.balanced_accuracy,
      ece: data.oof
        ? expectedCalibrationError(
            data.oof.confidence,
            data.oof.right.map((r) => r === 1),
          )
        : null,
      backbone: backboneCard(),
      classes: data.classes.map((c) => ({ ...c, class_name: name(c.class_id) })),
      confusions: data.confusions.map((c) => ({
        ...c,
        true_class_name: name(c.true_class_id),
        predicted_class_name: name(c.predicted_class_id),
      })),
    };
  }

  async thresholds(actor: UserRow, groupId?: number): Promise<Thresholds> {
    if (isPlainUser(actor)) throw forbidden();
    const team = await teamOf(this.db.kysely, actor, groupId);
    const map = await models.thresholdsOf(this.db.kysely, team);
    const target = map.get(models.TARGET_PRECISION_ROW) ?? DEFAULT_TARGET_PRECISION;
    const active = await this.store.activeFor(team);
    const auto = autoAcceptOf(active ? await models.findReport(this.db.kysely, active.id) : null, target) ?? [];
    const ids = [...map.keys()].filter((id) => id > 0);
    const names = await classNames(this.db.kysely, [...ids, ...auto.map((a) => a.class_id)]);
    const byName = (a: { class_name: string }, b: { class_name: string }) => a.class_name.localeCompare(b.class_name);
    return {
      group_id: team,
      default: map.get(0) ?? DEFAULT_THRESHOLD,
      target_precision: target,
      calibrated: auto.length > 0,
      items: ids
        .filter((id) => names.has(id))
        .map((id) => ({ class_id: id, class_name: names.get(id)!, threshold: map.get(id)! }))
        .sort(byName),
      auto: auto
        .filter((a) => names.has(a.class_id))
        .map((a) => ({ ...a, class_name: names.get(a.class_id)! }))
        .sort(byName),
    };
  }

  async saveThresholds(actor: UserRow, body: ThresholdsBody): Promise<Thresholds> {
    if (isPlainUser(actor) || actor.is_demo === 1) throw forbidden();
    const team = await teamOf(this.db.kysely, actor, body.group_id);
    const names = await classNames(
      this.db.kysely,
      body.items.map((i) => i.class_id),
    );
    body.items.forEach((item, i) => {
      if (!names.has(item.class_id)) throw new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, `items.${i}.class_id`);
    });
    await this.db.kysely.transaction().execute(async (trx) => {
      const upsert = (classId: number, threshold: number) => models.setThreshold(trx, team, classId, threshold);
      if (body.default !== undefined) await upsert(0, body.default);
      if (body.target_precision !== undefined) await upsert(models.TARGET_PRECISION_ROW, body.target_precision);
      for (const item of body.items) {
        if (item.threshold === null) {
          await models.clearThreshold(trx, team, item.class_id);
        } else await upsert(item.class_id, item.threshold);
      }
    });
    this.store.invalidate(team);
    return this.thresholds(actor, team);
  }
}

function presentModel(
  r: Awaited<ReturnType<typeof models.listModels>>[number],
  tally: { accepted: number; review: number } = { accepted: 0, review: 0 },
): Model {
  return {
    id: r.id,
    group_id: r.group_id,
    version: r.version,
    status: r.status as Model['status'],
    active: r.active === 1,
    train_size: r.train_size,
    classes: r.classes,
    cv_accuracy: r.cv_accuracy,
    cv_balanced_accuracy: r.cv_balanced_accuracy,
    feature_version: r.feature_version,
    calibrated: r.feature_version >= VECTOR_VERSION && r.cv_accuracy !== null,
    labels_accepted: tally.accepted,
    labels_review: tally.review,
    created_at: Number(r.created_at),
    created_by: r.created_by_name ?? null,
    error: r.error,
  };
}
