import type { Db } from '../../db/database.ts';
import { sweepOrphanFiles, type SweepResult } from '../../storage/orphans.ts';
import { existingHashes } from './rois.repository.ts';

/**
 * The recovery pass over the image files (docs/reliability.md "Orphan files"): once after every start, then every
 * `everyMs`. Deletes image files no ROI names (an ingest that crashed before its commit, ROIs purged from the recycle
 * bin) and temporary files a crash left, when last touched more than the grace (ORPHAN_GRACE_MINUTES) ago. Only for
 * images in DATA_DIR/blobs; an S3-protocol bucket is not swept (`root` null). Ages are file times against the system
 * clock, not the app's clock.
 */
export class OrphanSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepResult> | null = null;

  constructor(
    private readonly db: Db,
    private readonly root: string | null,
    private readonly graceMs: number,
  ) {}

  get enabled() {
    return this.root !== null;
  }

  /** One pass (a pass already running is joined, not doubled). */
  sweep(): Promise<SweepResult> {
    if (!this.root) return Promise.resolve({ files: 0, deleted: 0, bytes: 0 });
    this.running ??= sweepOrphanFiles(
      this.root,
      (hashes) => existingHashes(this.db.kysely, hashes),
      this.graceMs,
      Date.now,
    ).finally(() => (this.running = null));
    return this.running;
  }

  /** The first pass now, in the background, then every `everyMs`, until stop(). */
  start(onDone: (result: SweepResult, ms: number) => void, onError: (error: unknown) => void, everyMs = 3_600_000) {
    if (!this.root) return;
    const run = () => {
      const started = Date.now();
      this.sweep()
        .then((result) => onDone(result, Date.now() - started))
        .catch(onError);
      this.timer = setTimeout(run, everyMs);
      this.timer.unref();
    };
    run();
  }

  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
