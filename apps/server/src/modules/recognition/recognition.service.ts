import {
  CATEGORY,
  ResultCode,
  type FeatureBody,
  type FeatureResult,
  type Job,
  type Model,
  type ModelList,
  type ModelReport,
  type ReferenceAnswer,
  type RoiInsight,
  type Similar,
  type Thresholds,
  type ThresholdsBody,
} from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { blobUrl, originalName, type BlobStore } from '../../storage/blobs.ts';
import * as foldersRepo from '../identify/folders.repository.ts';
import { canWriteFolder } from '../access/folder-access.ts';
import { visibleFolder } from '../identify/scope.ts';
import { requireAllOwned, requireOwned, visibleGroup } from '../access/access.ts';
import { findRoisCore, pixelSizeOfRoi, roiImages, summaries } from '../rois/rois.repository.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import { classNames } from '../classes/classes.repository.ts';
import { presentRoi } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { autoAcceptOf, DEFAULT_TARGET_PRECISION } from './calibration.ts';
import { descriptorOf } from './descriptor.ts';
import { enhanceImage } from './features.ts';
import { VECTOR_NAMES, VECTOR_VERSION, vectorOfImage } from './vector.ts';
import { decodeInt8, loadFeatures, loadMeasures, referenceDescriptors, type StoredFeatures } from './features.repository.ts';
import { storeRecomputedFeatures } from './recomputed-features.ts';
import type { JobRunner } from './job-runner.ts';
import * as jobs from './jobs.repository.ts';
import { findLabel, labelTallies } from './labels.repository.ts';
import { DEFAULT_THRESHOLD, labelWith, type ModelStore } from './model-store.ts';
import * as models from './models.repository.ts';
import { stationOf } from './stations.repository.ts';
import type { ModelReportData } from './training.ts';
import type { SimilarityIndex } from './similarity.ts';
import { titleResolver } from './train-job.ts';

const isAdmin = (actor: UserRow) => actor.role !== 'user';
const roiNotFound = (field = 'roi_id') => new AppError(ResultCode.BAD_PARAM, 'roiNotFound', {}, field);
const jobNotFound = () => new AppError(ResultCode.BAD_PARAM, 'jobNotFound', {}, 'job_id');
const modelNotFound = () => new AppError(ResultCode.BAD_PARAM, 'modelNotFound', {}, 'model_id');

