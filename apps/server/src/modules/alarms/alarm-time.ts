import { offsetLabel, wallClockIn, zoneOffsetMinutes } from '@ipp/contracts';

/** An alarm's times on its station's clock and in UTC, for e-mails and the export. */

const stamp = (wall: number, seconds: boolean) =>
  new Date(wall)
    .toISOString()
    .replace('T', ' ')
    .slice(0, seconds ? 19 : 16);

/** 'YYYY-MM-DD HH:mm:ss' on the station's clock. */
export const localStamp = (time: number, timeZone: string) => stamp(wallClockIn(time, timeZone), true);

/**
 * A time as a reader anywhere can place it: '2026-11-27 11:00 (Asia/Shanghai, UTC+8) · 2026-11-27 03:00 UTC'; a
 * station on UTC itself gets the UTC part only.
 */
export function stationAndUtc(time: number, timeZone: string): string {
  const utc = `${stamp(time, false)} UTC`;
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return utc;
  const offset = zoneOffsetMinutes(time, timeZone);
  return `${stamp(wallClockIn(time, timeZone), false)} (${timeZone}, ${offset === 0 ? 'UTC+0' : offsetLabel(offset)}) · ${utc}`;
}
