import { PIE_TOP_CLASSES, type ClassCount, type RoiDetails, type SiteRoi, type SiteRoiQuery } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { measuredFromRow } from '../../db/measured-row.ts';
import { requireOwned } from '../access/access.ts';
import { visibleStationByDevId } from '../access/stations.ts';
import { hiddenClassesFor } from '../classes/classes.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { fill, periodBuckets, round, type Buckets } from '../stats/buckets.ts';
import * as stats from '../stats/stats.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as repo from './rois.repository.ts';
import { presentRoi } from './rois.service.ts';
import { roiNotFound } from '../access/not-found.ts';

/** The site statistics plus what the CSV export needs beyond the chart answer. */
export interface SiteRoiFull extends SiteRoi {
  range: Buckets;
  byClass: { bucket: number; class_key: number; n: number }[];
  allClasses: ClassCount[];
}

/**
 * What the console reads of one station's images and of one image (spec §7 /roi/get-site-roi, /roi/export-site-data,
 * /roi/get-roi-details) and the favourite flag (/roi/set-favorite), scoped to the caller's team.
 */
export class RoiViewsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly dayOffsetHours: number,
  ) {}

  /**
   * One station's statistics over a period. The chart answer reads per-bucket counts (one row per hour or per
   * day and class) and the class totals of the range; `withClassBuckets` adds the bucket × class table the CSV needs.
   */
  async siteRoi(actor: UserRow, query: SiteRoiQuery, withClassBuckets = false): Promise<SiteRoiFull> {
    const ipp = await this.station(actor, query.dev_id);
    const first = query.period === 'all' ? await stats.firstDataHour(this.db.kysely, ipp.id) : null;
    const range = periodBuckets(query.period, query.points, this.clock(), query.tz, first, this.dayOffsetHours);
    const [perBucket, allClasses, telemetry, allByClass, hidden] = await Promise.all([
      stats.roiCountsByBucket(this.db.kysely, [ipp.id], range),
      stats.classCountsBetween(this.db.kysely, [ipp.id], range.start, range.end, this.dayOffsetHours),
      stats.telemetryByBucket(this.db.kysely, [ipp.id], range),
      withClassBuckets ? stats.roiCountsByBucketAndClass(this.db.kysely, ipp.id, range) : Promise.resolve([]),
      hiddenClassesFor(this.db.kysely, actor),
    ]);
    // A class hidden from a plain user is named nowhere: its images count in the total and in "others" only.
    const classes = allClasses.filter((c) => c.class_id === null || !hidden.has(c.class_id));
    const byClass = allByClass.filter((r) => !hidden.has(r.class_key));
    const counts = fill(range, perBucket, (r) => r.n, 0);
    const total = counts.reduce((a, b) => a + b, 0);
    const top = classes.slice(0, PIE_TOP_CLASSES);
    let volume = 0;
    const buckets = counts.map((count, index) => {
      const t = telemetry.find((r) => r.bucket === index);
      const volumeL = t?.volume_l ?? 0;
      volume += volumeL;
      return {
        start: range.start + index * range.width,
        count,
        volume_l: round(volumeL) ?? 0,
        concentration_per_l: volumeL > 0 ? round(count / volumeL) : null,
        temperature_c: round(t?.temperature_c ?? null),
        humidity_pct: round(t?.humidity_pct ?? null),
      };
    });
    return {
      ipp_id: ipp.id,
      dev_id: ipp.dev_id,
      site_name: ipp.site_name,
      start: range.start,
      end: range.end,
      bucket_ms: range.width,
      buckets,
      top_classes: top,
      others: total - top.reduce((a, c) => a + c.count, 0),
      total,
      volume_l: round(volume) ?? 0,
      range,
      byClass,
      allClasses: classes,
    };
  }

  async roiDetails(actor: UserRow, roiId: number): Promise<RoiDetails> {
    const row = await this.visibleRoi(actor, roiId);
    const offlineMs = await this.offlineMs();
    const [sample, neighbours] = await Promise.all([
      repo.telemetryAtOrBefore(this.db.kysely, row.ipp_id, row.roi_time),
      repo.neighbours(this.db.kysely, row.ipp_id, row.roi_time, row.id),
    ]);
    return {
      roi: presentRoi(row),
      telemetry: sample && row.roi_time - sample.at <= offlineMs ? measuredFromRow(sample) : null,
      previous_id: neighbours.previous,
      next_id: neighbours.next,
    };
  }

  async setFavorite(actor: UserRow, roiId: number, favorite: boolean) {
    await this.visibleRoi(actor, roiId);
    await repo.setFavorite(this.db.kysely, roiId, favorite ? this.clock() : null);
    return { favorite };
  }

  private async visibleRoi(actor: UserRow, roiId: number) {
    return requireOwned(actor, await repo.summaries(this.db.kysely).where('r.id', '=', roiId).executeTakeFirst(), () =>
      roiNotFound(),
    );
  }

  private station(actor: UserRow, devId: string) {
    return visibleStationByDevId(this.db.kysely, actor, devId);
  }

  private async offlineMs() {
    return (await this.settings.get()).offline_minutes * 60_000;
  }
}
