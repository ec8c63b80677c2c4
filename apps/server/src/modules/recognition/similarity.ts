import type { Db } from '../../db/database.ts';
import { decodeInt8 } from './features.repository.ts';
import { SIM_DIMS, distance2 } from './descriptor.ts';

interface TeamIndex {
  ids: Int32Array;
  sims: Int8Array;
  n: number;
  /** Highest roi_features row loaded: later ROIs are read on the next query. */
  maxRoiId: number;
  loading: Promise<void> | null;
}

/**
 * "More like this" (docs/recognition.md "Similarity"): per team, every ROI's 32-byte descriptor in one typed array
 * (1M ROIs = 32 MB), scanned in full for each query, then the best candidates are checked against the database
 * (still live, still the team's). New ROIs join at ingest in this process and by id on the next query in others.
 */
export class SimilarityIndex {
  private readonly teams = new Map<number, TeamIndex>();

  constructor(private readonly db: Db) {}

  /** A new ROI's descriptor, if its team's index is loaded (otherwise the first query reads it). */
  add(groupId: number, roiId: number, sim: Int8Array) {
    const team = this.teams.get(groupId);
    if (!team || team.loading || roiId <= team.maxRoiId) return;
    push(team, roiId, sim);
    team.maxRoiId = roiId;
  }

  /** Replaces a descriptor after the features were computed again. */
  update(groupId: number, roiId: number, sim: Int8Array) {
    const team = this.teams.get(groupId);
    if (!team) return;
    for (let i = 0; i < team.n; i++) {
      if (team.ids[i] === roiId) {
        team.sims.set(sim, i * SIM_DIMS);
        return;
      }
    }
    if (roiId > team.maxRoiId) this.add(groupId, roiId, sim);
  }

  /** Up to `candidates` ROI ids of the team nearest to `sim`, nearest first (the ROI itself excluded). */
  async nearest(groupId: number, sim: Int8Array, candidates: number, exclude: number) {
    const team = await this.load(groupId);
    const best: { id: number; d: number }[] = [];
    let worst = Infinity;
    for (let i = 0; i < team.n; i++) {
      const d = distance2(team.sims, i * SIM_DIMS, sim);
      if (best.length >= candidates && d >= worst) continue;
      const id = team.ids[i]!;
      if (id === exclude) continue;
      insertSorted(best, { id, d });
      if (best.length > candidates) best.pop();
      worst = best.length >= candidates ? best[best.length - 1]!.d : Infinity;
    }
    return best.map((b) => ({ roi_id: b.id, distance: Math.sqrt(b.d) }));
  }

  size(groupId: number) {
    return this.teams.get(groupId)?.n ?? 0;
  }

  private async load(groupId: number): Promise<TeamIndex> {
    let team = this.teams.get(groupId);
    if (!team) {
      team = { ids: new Int32Array(1024), sims: new Int8Array(1024 * SIM_DIMS), n: 0, maxRoiId: 0, loading: null };
      this.teams.set(groupId, team);
    }
    while (team.loading) await team.loading;
    team.loading = this.readNew(groupId, team).finally(() => {
      team.loading = null;
    });
    await team.loading;
    return team;
  }

  /** Reads the team's descriptors above maxRoiId, 20,000 at a time. */
  private async readNew(groupId: number, team: TeamIndex) {
    for (;;) {
      const rows = await this.db.kysely
        .selectFrom('roi_features as f')
        .innerJoin('rois as r', 'r.id', 'f.roi_id')
        .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
        .select(['f.roi_id', 'f.sim'])
        .where('i.group_id', '=', groupId)
        .where('f.roi_id', '>', team.maxRoiId)
        .where('r.deleted_at', 'is', null)
        .orderBy('f.roi_id')
        .limit(20_000)
        .execute();
      for (const r of rows) push(team, r.roi_id, decodeInt8(r.sim));
      if (rows.length > 0) team.maxRoiId = rows[rows.length - 1]!.roi_id;
      if (rows.length < 20_000) return;
    }
  }
}

function push(team: TeamIndex, roiId: number, sim: Int8Array) {
  if (team.n === team.ids.length) {
    const ids = new Int32Array(team.ids.length * 2);
    ids.set(team.ids);
    const sims = new Int8Array(team.sims.length * 2);
    sims.set(team.sims);
    team.ids = ids;
    team.sims = sims;
  }
  team.ids[team.n] = roiId;
  team.sims.set(sim.subarray(0, SIM_DIMS), team.n * SIM_DIMS);
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
