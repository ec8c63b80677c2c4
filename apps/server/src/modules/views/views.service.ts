import {
  PIE_TOP_CLASSES,
  ResultCode,
  type ClassCount,
  type LastInsert,
  type Roi24,
  type Roi30,
  type Roi30Query,
  type RoiDetails,
  type RoiSummary,
  type RoisQuery,
  type SiteRoi,
  type SiteRoiQuery,
  type Wall,
} from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { measuredFromRow, isOnline } from '../ipps/ipps.service.ts';
import { requireOwned, visibleGroup } from '../access/access.ts';
import { visibleStationByDevId } from '../access/stations.ts';
import { readUserView } from '../group-view/group-view.repository.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import { presentRoi } from '../rois/rois.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { last24Hours, last30Days, periodBuckets, type Buckets } from '../stats/buckets.ts';
import * as stats from '../stats/stats.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as repo from './views.repository.ts';

/** The site statistics plus what the CSV export needs beyond the chart answer. */
export interface SiteRoiFull extends SiteRoi {
  range: Buckets;
  byClass: { bucket: number; class_key: number; n: number }[];
  allClasses: ClassCount[];
}

export interface Station {
  id: number;
  dev_id: string;
  site_name: string;
  followed: boolean;
  online: boolean;
}

const noImage = () => new AppError(ResultCode.BAD_PARAM, 'roiNotFound', {}, 'roi_id');
const unknownStation = (field: string) => new AppError(ResultCode.BAD_PARAM, 'ippNotFound', {}, field);

