import type { Db } from '../../db/database.ts';
import { decodeInt8, descriptorsAfter, DESCRIPTORS_PER_READ } from './features.repository.ts';
import { SIM_DIMS } from './descriptor.ts';
import { teamIds, teamStationIds } from './stations.repository.ts';

/**
 * Ids below the highest one read that are read again on each catch-up: on PostgreSQL a transaction of another process
 * can commit an ROI after a higher id was already read (ids are taken at insert, rows appear at commit).
 */
export const LATE_WINDOW = 2_000;
/** The late window is read again at most this often per team (reading it costs about a third of a 200k scan). */
const LATE_EVERY_MS = 2_000;
/** How long the team's station list is trusted (a station registered since then is found at the next read). */
const STATIONS_TTL_MS = 10_000;
/** Dimensions summed before a candidate can be abandoned (the descriptor's leading principal components). */
const HEAD_DIMS = 8;

interface TeamIndex {
  /** Ascending ROI ids and their descriptors (SIM_DIMS bytes each), in `n` slots. */
  ids: Int32Array;
  sims: Int8Array;
  n: number;
  /** Descriptors that arrived out of id order (late commits, features computed later for old ROIs). */
  late: Map<number, Int8Array>;
  /** The team's stations, read again after STATIONS_TTL_MS. */
  stations: Set<number>;
  stationsAt: number;
  /** Highest roi_features id read from the database (any team's). */
  readTo: number;
  lateReadAt: number;
  loading: Promise<void> | null;
}

/**
 * "More like this" (docs/recognition.md "Similarity"): per team, every ROI's 32-byte descriptor in one typed array
 * (1M ROIs = 32 MB), scanned in full for each query with early abandoning on the leading dimensions, then the best
 * candidates are checked against the database (still live, still the team's). New ROIs join at ingest in this
 * process and, in other processes, by id on their next query.
 */
export class SimilarityIndex {
  private readonly teams = new Map<number, TeamIndex>();

  constructor(
    private readonly db: Db,
    private readonly lateEveryMs = LATE_EVERY_MS,
  ) {}

  /** A new ROI's descriptor, if its team's index is loaded (otherwise the first query reads it). */
  add(groupId: number, roiId: number, sim: Int8Array) {
    const team = this.teams.get(groupId);
    if (!team || team.loading) return;
    put(team, roiId, sim);
  }

  /** Replaces a descriptor after the features were computed again (or adds it). */
  update(groupId: number, roiId: number, sim: Int8Array) {
    this.add(groupId, roiId, sim);
  }

  /** Up to `candidates` ROI ids of the team nearest to `sim`, nearest first (the ROI itself excluded). */
  async nearest(groupId: number, sim: Int8Array, candidates: number, exclude: number) {
    const team = await this.load(groupId);
    const best: { id: number; d: number }[] = [];
    let worst = Infinity;
    const consider = (id: number, d: number) => {
      if (id === exclude) return;
      insertSorted(best, { id, d });
      if (best.length > candidates) best.pop();
      worst = best.length >= candidates ? best[best.length - 1]!.d : Infinity;
    };
    const q = sim;
    const { sims, ids, n } = team;
    for (let i = 0, o = 0; i < n; i++, o += SIM_DIMS) {
      // Partial sums only grow: once the leading dimensions exceed the current worst, the rest cannot help.
      let d = 0;
      for (let j = 0; j < HEAD_DIMS; j++) {
        const t = sims[o + j]! - q[j]!;
        d += t * t;
      }
      if (d >= worst) continue;
      for (let j = HEAD_DIMS; j < SIM_DIMS; j++) {
        const t = sims[o + j]! - q[j]!;
        d += t * t;
      }
      if (d < worst) consider(ids[i]!, d);
    }
    for (const [id, s] of team.late) {
      let d = 0;
      for (let j = 0; j < SIM_DIMS; j++) {
        const t = s[j]! - q[j]!;
        d += t * t;
      }
      if (d < worst) consider(id, d);
    }
    return best.map((b) => ({ roi_id: b.id, distance: Math.sqrt(b.d) }));
  }

  /** Loads every team's index, one after the other (queries meanwhile wait for their team's load); the ROIs held. */
  async preload() {
    let held = 0;
    for (const id of await teamIds(this.db.kysely)) held += (await this.load(id)).n;
    return held;
  }

  size(groupId: number) {
    const team = this.teams.get(groupId);
    return team ? team.n + team.late.size : 0;
  }

  private async load(groupId: number): Promise<TeamIndex> {
    let team = this.teams.get(groupId);
    if (!team) {
      team = {
        ids: new Int32Array(1024),
        sims: new Int8Array(1024 * SIM_DIMS),
        n: 0,
        late: new Map(),
        stations: new Set(),
        stationsAt: 0,
        readTo: 0,
        lateReadAt: 0,
        loading: null,
      };
      this.teams.set(groupId, team);
    }
    while (team.loading) await team.loading;
    const current = team;
    current.loading = this.readNew(groupId, current).finally(() => {
      current.loading = null;
    });
    await current.loading;
    return current;
  }

  /**
   * Reads the descriptors above what the team's index has read, DESCRIPTORS_PER_READ at a time; every lateEveryMs also the
   * late window below it.
   */
  private async readNew(groupId: number, team: TeamIndex) {
    if (team.readTo === 0 || Date.now() - team.stationsAt > STATIONS_TTL_MS) {
      team.stations = new Set(await teamStationIds(this.db.kysely, groupId));
      team.stationsAt = Date.now();
    }
    let after = team.readTo;
    if (Date.now() - team.lateReadAt >= this.lateEveryMs) {
      after = Math.max(0, team.readTo - LATE_WINDOW);
      team.lateReadAt = Date.now();
    }
    for (;;) {
      const read = await descriptorsAfter(this.db.kysely, after);
      for (const r of read.live) {
        if (!team.stations.has(r.ipp_id)) continue;
        if (r.roi_id <= team.readTo && has(team, r.roi_id)) continue;
        put(team, r.roi_id, decodeInt8(r.sim));
      }
      after = read.last;
      team.readTo = Math.max(team.readTo, after);
      if (read.scanned < DESCRIPTORS_PER_READ) return;
    }
  }
}

/** Index of `roiId` among the team's ascending ids, or -1. */
function find(team: TeamIndex, roiId: number): number {
  let lo = 0;
  let hi = team.n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = team.ids[mid]!;
    if (v === roiId) return mid;
    if (v < roiId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

const has = (team: TeamIndex, roiId: number) => team.late.has(roiId) || find(team, roiId) >= 0;

/** Stores or replaces a descriptor: appended when its id is the highest, otherwise in place or among the late. */
function put(team: TeamIndex, roiId: number, sim: Int8Array) {
  const desc = sim.subarray(0, SIM_DIMS);
  if (team.n > 0 && roiId <= team.ids[team.n - 1]!) {
    const at = find(team, roiId);
    if (at >= 0) team.sims.set(desc, at * SIM_DIMS);
    else team.late.set(roiId, Int8Array.from(desc));
    return;
  }
  if (team.n === team.ids.length) {
    const ids = new Int32Array(team.ids.length * 2);
    ids.set(team.ids);
    const sims = new Int8Array(team.sims.length * 2);
    sims.set(team.sims);
    team.ids = ids;
    team.sims = sims;
  }
  team.ids[team.n] = roiId;
  team.sims.set(desc, team.n * SIM_DIMS);
  team.n++;
}

function insertSorted(list: { id: number; d: number }[], item: { id: number; d: number }) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.d <= item.d) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}
