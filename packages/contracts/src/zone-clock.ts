/**
 * Wall clocks of IANA zones with Intl only (no zone database), written one way by the server (e-mails, exports) and
 * the console (station times).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone; a zone the runtime does not know reads as UTC rather than failing. */
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    const options = {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    } as const;
    try {
      formatter = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    } catch {
      formatter = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock of `ms` in `zone`, as the milliseconds of a UTC date with the same fields. */
export function wallClockIn(ms: number, zone: string): number {
  const field: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(ms)))
    if (part.type !== 'literal') field[part.type] = Number(part.value);
  return Date.UTC(field.year!, field.month! - 1, field.day, field.hour, field.minute, field.second);
}

/** Minutes east of UTC of a zone at a time (daylight saving included). */
export const zoneOffsetMinutes = (ms: number, zone: string) =>
  Math.round((wallClockIn(ms, zone) - Math.floor(ms / 1000) * 1000) / 60_000);

/** "UTC+8", "UTC-8", "UTC+5:30", "UTC" for an offset in minutes east of UTC. */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const mm = abs % 60;
  return `UTC${minutes > 0 ? '+' : '-'}${Math.floor(abs / 60)}${mm ? `:${String(mm).padStart(2, '0')}` : ''}`;
}
