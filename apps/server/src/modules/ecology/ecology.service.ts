import { toPhysical, type EcologyClass, type NbssSeries, type SiteEcology, type SiteEcologyQuery } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { periodBuckets, type Buckets } from '../stats/buckets.ts';
import * as stats from '../stats/stats.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { visibleStationByDevId } from '../access/stations.ts';
import { hiddenClassesFor } from '../classes/classes.ts';
import * as repo from './ecology.repository.ts';
import { nbssPoints, nbssSlope, sig, type SizeRow } from './nbss.ts';

/** The rows summed over the time buckets: one per class and size class. */
function sumByClassAndSize(rows: readonly (SizeRow & { class_key: number })[]) {
  const sums = new Map<string, SizeRow & { class_key: number }>();
  for (const r of rows) {
    const key = `${r.class_key}:${r.size_class}`;
    const sum = sums.get(key) ?? { class_key: r.class_key, size_class: r.size_class, n: 0, bv_px3: 0 };
    sum.n += r.n;
    sum.bv_px3 += r.bv_px3;
    sums.set(key, sum);
  }
  return [...sums.values()];
}

/** The answer and the range it covers (the CSV writes each bucket's end). */
export interface SiteEcologyFull extends SiteEcology {
  range: Buckets;
}

/** Classes drawn beside the total when the selection is every class. */
const NBSS_TOP_CLASSES = 5;

const perLitre = (value: number | null, volumeL: number) => (value === null || volumeL <= 0 ? null : sig(value / volumeL));

/**
 * Ecology products of one station (docs/ecology.md): concentration (ind/L), biovolume concentration (mm³/L) and the
 * NBSS of a selection of classes over a period, read from the size and telemetry rollups only, so the cost follows
 * the buckets, classes and size classes of the range, never the number of ROIs.
 */
export class EcologyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dayOffsetHours: number,
  ) {}

  async site(actor: UserRow, query: SiteEcologyQuery): Promise<SiteEcologyFull> {
    const k = this.db.kysely;
    const ipp = await visibleStationByDevId(k, actor, query.dev_id);
    const first = query.period === 'all' ? await stats.firstDataHour(k, ipp.id) : null;
    const range = periodBuckets(query.period, query.points, this.clock(), query.tz, first, this.dayOffsetHours);
    const [allRows, telemetry, hidden] = await Promise.all([
      repo.sizesByBucket(k, ipp.id, range),
      stats.telemetryByBucket(k, [ipp.id], range),
      hiddenClassesFor(k, actor),
    ]);
    // A class hidden from a plain user is left out of everything: its name, its count and every sum ("all classes"
    // is all the classes the caller sees).
    const rows = hidden.size === 0 ? allRows : allRows.filter((r) => !hidden.has(r.class_key));
    const perSize = sumByClassAndSize(rows);
    const s = ipp.pixel_size_um;
    const mm3 = (px3: number) => (s === null ? null : sig(toPhysical(px3, 3, s)));
    const selected = query.classes ?? [];
    const inSelection = (key: number) => selected.length === 0 || selected.includes(key);

    const classes = await this.classesOf(perSize, mm3);
    const volumes = new Array<number>(range.count).fill(0);
    for (const t of telemetry) if (t.bucket >= 0 && t.bucket < range.count) volumes[t.bucket] = t.volume_l;
    const volumeL = volumes.reduce((a, b) => a + b, 0);

    const sums = volumes.map(() => ({ n: 0, bv: 0 }));
    for (const r of rows) {
      if (r.bucket < 0 || r.bucket >= range.count || !inSelection(r.class_key)) continue;
      sums[r.bucket]!.n += r.n;
      sums[r.bucket]!.bv += r.bv_px3;
    }
    const buckets = volumes.map((volume, index) => {
      const count = sums[index]!.n;
      const biovolume = mm3(sums[index]!.bv);
      return {
        start: range.start + index * range.width,
        volume_l: sig(volume),
        count,
        concentration_per_l: perLitre(count, volume),
        biovolume_mm3: biovolume,
        biovolume_mm3_per_l: perLitre(biovolume, volume),
      };
    });
    const chosen = classes.filter((c) => inSelection(c.class_id ?? 0));
    const count = chosen.reduce((a, c) => a + c.count, 0);
    const biovolume = s === null ? null : sig(chosen.reduce((a, c) => a + (c.biovolume_mm3 ?? 0), 0));
    return {
      ipp_id: ipp.id,
      dev_id: ipp.dev_id,
      site_name: ipp.site_name,
      start: range.start,
      end: range.end,
      bucket_ms: range.width,
      pixel_size_um: s,
      volume_l: sig(volumeL),
      classes,
      selected,
      count,
      measured: chosen.reduce((a, c) => a + c.measured, 0),
      concentration_per_l: perLitre(count, volumeL),
      biovolume_mm3: biovolume,
      biovolume_mm3_per_l: perLitre(biovolume, volumeL),
      buckets,
      nbss: s === null || volumeL <= 0 ? [] : this.nbss(perSize, chosen, selected.length === 0, volumeL, s),
      range,
    };
  }

  /** Every class with live ROIs in the range, largest first; ties by class id, not classified last. */
  private async classesOf(perSize: readonly (SizeRow & { class_key: number })[], mm3: (px3: number) => number | null) {
    const sums = new Map<number, { n: number; measured: number; bv: number }>();
    for (const r of perSize) {
      const sum = sums.get(r.class_key) ?? { n: 0, measured: 0, bv: 0 };
      sum.n += r.n;
      if (r.size_class >= 0) sum.measured += r.n;
      sum.bv += r.bv_px3;
      sums.set(r.class_key, sum);
    }
    const names = await repo.classNamesOf(
      this.db.kysely,
      [...sums.keys()].filter((key) => key !== 0),
    );
    return [...sums]
      .map(([key, sum]): EcologyClass => ({
        class_id: key === 0 ? null : key,
        name: key === 0 ? null : (names.get(key) ?? null),
        count: sum.n,
        measured: sum.measured,
        biovolume_mm3: mm3(sum.bv),
      }))
      .sort(stats.byCountThenClass);
  }

  /** The selection's total, then each class of it (every class: the largest few by measured objects). */
  private nbss(
    perSize: readonly (SizeRow & { class_key: number })[],
    chosen: readonly EcologyClass[],
    everyClass: boolean,
    volumeL: number,
    pixelSizeUm: number,
  ): NbssSeries[] {
    const keys = new Set(chosen.map((c) => c.class_id ?? 0));
    const series = (rows: readonly SizeRow[], head: Pick<NbssSeries, 'total' | 'class_id' | 'name'>): NbssSeries => {
      const points = nbssPoints(rows, volumeL, pixelSizeUm);
      return { ...head, slope: nbssSlope(points), points };
    };
    const drawn = chosen.filter((c) => c.measured > 0);
    const perClass = everyClass ? [...drawn].sort((a, b) => b.measured - a.measured).slice(0, NBSS_TOP_CLASSES) : drawn;
    const total = series(
      perSize.filter((r) => keys.has(r.class_key)),
      { total: true, class_id: null, name: null },
    );
    if (total.points.length === 0) return [];
    return [
      total,
      ...perClass.map((c) =>
        series(
          perSize.filter((r) => r.class_key === (c.class_id ?? 0)),
          { total: false, class_id: c.class_id, name: c.name },
        ),
      ),
    ];
  }
}
