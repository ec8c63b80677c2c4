import { RELATIVE_STARTS } from '@ipp/contracts';
import { AppError } from '../../http/app-error.ts';
import { ResultCode } from '@ipp/contracts';

export interface TimeRange {
  start: number;
  end: number;
}

const unsupported = () => new AppError(ResultCode.BAD_PARAM, 'unsupportedType', {}, 'Roi_time_s');
const badDate = (field = 'Roi_time_s') => new AppError(ResultCode.BAD_PARAM, 'dateFormat', {}, field);

/**
 * Spec §5: a start without an end must be a relative value ("-7 day"), else "不支持类型"; an end without a start, or
 * neither a start nor an end, is "日期格式错误". "Neither" is a time range that was asked for and left empty: one
 * of the two parameters is present (`Roi_time_s=&Roi_time_e=`, blanks trimmed away) or the call needs a range
 * (`required`, re-identification). A call that names no time range at all (both parameters absent) is a list
 * without a time filter, not a range with neither end. Absolute values are epoch ms or "YYYY-MM-DD[ HH:mm[:ss]]" in
 * the viewer's zone (tz, minutes east of UTC).
 */
export function parseTimeRange(
  input: { Roi_time_s?: string; Roi_time_e?: string; tz: number },
  now: number,
  required = false,
): TimeRange | null {
  const asked = input.Roi_time_s !== undefined || input.Roi_time_e !== undefined;
  const s = input.Roi_time_s?.trim() || undefined;
  const e = input.Roi_time_e?.trim() || undefined;
  if (s === undefined) {
    if (e !== undefined) throw badDate('Roi_time_e');
    if (asked || required) throw badDate('Roi_time_s');
    return null;
  }
  if (e === undefined) {
    if (!(RELATIVE_STARTS as readonly string[]).includes(s)) throw unsupported();
    return { start: relativeStart(s, now), end: now };
  }
  const start = absolute(s, input.tz);
  const end = absolute(e, input.tz);
  if (start === null) throw badDate('Roi_time_s');
  if (end === null || end < start) throw badDate('Roi_time_e');
  return { start, end };
}

function relativeStart(value: string, now: number): number {
  const [amount, unit] = value.slice(1).split(' ') as [string, 'hour' | 'day' | 'month'];
  const n = Number(amount);
  if (unit === 'hour') return now - n * 3_600_000;
  if (unit === 'day') return now - n * 86_400_000;
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - n);
  return date.getTime();
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function absolute(value: string, tzMinutes: number): number | null {
  if (/^\d{10,15}$/.test(value)) return Number(value);
  const m = DATE.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', sec = '0'] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  const back = new Date(utc);
  // Reject dates that do not exist (2026-02-30 would silently become March 2).
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59) return null;
  return utc - tzMinutes * 60_000;
}
