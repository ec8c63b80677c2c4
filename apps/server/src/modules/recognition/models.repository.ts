import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ModelReportData, TrainOutput } from './training.ts';

export const MODEL_COLUMNS = [
  'm.id',
  'm.group_id',
  'm.version',
  'm.status',
  'm.active',
  'm.feature_version',
  'm.train_size',
  'm.classes',
  'm.cv_accuracy',
  'm.cv_balanced_accuracy',
  'm.error',
  'm.created_at',
  'u.name as created_by_name',
] as const;

export function listModels(db: Kysely<Database>, groupId: number) {
  return db
    .selectFrom('ai_models as m')
    .leftJoin('users as u', 'u.id', 'm.created_by')
    .select(MODEL_COLUMNS)
    .where('m.group_id', '=', groupId)
    .orderBy('m.version', 'desc')
    .execute();
}

export function findModel(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('ai_models as m')
    .leftJoin('users as u', 'u.id', 'm.created_by')
    .select([...MODEL_COLUMNS, 'm.model', 'm.report'])
    .where('m.id', '=', id)
    .executeTakeFirst();
}

export async function activeModelId(db: Kysely<Database>, groupId: number) {
  const row = await db
    .selectFrom('ai_models')
    .select('id')
    .where('group_id', '=', groupId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A new model row in `training`, numbered after the team's last. */
export async function createModel(
  db: Kysely<Database>,
  groupId: number,
  userId: number | null,
  featureVersion: number,
  now: number,
) {
  const last = await db
    .selectFrom('ai_models')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  const row = await db
    .insertInto('ai_models')
    .values({
      group_id: groupId,
      version: Number(last?.v ?? 0) + 1,
      status: 'training',
      feature_version: featureVersion,
      created_by: userId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function activate(db: Kysely<Database>, groupId: number, modelId: number, now: number) {
  await db
    .updateTable('ai_models')
    .set({ active: 0, updated_at: now })
    .where('group_id', '=', groupId)
    .where('active', '=', 1)
    .execute();
  await db.updateTable('ai_models').set({ active: 1, updated_at: now }).where('id', '=', modelId).execute();
}

/** A model's cross-validation report (training.ts), parsed; null when it has none. */
export async function findReport(db: Kysely<Database>, id: number): Promise<ModelReportData | null> {
  const row = await db.selectFrom('ai_models').select('report').where('id', '=', id).executeTakeFirst();
  return row?.report ? (JSON.parse(row.report) as ModelReportData) : null;
}

/** The ai_thresholds row (class id -1) that holds a team's auto-accept target precision instead of a threshold. */
export const TARGET_PRECISION_ROW = -1;

export async function thresholdsOf(db: Kysely<Database>, groupId: number) {
  const rows = await db.selectFrom('ai_thresholds').select(['class_id', 'threshold']).where('group_id', '=', groupId).execute();
  return new Map(rows.map((r) => [r.class_id, r.threshold]));
}

/** Sets a team's threshold for a class (0: the default; TARGET_PRECISION_ROW: the target precision). */
export async function setThreshold(db: Kysely<Database>, groupId: number, classId: number, threshold: number) {
  await db
    .insertInto('ai_thresholds')
    .values({ group_id: groupId, class_id: classId, threshold })
    .onConflict((oc) => oc.columns(['group_id', 'class_id']).doUpdateSet({ threshold }))
    .execute();
}

/** Drops a team's threshold for a class (the default applies again). */
export async function clearThreshold(db: Kysely<Database>, groupId: number, classId: number) {
  await db.deleteFrom('ai_thresholds').where('group_id', '=', groupId).where('class_id', '=', classId).execute();
}

/** Marks a model version still training as failed, with the reason. */
export async function failTraining(db: Kysely<Database>, modelId: number, error: string, now: number) {
  await db
    .updateTable('ai_models')
    .set({ status: 'failed', error, updated_at: now })
    .where('id', '=', modelId)
    .where('status', '=', 'training')
    .execute();
}

/** Stores a trained model version and its cross-validation results; the version is ready to label. */
export async function saveTrained(db: Kysely<Database>, modelId: number, output: TrainOutput, now: number) {
  await db
    .updateTable('ai_models')
    .set({
      status: 'ready',
      model: JSON.stringify(output.model),
      report: output.report === null ? null : JSON.stringify(output.report),
      train_size: output.n,
      classes: output.classes,
      cv_accuracy: output.accuracy,
      cv_balanced_accuracy: output.balancedAccuracy,
      updated_at: now,
    })
    .where('id', '=', modelId)
    .execute();
}
