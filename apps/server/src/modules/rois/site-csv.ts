import { csvText } from '@ipp/contracts/csv';
import type { SiteRoiFull } from './roi-views.service.ts';

/** ISO time in the viewer's zone, e.g. 2026-11-22T08:00:00+08:00. */
export function localIso(time: number, tz: number) {
  const shifted = new Date(time + tz * 60_000).toISOString().slice(0, 19);
  const sign = tz >= 0 ? '+' : '-';
  const abs = Math.abs(tz);
  return `${shifted}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** ISO time in UTC, e.g. 2026-11-22T00:00:00Z: every export gives its times in UTC beside the viewer's. */
export const utcIso = (time: number) => `${new Date(time).toISOString().slice(0, 19)}Z`;

/**
 * One row per time bucket: its range, ROIs in total and per class, water sampled, concentration and the
 * telemetry means. UTF-8 with a byte-order mark so spreadsheet programs read Chinese names correctly.
 */
export function siteCsv(site: SiteRoiFull, tz: number): string {
  const classes = site.allClasses;
  const keys = [...new Set(site.byClass.map((r) => r.class_key))].sort((a, b) => a - b);
  const names = new Map<number, string>();
  for (const c of classes) names.set(c.class_id ?? 0, c.name ?? 'unclassified');
  const header = [
    'bucket_start',
    'bucket_end',
    'rois',
    'volume_l',
    'concentration_per_l',
    'temperature_c',
    'humidity_pct',
    ...keys.map((k) => (k === 0 ? 'unclassified' : (names.get(k) ?? `class_${k}`))),
    // Last, so the columns before keep their places for scripts that read them by position.
    'bucket_start_utc',
    'bucket_end_utc',
  ];
  const perBucket = new Map<string, number>();
  for (const r of site.byClass)
    perBucket.set(`${r.bucket}:${r.class_key}`, (perBucket.get(`${r.bucket}:${r.class_key}`) ?? 0) + r.n);
  const rows: unknown[][] = [header];
  site.buckets.forEach((b, index) => {
    rows.push([
      localIso(b.start, tz),
      localIso(b.start + site.bucket_ms, tz),
      b.count,
      b.volume_l,
      b.concentration_per_l,
      b.temperature_c,
      b.humidity_pct,
      ...keys.map((k) => perBucket.get(`${index}:${k}`) ?? 0),
      utcIso(b.start),
      utcIso(b.start + site.bucket_ms),
    ]);
  });
  return csvText(rows, { bom: true });
}
