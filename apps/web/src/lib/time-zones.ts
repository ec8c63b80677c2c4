import { formatTime } from './format';

/** Parts of a time in a zone, as numbers. */
function partsIn(ms: number, zone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}:${get('second')}` };
}

/** A time as the console writes it ('YYYY-MM-DD HH:mm:ss') on the clock of an IANA zone. */
export function formatTimeIn(ms: number, zone: string): string {
  const p = partsIn(ms, zone);
  return `${p.date} ${p.time}`;
}

/** Minutes east of UTC of a zone at a time (daylight saving included). */
export function zoneOffsetMinutes(ms: number, zone: string): number {
  const p = partsIn(ms, zone);
  const asUtc = Date.parse(`${p.date}T${p.time}Z`);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** "UTC+8", "UTC-8", "UTC+5:30", "UTC" for an offset in minutes east of UTC. */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const mm = abs % 60;
  return `UTC${minutes > 0 ? '+' : '-'}${Math.floor(abs / 60)}${mm ? `:${String(mm).padStart(2, '0')}` : ''}`;
}

/** The viewer's own offset at a time, as a label. */
export const viewerOffsetLabel = (ms: number) => offsetLabel(-new Date(ms).getTimezoneOffset() || 0);

/** A time on the viewer's clock with its zone: "2026-11-27 13:07:55 UTC+8". */
export const formatTimeWithZone = (ms: number) => `${formatTime(ms)} ${viewerOffsetLabel(ms)}`;
