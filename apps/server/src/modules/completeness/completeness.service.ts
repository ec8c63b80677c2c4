import { HOUR_STATES, type Completeness, type CompletenessBucket, type CompletenessQuery, type HourState } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { periodBuckets } from '../stats/buckets.ts';
import { HOUR_MS, hourOf } from '../stats/rollup-keys.ts';
import type { UserRow } from '../users/users.repository.ts';
import { visibleStationByDevId } from '../access/stations.ts';
import { hourState, type HourRow } from './completeness-hours.ts';
import { completenessHours, firstCompletenessHour } from './completeness.repository.ts';

/** Images are whole; an expected count spread over hours is not, until it is shown. */
const tenths = (value: number) => Math.round(value * 10) / 10;

/**
 * Data completeness of one station (issue 23): per bucket of a §9 period, the images expected against received and
 * how many of its hours were complete, missing images, idle or offline. Reads one row per station-hour (a year is
 * under 9,000), never the images or the telemetry. The hour in progress adds its figures so far, but its state is not
 * judged yet: its images may still be on their way.
 */
export class CompletenessService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dayOffsetHours: number,
  ) {}

  async station(actor: UserRow, query: CompletenessQuery): Promise<Completeness> {
    const k = this.db.kysely;
    const ipp = await visibleStationByDevId(k, actor, query.dev_id);
    const first = await firstCompletenessHour(k, ipp.id);
    const now = this.clock();
    const range = periodBuckets(query.period, query.points, now, query.tz, first, this.dayOffsetHours);
    // An hour either side, for the neighbours that judge the first and last hours.
    const rows = new Map(
      (await completenessHours(k, ipp.id, range.start - HOUR_MS, range.end + HOUR_MS)).map((r) => [r.hour, r]),
    );
    const currentHour = hourOf(now);
    const totals = { expected: 0, receivedCounted: 0, known: false, received: 0, missing: 0, offline: 0, samplingS: 0 };
    const buckets: CompletenessBucket[] = [];
    for (let i = 0; i < range.count; i++) {
      const start = range.start + i * range.width;
      const bucket = emptyBucket(start);
      let known = false;
      // A viewer's day in a zone of half hours starts mid-hour: the bucket holds the UTC hours that begin in it.
      for (let hour = Math.ceil(start / HOUR_MS) * HOUR_MS; hour < start + range.width; hour += HOUR_MS) {
        const row = rows.get(hour);
        const judged = first !== null && hour >= first && hour < currentHour;
        const state: HourState = judged ? hourState(row, rows.get(hour - HOUR_MS), rows.get(hour + HOUR_MS)) : 'none';
        bucket.hours[state]++;
        if (!row) continue;
        add(bucket, row);
        // The hour in progress counts so far (live totals), though its state waits for the hour to end.
        if (row.expected_reports > 0) {
          known = true;
          bucket.expected = (bucket.expected ?? 0) + row.expected;
          totals.receivedCounted += row.received;
        }
      }
      if (!known) bucket.expected = null;
      totals.known ||= known;
      totals.expected += bucket.expected ?? 0;
      totals.received += bucket.received;
      totals.missing += bucket.hours.missing;
      totals.offline += bucket.hours.offline;
      totals.samplingS += bucket.sampling_s;
      buckets.push(rounded(bucket));
    }
    const expected = Math.round(totals.expected);
    return {
      ipp_id: ipp.id,
      dev_id: ipp.dev_id,
      site_name: ipp.site_name,
      start: range.start,
      end: range.end,
      bucket_ms: range.width,
      buckets,
      totals: {
        expected: totals.known ? expected : null,
        received: totals.received,
        received_counted: totals.receivedCounted,
        received_pct: totals.known && expected > 0 ? tenths(Math.min(100, (totals.receivedCounted / expected) * 100)) : null,
        missing_hours: totals.missing,
        offline_hours: totals.offline,
        sampling_hours: tenths(totals.samplingS / 3600),
      },
    };
  }
}

function emptyBucket(start: number): CompletenessBucket {
  return {
    start,
    online_s: 0,
    sampling_s: 0,
    frames_expected: 0,
    expected: 0,
    received: 0,
    hours: Object.fromEntries(HOUR_STATES.map((s) => [s, 0])) as CompletenessBucket['hours'],
  };
}

function add(bucket: CompletenessBucket, row: HourRow) {
  bucket.online_s += row.online_s;
  bucket.sampling_s += row.sampling_s;
  bucket.frames_expected += row.frames_expected;
  bucket.received += row.received;
}

function rounded(bucket: CompletenessBucket): CompletenessBucket {
  return {
    ...bucket,
    online_s: Math.round(bucket.online_s),
    sampling_s: Math.round(bucket.sampling_s),
    frames_expected: Math.round(bucket.frames_expected),
    expected: bucket.expected === null ? null : tenths(bucket.expected),
  };
}
