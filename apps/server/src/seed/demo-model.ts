import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { JobRunner } from '../modules/recognition/job-runner.ts';
import { VECTOR_VERSION } from '../modules/recognition/vector.ts';
import { createModel } from '../modules/recognition/models.repository.ts';
import type { RoisService } from '../modules/rois/rois.service.ts';
import { findTeamByName } from '../modules/teams/teams.repository.ts';
import { PLANKTON_KINDS, PLANKTON_KIND_NAMES, renderRoi } from '../simulator/render.ts';
import { DEMO_TEAM } from './demo.ts';

/** Human-identified examples drawn per kind for the demo team's first model. */
export const DEMO_EXAMPLES_PER_KIND = 24;

/**
 * The demo team's recogniser: a few human-identified images of each kind the simulator draws (filed 35 days back,
 * outside the 30-day charts) and a queued training job, so the demo console has an active model with a measured
 * accuracy a minute after start, and new unlabelled ROIs get AI labels. Nothing happens if the team has a model.
 */
export async function seedDemoModel(db: Db, clock: Clock, rois: RoisService, runner: JobRunner) {
  const team = await findTeamByName(db.kysely, DEMO_TEAM);
  if (!team) return false;
  if (await db.kysely.selectFrom('ai_models').select('id').where('group_id', '=', team.id).executeTakeFirst()) return false;
  const station = await db.kysely
    .selectFrom('ipps')
    .select('id')
    .where('group_id', '=', team.id)
    .orderBy('id')
    .executeTakeFirst();
  if (!station) return false;
  const classes = await db.kysely.selectFrom('classes').select(['id', 'label_index']).execute();
  const start = clock() - 35 * 24 * 3_600_000;
  let n = 0;
  for (const kind of PLANKTON_KIND_NAMES) {
    const cls = classes.find((c) => c.label_index === PLANKTON_KINDS[kind]);
    if (!cls) continue;
    for (let i = 0; i < DEMO_EXAMPLES_PER_KIND; i++) {
      const image = await renderRoi(kind, 7_000_000 + n);
      await rois.ingest({
        ippId: station.id,
        capturedAt: start + n * 60_000,
        labelIndex: image.labelIndex,
        confidence: null,
        sizePx: image.sizePx,
        data: image.png,
        isDemo: true,
        hiClassId: cls.id,
      });
      n++;
    }
  }
  const now = clock();
  await db.kysely.transaction().execute(async (trx) => {
    const modelId = await createModel(trx, team.id, null, VECTOR_VERSION, now);
    await trx
      .insertInto('jobs')
      .values({
        kind: 'train',
        group_id: team.id,
        user_id: null,
        model_id: modelId,
        status: 'queued',
        total: 1000,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  runner.poke();
  return true;
}
