import { offsetLabel, wallClockIn, zoneOffsetMinutes } from '@ipp/contracts';
import { formatTime } from './format';

/** A time as the console writes it ('YYYY-MM-DD HH:mm:ss') on the clock of an IANA zone. */
export const formatTimeIn = (ms: number, zone: string): string =>
  new Date(wallClockIn(ms, zone)).toISOString().replace('T', ' ').slice(0, 19);

export { offsetLabel, zoneOffsetMinutes };

/** The viewer's own offset at a time, as a label. */
export const viewerOffsetLabel = (ms: number) => offsetLabel(-new Date(ms).getTimezoneOffset() || 0);

/** A time on the viewer's clock with its zone: "2026-11-27 13:07:55 UTC+8". */
export const formatTimeWithZone = (ms: number) => `${formatTime(ms)} ${viewerOffsetLabel(ms)}`;
