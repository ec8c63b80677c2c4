import { ResultCode, type CorrectedCounts, type CorrectedCountsQuery } from '@ipp/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { HOUR_MS } from '../stats/rollups.repository.ts';
import { telemetryByBucket } from '../stats/stats.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { visibleStationByDevId } from '../access/stations.ts';
import { classNames } from '../classes/classes.repository.ts';
import { hiddenClassesFor } from '../classes/classes.ts';
import { correctedCounts } from './corrected-counts.ts';
import { labelCountsIn } from './labels.repository.ts';
import * as models from './models.repository.ts';

/** At most this long a range (ten years): the count is one grouped scan of the station's ROIs in it. */
const MAX_RANGE_DAYS = 3660;
const MAX_RANGE_MS = MAX_RANGE_DAYS * 24 * HOUR_MS;

interface ClassRow {
  human: number;
  model_raw: number;
  model_corrected: number;
  model_low: number;
  model_high: number;
  other: number;
}

/**
 * Corrected abundance (docs/recognition.md, "Corrected counts"): a station's counts per class over a range, the
 * model-labelled part corrected for each labelling model's cross-validated confusions.
 */
export class AbundanceService {
  constructor(private readonly db: Db) {}

  async correctedCounts(actor: UserRow, q: CorrectedCountsQuery): Promise<CorrectedCounts> {
    if (q.end <= q.start) throw new AppError(ResultCode.BAD_PARAM, 'rangeEmpty', {}, 'end');
    if (q.end - q.start > MAX_RANGE_MS) throw new AppError(ResultCode.BAD_PARAM, 'rangeTooLong', { days: MAX_RANGE_DAYS }, 'end');
    const station = await visibleStationByDevId(this.db.kysely, actor, q.dev_id);
    const rows = await labelCountsIn(this.db.kysely, station.id, q.start, q.end);
    const byClass = new Map<number | null, ClassRow>();
    const row = (c: number | null) => {
      let r = byClass.get(c);
      if (!r) byClass.set(c, (r = { human: 0, model_raw: 0, model_corrected: 0, model_low: 0, model_high: 0, other: 0 }));
      return r;
    };
    const byModel = new Map<number, Map<number, number>>();
    for (const r of rows) {
      if (r.source === 'human') row(r.class_id).human += r.n;
      else if (r.source === 'other') row(r.class_id).other += r.n;
      else {
        row(r.class_id).model_raw += r.n;
        const m = byModel.get(r.model_id!) ?? new Map<number, number>();
        m.set(r.class_id!, (m.get(r.class_id!) ?? 0) + r.n);
        byModel.set(r.model_id!, m);
      }
    }
    let uncorrectable = 0;
    for (const [modelId, observed] of byModel) {
      const report = await models.findReport(this.db.kysely, modelId);
      if (!report?.matrix) {
        // A forest of the first releases kept no confusion matrix: its labels count as they are.
        for (const [c, n] of observed) {
          const r = row(c);
          r.model_corrected += n;
          r.model_low += n;
          r.model_high += n;
          uncorrectable += n;
        }
        continue;
      }
      for (const c of correctedCounts(report.matrix, observed, { seed: modelId })) {
        const r = row(c.class_id);
        r.model_corrected += c.corrected;
        r.model_low += c.low;
        r.model_high += c.high;
      }
    }
    const telemetry = await telemetryByBucket(this.db.kysely, [station.id], {
      start: q.start,
      end: q.end,
      width: q.end - q.start,
      grain: 'hour',
    });
    const volume = telemetry.reduce((a, t) => a + t.volume_l, 0);
    const names = await classNames(this.db.kysely, [0, ...[...byClass.keys()].filter((c): c is number => c !== null)]);
    const per = (v: number) => (volume > 0 ? significant(v / volume) : null);
    const items = [...byClass.entries()].map(([c, r]) => {
      const raw = r.human + r.model_raw + r.other;
      const corrected = r.human + r.model_corrected + r.other;
      const low = r.human + r.model_low + r.other;
      const high = r.human + r.model_high + r.other;
      return {
        class_id: c,
        class_name: c === null ? null : (names.get(c) ?? null),
        human: r.human,
        model_raw: r.model_raw,
        model_corrected: round(r.model_corrected),
        model_low: round(r.model_low),
        model_high: round(r.model_high),
        other: r.other,
        raw,
        corrected: round(corrected),
        low: round(low),
        high: round(high),
        concentration_raw: per(raw),
        concentration_corrected: per(corrected),
        concentration_low: per(low),
        concentration_high: per(high),
      };
    });
    // A class hidden from a plain user is not answered (the correction itself still weighs every class the model knows).
    const hidden = await hiddenClassesFor(this.db.kysely, actor);
    const shown = hidden.size === 0 ? items : items.filter((i) => i.class_id === null || !hidden.has(i.class_id));
    shown.sort((a, b) => b.corrected - a.corrected || b.raw - a.raw || (a.class_id ?? 0) - (b.class_id ?? 0));
    return { dev_id: station.dev_id, start: q.start, end: q.end, volume_l: round(volume), uncorrectable, items: shown };
  }
}

const round = (v: number) => Math.round(v * 100) / 100;
/** Concentrations to 3 significant figures: real ones are 0.001-0.1 ind/L, which 2 decimals flatten to 0.01 or 0. */
const significant = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(3)));
