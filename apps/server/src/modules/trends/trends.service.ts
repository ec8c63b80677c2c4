import { TREND_SERIES, type TelemetryTrend, type TelemetryTrendQuery } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { periodBuckets } from '../stats/buckets.ts';
import * as stats from '../stats/stats.repository.ts';
import { trendsByBucket } from '../stats/trend-rollups.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { visibleStationByDevId } from '../access/stations.ts';

/** Four significant digits: enough for a chart and its tooltip, and a smaller answer. */
const sig = (value: number) => Number(value.toPrecision(4));

/**
 * Engineering trends of one station (issue 23): every numeric telemetry series over a period of spec §9, from the
 * trend rollups only, so the cost follows the buckets (≤ 400), never the samples.
 */
export class TrendsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dayOffsetHours: number,
  ) {}

  async telemetry(actor: UserRow, query: TelemetryTrendQuery): Promise<TelemetryTrend> {
    const k = this.db.kysely;
    const ipp = await visibleStationByDevId(k, actor, query.dev_id);
    const first = query.period === 'all' ? await stats.firstDataHour(k, ipp.id) : null;
    const range = periodBuckets(query.period, query.points, this.clock(), query.tz, first, this.dayOffsetHours);
    const rows = await trendsByBucket(k, ipp.id, range);
    const byBucket = new Array<(typeof rows)[number] | undefined>(range.count);
    for (const r of rows) if (r.bucket >= 0 && r.bucket < range.count) byBucket[r.bucket] = r;
    const empty = () => new Array<number | null>(range.count).fill(null);
    const share = (n: number | undefined, samples: number) => (samples > 0 ? sig(((n ?? 0) / samples) * 100) : null);
    const samples = Array.from(byBucket, (r) => r?.samples ?? 0);
    return {
      ipp_id: ipp.id,
      dev_id: ipp.dev_id,
      site_name: ipp.site_name,
      start: range.start,
      end: range.end,
      bucket_ms: range.width,
      samples,
      wiper_cleaning_pct: Array.from(byBucket, (r, i) => share(r?.wiper_cleaning_n, samples[i]!)),
      wiper_fault_pct: Array.from(byBucket, (r, i) => share(r?.wiper_fault_n, samples[i]!)),
      series: TREND_SERIES.map((key) => {
        const [mean, min, max] = [empty(), empty(), empty()];
        byBucket.forEach((r, i) => {
          const [n, sum, lo, hi] = r?.series[key] ?? [0, 0, null, null];
          if (n === 0) return;
          mean[i] = sig(sum / n);
          min[i] = lo === null ? null : sig(lo);
          max[i] = hi === null ? null : sig(hi);
        });
        return { key, mean, min, max };
      }),
    };
  }
}
