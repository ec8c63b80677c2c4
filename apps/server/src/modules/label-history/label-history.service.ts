import { type LabelHistory } from '@ipp/contracts';
import type { Db } from '../../db/database.ts';
import { ownsTeamObject } from '../access/access.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as repo from './label-events.repository.ts';
import { roiNotFound } from '../access/not-found.ts';

/** An ROI's label history (issue 25), for the people of its team (the superadmin: every team). */
export class LabelHistoryService {
  constructor(private readonly db: Db) {}

  async history(actor: UserRow, roiId: number): Promise<LabelHistory> {
    const roi = await repo.roiOrigin(this.db.kysely, roiId);
    if (!roi || !ownsTeamObject(actor, roi.group_id)) throw roiNotFound();
    return {
      roi_id: roi.id,
      received_at: Number(roi.received_at),
      dev_id: roi.dev_id,
      events: await repo.eventsOf(this.db.kysely, roiId),
    };
  }
}