/** The monitoring views of spec §7 (views, dashboard, site), scoped to the caller's team, read from rollups. */
export class ViewsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly dayOffsetHours: number,
  ) {}

  /** The stations a caller sees, the ones they follow first (Select IPP), then by id. */
  async stations(actor: UserRow, groupId?: number): Promise<Station[]> {
    const [rows, view, offlineMs] = await Promise.all([
      repo.stationsOf(this.db.kysely, visibleGroup(actor, groupId)),
      readUserView(this.db.kysely, actor.id),
      this.offlineMs(),
    ]);
    const order = new Map((view?.ids ?? []).map((id, index) => [id, index]));
    const now = this.clock();
    return rows
      .map((row) => ({
        id: row.id,
        dev_id: row.dev_id,
        site_name: row.site_name,
        followed: order.has(row.id),
        online: isOnline(row, now, offlineMs),
      }))
      .sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity) || a.id - b.id);
  }

  async roi24(actor: UserRow, groupId?: number): Promise<Roi24> {
    const stations = await this.stations(actor, groupId);
    const range = last24Hours(this.clock());
    const rows = await stats.roiCountsByBucket(
      this.db.kysely,
      stations.map((s) => s.id),
      range,
    );
    return {
      start: range.start,
      bucket_ms: range.width,
      stations: stations.map((s) => ({
        ...s,
        counts: fill(
          range,
          rows.filter((r) => r.ipp_id === s.id),
          (r) => r.n,
          0,
        ),
      })),
    };
  }

  async roi30(actor: UserRow, query: Roi30Query): Promise<Roi30> {
    let stations = await this.stations(actor, query.group_id);
    if (query.ipp_id !== undefined) {
      stations = stations.filter((s) => s.id === query.ipp_id);
      if (stations.length === 0) throw unknownStation('ipp_id');
    }
    const range = last30Days(this.clock(), query.tz, this.dayOffsetHours);
    const ids = stations.map((s) => s.id);
    const [counts, telemetry, classes] = await Promise.all([
      stats.roiCountsByBucket(this.db.kysely, ids, range),
      stats.telemetryByBucket(this.db.kysely, ids, range),
      stats.classCounts(this.db.kysely, ids, range),
    ]);
    return {
      start: range.start,
      bucket_ms: range.width,
      stations: stations.map((s) => {
        const mine = telemetry.filter((r) => r.ipp_id === s.id);
        return {
          ...s,
          rois: fill(
            range,
            counts.filter((r) => r.ipp_id === s.id),
            (r) => r.n,
            0,
          ),
          temperature_c: fill(range, mine, (r) => round(r.temperature_c), null),
          temperature_min_c: fill(range, mine, (r) => round(r.temperature_min_c), null),
          temperature_max_c: fill(range, mine, (r) => round(r.temperature_max_c), null),
          humidity_pct: fill(range, mine, (r) => round(r.humidity_pct), null),
          volume_l: fill(range, mine, (r) => round(r.volume_l) ?? 0, 0),
        };
      }),
      classes,
    };
  }

  async wall(actor: UserRow): Promise<Wall> {
    const max = (await this.settings.get()).wall_max;
    const group = visibleGroup(actor);
    const [total, rows] = await Promise.all([
      repo.countFavorites(this.db.kysely, group),
      repo.latestFavorites(this.db.kysely, group, max),
    ]);
    return { total, max, items: rows.map(presentRoi) };
  }

  async rois(actor: UserRow, query: RoisQuery): Promise<RoiSummary[]> {
    const stations = await this.stations(actor, query.group_id);
    const ids =
      query.ipp_id === undefined ? stations.map((s) => s.id) : stations.filter((s) => s.id === query.ipp_id).map((s) => s.id);
    if (query.ipp_id !== undefined && ids.length === 0) throw unknownStation('ipp_id');
    return (await repo.latestRois(this.db.kysely, ids, query.limit)).map(presentRoi);
  }

  async lastInsertTime(actor: UserRow): Promise<LastInsert> {
    return repo.lastInsertTime(this.db.kysely, visibleGroup(actor));
  }

  /**
   * One station's statistics over a period. The chart answer reads per-bucket counts (one row per hour or per
   * day and class) and the class totals of the range; `withClassBuckets` adds the bucket × class table the CSV needs.
   */
  async siteRoi(actor: UserRow, query: SiteRoiQuery, withClassBuckets = false): Promise<SiteRoiFull> {
    const ipp = await this.station(actor, query.dev_id);
    const first = query.period === 'all' ? await stats.firstDataHour(this.db.kysely, ipp.id) : null;
    const range = periodBuckets(query.period, query.points, this.clock(), query.tz, first, this.dayOffsetHours);
    const [perBucket, classes, telemetry, byClass] = await Promise.all([
      stats.roiCountsByBucket(this.db.kysely, [ipp.id], range),
      stats.classCountsBetween(this.db.kysely, [ipp.id], range.start, range.end, this.dayOffsetHours),
      stats.telemetryByBucket(this.db.kysely, [ipp.id], range),
      withClassBuckets ? stats.roiCountsByBucketAndClass(this.db.kysely, ipp.id, range) : Promise.resolve([]),
    ]);
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
      roisRepo.telemetryAtOrBefore(this.db.kysely, row.ipp_id, row.roi_time),
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
    await roisRepo.setFavorite(this.db.kysely, roiId, favorite ? this.clock() : null);
    return { favorite };
  }

  private async visibleRoi(actor: UserRow, roiId: number) {
    return requireOwned(actor, await roisRepo.summaries(this.db.kysely).where('r.id', '=', roiId).executeTakeFirst(), noImage);
  }

  private station(actor: UserRow, devId: string) {
    return visibleStationByDevId(this.db.kysely, actor, devId);
  }

  private async offlineMs() {
    return (await this.settings.get()).offline_minutes * 60_000;
  }
}

function fill<R extends { bucket: number }, V>(range: Buckets, rows: R[], value: (row: R) => V, empty: V): V[] {
  const out = new Array<V>(range.count).fill(empty);
  for (const row of rows) if (row.bucket >= 0 && row.bucket < range.count) out[row.bucket] = value(row);
  return out;
}

/** Three decimals are plenty for charts and keep the JSON small. */
function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1000) / 1000;
}
