import { ResultCode, type ReidentifyBody } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { isPlainUser } from '../access/access.ts';
import { visibleStationTeamByDevId } from '../access/stations.ts';
import { findClassById } from '../classes/classes.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as repo from './reidentify.repository.ts';
import { parseTimeRange } from './time-range.ts';

/**
 * Re-identification requests (spec §3): a station, a time range (required) and optionally one AI class. This
 * queues a job with the team's active model; modules/recognition/reidentify-job.ts runs it (docs/recognition.md).
 */
export class ReidentifyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Told when a job is queued, so a worker starts it at once. */
    private readonly onQueued: () => void = () => {},
  ) {}

  async submit(actor: UserRow, body: ReidentifyBody): Promise<{ job_id: number; rois: number }> {
    if (isPlainUser(actor) || actor.is_demo === 1) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
    // No date fields at all: the form's "Please select date" (spec §5 Forms). Fields sent but empty are a time range
    // with neither start nor end: "日期格式错误" from parseTimeRange (spec §5 Time range).
    if (body.Roi_time_s === undefined && body.Roi_time_e === undefined)
      throw new AppError(ResultCode.BAD_PARAM, 'selectDate', {}, 'Roi_time_s');
    const now = this.clock();
    const range = parseTimeRange(body, now, true)!;
    const k = this.db.kysely;
    const station = await visibleStationTeamByDevId(k, actor, body.dev_id);
    if (body.class_id !== undefined && !(await findClassById(k, body.class_id))) {
      throw new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, 'class_id');
    }
    const model = await repo.findActiveModel(k, station.group_id);
    if (!model) throw new AppError(ResultCode.BAD_PARAM, 'noModel', {}, 'dev_id');
    const scope = { ippId: station.id, start: range.start, end: range.end, classId: body.class_id };
    const out = await k.transaction().execute(async (trx) => {
      const total = await repo.countReidentifiable(trx, scope);
      if (total === 0) throw new AppError(ResultCode.BAD_PARAM, 'noImagesInRange', {}, 'Roi_time_s');
      const jobId = await repo.queueReidentifyJob(trx, {
        ...scope,
        modelId: model.id,
        team: station.group_id,
        userId: actor.id,
        total,
        now,
      });
      return { job_id: jobId, rois: total };
    });
    this.onQueued();
    return out;
  }
}
