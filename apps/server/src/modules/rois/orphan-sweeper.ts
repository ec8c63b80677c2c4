import type { Db } from '../../db/database.ts';
import { FileBlobStore, type BlobStore } from '../../storage/blobs.ts';
import { sweepOrphanFiles, type SweepResult } from '../../storage/orphans.ts';
import { S3BlobStore } from '../../storage/s3-blobs.ts';
import { sweepOrphanObjects } from '../../storage/s3-orphans.ts';
import { existingHashes } from './rois.repository.ts';

/**
 * The recovery pass over the image files (docs/reliability.md "Orphan files"): once after every start, then every
 * `everyMs`. Deletes images no ROI names (an ingest that crashed before its commit, ROIs purged from the recycle
 * bin) and temporary files a crash left, when last written more than the grace (ORPHAN_GRACE_MINUTES) ago: files under
 * DATA_DIR/blobs (storage/orphans.ts) or objects in an S3-protocol bucket (storage/s3-orphans.ts). Ages are file or
 * object times against the system clock, not the app's clock.
 */
export class OrphanSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepResult> | null = null;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly graceMs: number,
  ) {}

  /** One pass (a pass already running is joined, not doubled). */
  sweep(): Promise<SweepResult> {
    const referenced = (hashes: string[]) => existingHashes(this.db.kysely, hashes);
    const blobs = this.blobs;
    this.running ??= (
      blobs instanceof S3BlobStore
        ? sweepOrphanObjects(blobs.objects(), referenced, this.graceMs, Date.now)
        : blobs instanceof FileBlobStore
          ? sweepOrphanFiles(blobs.root, referenced, this.graceMs, Date.now)
          : Promise.resolve({ files: 0, deleted: 0, bytes: 0 })
    ).finally(() => (this.running = null));
    return this.running;
  }

  /** The first pass now, in the background, then every `everyMs`, until stop(). */
  start(onDone: (result: SweepResult, ms: number) => void, onError: (error: unknown) => void, everyMs = 3_600_000) {
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