/** The recognition calls (docs/recognition.md): features, labels, models, thresholds, jobs, similarity, references. */
export class RecognitionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
    private readonly store: ModelStore,
    private readonly similarity: SimilarityIndex,
    private readonly runner: JobRunner,
  ) {}

  /** The team a call is about: the caller's own; a superadmin names one (or gets the first team). */
  private async teamOf(actor: UserRow, requested?: number): Promise<number> {
    const team = visibleGroup(actor, requested);
    if (team !== undefined) {
      if (actor.role === 'superadmin' && !(await findTeamById(this.db.kysely, team))) {
        throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'group_id', reasonKey: 'reason.unknownTeam' }, 'group_id');
      }
      return team;
    }
    if (actor.group_id !== null) return actor.group_id;
    throw new AppError(ResultCode.BAD_PARAM, 'teamRequired', {}, 'group_id');
  }

  /** ROIs the caller may see (their team's, any for a superadmin), or 1002 naming the first missing one. */
  private async visibleRois(actor: UserRow, ids: readonly number[], field = 'roi_id') {
    const rows = await findRoisCore(this.db.kysely, ids);
    return requireAllOwned(actor, ids, rows, () => roiNotFound(field));
  }

  /** POST /python/feature: computes the features of ROIs again from their images and stores them. */
  async computeFeatures(actor: UserRow, body: FeatureBody): Promise<FeatureResult> {
    const ids = [...new Set([...(body.roi_id !== undefined ? [body.roi_id] : []), ...(body.roi_ids ?? [])])];
    const seen = await this.visibleRois(actor, ids);
    const rows = await roiImages(this.db.kysely, ids);
    const computed: StoredFeatures[] = [];
    for (const r of rows) {
      const blob = await this.blobs.get(originalName(r.sha256, r.mime));
      if (!blob) throw roiNotFound();
      const { threshold } = await stationOf(this.db.kysely, r.ipp_id);
      const f = await vectorOfImage(blob.data, { threshold });
      computed.push({ roi_id: r.id, version: f.version, values: f.values, sim: descriptorOf(f.values), measures: f.measures });
    }
    if (actor.is_demo !== 1) {
      await this.db.kysely.transaction().execute((trx) => storeRecomputedFeatures(trx, computed, this.db.dialect === 'postgres'));
      for (const c of computed) this.similarity.update(seen.get(c.roi_id)!.group_id, c.roi_id, c.sim);
    }
    const byId = new Map(computed.map((c) => [c.roi_id, c]));
    return {
      version: VECTOR_VERSION,
      names: [...VECTOR_NAMES],
      items: ids.map((id) => ({ roi_id: id, values: Array.from(byId.get(id)!.values), measures: byId.get(id)!.measures })),
    };
  }

  /** GET /ai/roi: the ROI's AI label (with the model version and best classes) and its morphology. */
  async insight(actor: UserRow, roiId: number): Promise<RoiInsight> {
    await this.visibleRois(actor, [roiId]);
    const label = await findLabel(this.db.kysely, roiId);
    const names = label ? await this.classNames(label.top.map(([id]) => id)) : new Map<number, string>();
    return {
      roi_id: roiId,
      measures: await loadMeasures(this.db.kysely, roiId),
      pixel_size_um: await pixelSizeOfRoi(this.db.kysely, roiId),
      ai: label && {
        model_id: label.model_id,
        model_version: label.version,
        class_id: label.class_id,
        confidence: label.confidence,
        top: label.top.map(([class_id, p]) => ({ class_id, class_name: names.get(class_id) ?? String(class_id), p })),
        low_confidence: label.low === 1,
        labelled_at: label.labelled_at,
      },
    };
  }

  async listModels(actor: UserRow, groupId?: number): Promise<ModelList> {
    if (!isAdmin(actor)) throw forbidden();
    const team = await this.teamOf(actor, groupId);
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
    if (!isAdmin(actor) || actor.is_demo === 1) throw forbidden();
    const team = await this.teamOf(actor, groupId);
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
    if (!isAdmin(actor) || actor.is_demo === 1) throw forbidden();
    const model = requireOwned(actor, await models.findModel(this.db.kysely, modelId), modelNotFound);
    if (model.status !== 'ready') throw new AppError(ResultCode.BAD_PARAM, 'modelNotReady', {}, 'model_id');
    await this.db.kysely.transaction().execute((trx) => models.activate(trx, model.group_id, modelId, this.clock()));
    this.store.invalidate(model.group_id);
    return this.listModels(actor, model.group_id);
  }

  /** GET /ai/model/report: the version's cross-validation report, with class names. */
  async modelReport(actor: UserRow, modelId: number): Promise<ModelReport> {
    if (!isAdmin(actor)) throw forbidden();
    const model = requireOwned(actor, await models.findModel(this.db.kysely, modelId), modelNotFound);
    if (model.report === null) throw new AppError(ResultCode.BAD_PARAM, 'noReport', {}, 'model_id');
    const data = JSON.parse(model.report) as ModelReportData;
    const names = await this.classNames([
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
      classes: data.classes.map((c) => ({ ...c, class_name: name(c.class_id) })),
      confusions: data.confusions.map((c) => ({
        ...c,
        true_class_name: name(c.true_class_id),
        predicted_class_name: name(c.predicted_class_id),
      })),
    };
  }

  async thresholds(actor: UserRow, groupId?: number): Promise<Thresholds> {
    if (!isAdmin(actor)) throw forbidden();
    const team = await this.teamOf(actor, groupId);
    const map = await models.thresholdsOf(this.db.kysely, team);
    const target = map.get(models.TARGET_PRECISION_ROW) ?? DEFAULT_TARGET_PRECISION;
    const active = await this.store.activeFor(team);
    const auto = autoAcceptOf(active ? await models.findReport(this.db.kysely, active.id) : null, target) ?? [];
    const ids = [...map.keys()].filter((id) => id > 0);
    const names = await this.classNames([...ids, ...auto.map((a) => a.class_id)]);
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
    if (!isAdmin(actor) || actor.is_demo === 1) throw forbidden();
    const team = await this.teamOf(actor, body.group_id);
    const names = await this.classNames(body.items.map((i) => i.class_id));
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

  async listJobs(actor: UserRow, q: { group_id?: number; kind?: 'reidentify' | 'train'; limit: number }) {
    const team = actor.role === 'superadmin' && q.group_id === undefined ? null : await this.teamOf(actor, q.group_id);
    return { items: (await jobs.listJobs(this.db.kysely, team, q.kind, q.limit)).map(presentJob) };
  }

  async job(actor: UserRow, jobId: number): Promise<Job> {
    const row = requireOwned(actor, await jobs.viewJob(this.db.kysely, jobId), jobNotFound);
    return presentJob(row);
  }

  /** Cancels a queued or running job: the running step rolls back, the steps already committed stay. */
  async cancel(actor: UserRow, jobId: number): Promise<Job> {
    const current = await this.job(actor, jobId);
    if (actor.is_demo === 1 || !isAdmin(actor)) throw forbidden();
    const now = this.clock();
    if (!(await jobs.cancelJob(this.db.kysely, jobId, now)))
      throw new AppError(ResultCode.BAD_PARAM, 'jobFinished', {}, 'job_id');
    if (current.kind === 'train' && current.model_id !== null) {
      await models.failTraining(this.db.kysely, current.model_id, 'cancelled', now);
    }
    return this.job(actor, jobId);
  }

  /** GET /ai/similar: the team's ROIs nearest by descriptor, live and visible, nearest first. */
  async similar(actor: UserRow, roiId: number, limit: number): Promise<Similar> {
    const roi = (await this.visibleRois(actor, [roiId])).get(roiId)!;
    const own = await this.ensureFeatures(roiId);
    const candidates = await this.similarity.nearest(roi.group_id, own.sim, limit * 3 + 10, roiId);
    const distance = new Map(candidates.map((c) => [c.roi_id, c.distance]));
    const live = (await findRoisCore(this.db.kysely, [...distance.keys()])).filter(
      (r) => r.deleted_at === null && r.group_id === roi.group_id,
    );
    const ids = live
      .map((r) => r.id)
      .sort((a, b) => distance.get(a)! - distance.get(b)!)
      .slice(0, limit);
    const rows = ids.length === 0 ? [] : await summaries(this.db.kysely).where('r.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      items: ids.filter((id) => byId.has(id)).map((id) => ({ ...presentRoi(byId.get(id)!), distance: distance.get(id)! })),
    };
  }

  /** The ROI's stored features, computed now if it has none at this version. */
  private async ensureFeatures(roiId: number): Promise<StoredFeatures> {
    const stored = (await loadFeatures(this.db.kysely, [roiId], VECTOR_VERSION)).get(roiId);
    if (stored) return stored;
    const [r] = await roiImages(this.db.kysely, [roiId]);
    if (!r) throw roiNotFound();
    const blob = await this.blobs.get(originalName(r.sha256, r.mime));
    if (!blob) throw roiNotFound();
    const { threshold, groupId } = await stationOf(this.db.kysely, r.ipp_id);
    const f = await vectorOfImage(blob.data, { threshold });
    const item = { roi_id: roiId, version: f.version, values: f.values, sim: descriptorOf(f.values), measures: f.measures };
    await this.db.kysely.transaction().execute((trx) => storeRecomputedFeatures(trx, [item], this.db.dialect === 'postgres'));
    this.similarity.update(groupId, roiId, item.sim);
    return item;
  }

  /** POST /folders/add and /folders/delete: ROIs into or out of a reference class (team or Xcube library). */
  async reference(actor: UserRow, body: { roi_index_id: number; roi_ids: number[] }, add: boolean) {
    if (actor.is_demo === 1) throw forbidden();
    const folder = await visibleFolder(this.db.kysely, actor, body.roi_index_id);
    if (folder.category_id !== CATEGORY.TEAM && folder.category_id !== CATEGORY.XCUBE) {
      throw new AppError(ResultCode.BAD_PARAM, 'notReferenceFolder', {}, 'roi_index_id');
    }
    if (!canWriteFolder(actor, folder)) throw forbidden();
    const seen = await this.visibleRois(actor, body.roi_ids, 'roi_ids');
    const live = new Set([...seen.values()].filter((r) => r.deleted_at === null).map((r) => r.id));
    const affected = await this.db.kysely
      .transaction()
      .execute((trx) =>
        add
          ? foldersRepo.addMembers(trx, folder.id, body.roi_ids, live, this.clock())
          : foldersRepo.removeMembers(trx, [folder.id], body.roi_ids, live),
      );
    return { affected };
  }

  /** POST /folders/query: the k reference ROIs nearest to this one, and their classes by distance-weighted vote. */
  async queryReference(actor: UserRow, body: { roi_id: number; k: number; group_id?: number }): Promise<ReferenceAnswer> {
    await this.visibleRois(actor, [body.roi_id]);
    const team = await this.teamOf(actor, body.group_id);
    const own = await this.ensureFeatures(body.roi_id);
    const refs = await referenceDescriptors(this.db.kysely, team, body.roi_id);
    if (refs.length === 0) throw new AppError(ResultCode.BAD_PARAM, 'noReferences', {}, 'roi_id');
    const classOfTitle = await titleResolver(this.db.kysely);
    const scored = refs
      .map((r) => {
        const sim = decodeInt8(r.sim);
        let d = 0;
        for (let j = 0; j < sim.length; j++) d += (sim[j]! - own.sim[j]!) ** 2;
        return { roi_id: r.roi_id, folder_id: r.folder_id, class_id: classOfTitle(r.title)?.id ?? 0, distance: Math.sqrt(d) };
      })
      .sort((a, b) => a.distance - b.distance)
      .slice(0, body.k);
    const votes = new Map<number, { score: number; votes: number }>();
    for (const n of scored) {
      const v = votes.get(n.class_id) ?? { score: 0, votes: 0 };
      v.score += 1 / (1 + n.distance);
      v.votes += 1;
      votes.set(n.class_id, v);
    }
    const total = [...votes.values()].reduce((a, v) => a + v.score, 0);
    const names = await this.classNames([...votes.keys()]);
    return {
      classes: [...votes.entries()]
        .map(([class_id, v]) => ({ class_id, class_name: names.get(class_id) ?? '', score: v.score / total, votes: v.votes }))
        .sort((a, b) => b.score - a.score),
      neighbours: scored,
    };
  }

  /** POST /uploads: measures and classifies an image with the caller's team model, storing nothing. */
  async classifyUpload(actor: UserRow, data: Buffer, groupId?: number) {
    const team = await this.teamOf(actor, groupId);
    const f = await vectorOfImage(data);
    const model = await this.store.activeFor(team);
    const label = model ? labelWith(model, f.values) : null;
    const top = model ? model.classifier.predict(f.values, 3) : [];
    const names = await this.classNames(top.map((t) => t.class_id));
    return {
      measures: f.measures,
      model_id: label?.model_id ?? model?.id ?? null,
      prediction: top.map((t) => ({ class_id: t.class_id, class_name: names.get(t.class_id) ?? String(t.class_id), p: t.p })),
    };
  }

  /** POST /enhance: the contrast-enhanced rendering, made once and kept next to the original. */
  async enhance(actor: UserRow, roiId: number) {
    await this.visibleRois(actor, [roiId]);
    const [r] = await roiImages(this.db.kysely, [roiId]);
    if (!r) throw roiNotFound();
    const name = `${r.sha256}.enh.png`;
    if (!(await this.blobs.get(name))) {
      const blob = await this.blobs.get(originalName(r.sha256, r.mime));
      if (!blob) throw roiNotFound();
      await this.blobs.put(name, await enhanceImage(blob.data));
    }
    return { url: blobUrl(name) };
  }

  private async classNames(ids: readonly number[]) {
    return classNames(this.db.kysely, ids);
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

function presentJob(r: jobs.JobView): Job {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: r.id,
    kind: r.kind as Job['kind'],
    group_id: r.group_id,
    status: r.status as Job['status'],
    total: r.total,
    done: r.done,
    changed: r.changed,
    ipp_id: r.ipp_id,
    dev_id: r.dev_id ?? null,
    class_id: r.class_id,
    class_name: r.class_name ?? null,
    start_at: num(r.start_at),
    end_at: num(r.end_at),
    model_id: r.model_id,
    user_name: r.user_name ?? null,
    error: r.error,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}
