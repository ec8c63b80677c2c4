import {
  type LastInsert,
  type Roi24,
  type Roi30,
  type Roi30Query,
  type RoiSummary,
  type RoisQuery,
  type Wall,
} from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { isOnline } from '../ipps/ipps.service.ts';
import { visibleGroup } from '../access/access.ts';
import { hiddenClassesFor } from '../classes/classes.ts';
import { readUserView } from '../group-view/group-view.repository.ts';
import { presentRoi } from '../rois/rois.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { fill, last24Hours, last30Days, round } from '../stats/buckets.ts';
import * as stats from '../stats/stats.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as repo from './views.repository.ts';
import { stationNotFound } from '../access/not-found.ts';

export interface Station {
  id: number;
  dev_id: string;
  site_name: string;
  followed: boolean;
  online: boolean;
}

/** The monitoring views of spec §7 (views, dashboard), scoped to the caller's team, read from rollups. */
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
      if (stations.length === 0) throw stationNotFound();
    }
    const range = last30Days(this.clock(), query.tz, this.dayOffsetHours);
    const ids = stations.map((s) => s.id);
    const [counts, telemetry, allClasses, hidden] = await Promise.all([
      stats.roiCountsByBucket(this.db.kysely, ids, range),
      stats.telemetryByBucket(this.db.kysely, ids, range),
      stats.classCounts(this.db.kysely, ids, range),
      hiddenClassesFor(this.db.kysely, actor),
    ]);
    const classes = allClasses.filter((c) => c.class_id === null || !hidden.has(c.class_id));
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
    if (query.ipp_id !== undefined && ids.length === 0) throw stationNotFound();
    return (await repo.latestRois(this.db.kysely, ids, query.limit)).map(presentRoi);
  }

  async lastInsertTime(actor: UserRow): Promise<LastInsert> {
    return repo.lastInsertTime(this.db.kysely, visibleGroup(actor));
  }

  private async offlineMs() {
    return (await this.settings.get()).offline_minutes * 60_000;
  }
}
