import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import * as repo from './recycle.repository.ts';

const DAY = 86_400_000;
const BATCH = 1000;
/** Any fixed number: on PostgreSQL only one server process sweeps at a time. */
const SWEEP_LOCK = 0x1bb_5eed;

/**
 * Purges ROIs that have been in the recycle bin longer than the retention setting (spec: "retention from system
 * settings"), a batch per transaction with its counts, so a sweep interrupted half-way leaves nothing half written.
 */
export class RecycleSweeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rois: RoisService,
    private readonly settings: SettingsService,
  ) {}

  /** Answers how many ROIs were purged. */
  async sweep(): Promise<number> {
    const days = (await this.settings.get()).recycle_retention_days;
    const before = this.clock() - days * DAY;
    let purged = 0;
    for (;;) {
      const n = await this.db.kysely.transaction().execute(async (trx) => {
        if (this.db.dialect === 'postgres' && !(await repo.tryTransactionLock(trx, SWEEP_LOCK))) return 0;
        const ids = await repo.recycledBefore(trx, before, BATCH);
        return this.rois.purge(trx, await roisRepo.findRoisCore(trx, ids, this.db.dialect === 'postgres'));
      });
      purged += n;
      if (n < BATCH) return purged;
    }
  }

  /** Sweeps every `everyMs` (first after `firstMs`), until stop(). */
  start(onError: (error: unknown) => void, everyMs = 3_600_000, firstMs = 60_000) {
    const run = () => {
      this.sweep().catch(onError);
      this.timer = setTimeout(run, everyMs);
      this.timer.unref();
    };
    this.timer = setTimeout(run, firstMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
