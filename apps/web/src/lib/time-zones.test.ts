import { stationTimeZone } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { formatTimeIn, offsetLabel, zoneOffsetMinutes } from './time-zones';

describe('time zones', () => {
  const winter = Date.UTC(2026, 0, 15, 4, 30, 5);
  const summer = Date.UTC(2026, 6, 15, 4, 30, 5);

  it('writes a time on the clock of a zone, daylight saving included', () => {
    expect(formatTimeIn(winter, 'Asia/Shanghai')).toBe('2026-01-15 12:30:05');
    expect(formatTimeIn(winter, 'America/Anchorage')).toBe('2026-01-14 19:30:05');
    expect(formatTimeIn(summer, 'America/Anchorage')).toBe('2026-07-14 20:30:05');
    expect(formatTimeIn(winter, 'UTC')).toBe('2026-01-15 04:30:05');
  });

  it('gives each zone its offset then, as a label', () => {
    expect(offsetLabel(zoneOffsetMinutes(winter, 'Asia/Shanghai'))).toBe('UTC+8');
    expect(offsetLabel(zoneOffsetMinutes(winter, 'America/Anchorage'))).toBe('UTC-9');
    expect(offsetLabel(zoneOffsetMinutes(summer, 'America/Anchorage'))).toBe('UTC-8');
    expect(offsetLabel(zoneOffsetMinutes(winter, 'Asia/Kolkata'))).toBe('UTC+5:30');
    expect(offsetLabel(0)).toBe('UTC');
  });

  it("takes a station's own zone, else the nautical zone of its longitude, else UTC", () => {
    expect(stationTimeZone({ time_zone: 'America/Anchorage', longitude: -146.9 })).toBe('America/Anchorage');
    expect(stationTimeZone({ time_zone: null, longitude: 120.6 })).toBe('Etc/GMT-8');
    expect(stationTimeZone({ time_zone: null, longitude: -146.9 })).toBe('Etc/GMT+10');
    expect(stationTimeZone({ time_zone: null, longitude: 3 })).toBe('UTC');
    expect(stationTimeZone({ time_zone: null, longitude: null })).toBe('UTC');
    expect(offsetLabel(zoneOffsetMinutes(winter, stationTimeZone({ time_zone: null, longitude: 120.6 })))).toBe('UTC+8');
  });
});
