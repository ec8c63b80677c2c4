import type { NbssSeries } from '@ipp/contracts';
import { csvText } from '@ipp/contracts/csv';
import { localIso, utcIso } from '../rois/site-csv.ts';
import type { SiteEcologyFull } from './ecology.service.ts';

const lines = (rows: unknown[][]) => csvText(rows, { bom: true });

/** What the selection holds, on every row so a row copied elsewhere still says it. */
function selectionName(site: SiteEcologyFull) {
  if (site.selected.length === 0) return 'all classes';
  const names = new Map(site.classes.map((c) => [c.class_id ?? 0, c.name ?? 'unclassified']));
  return site.selected.map((key) => (key === 0 ? 'unclassified' : (names.get(key) ?? `class_${key}`))).join('; ');
}

/** One row per time bucket: water sampled, ROIs of the selection, concentration, biovolume and its concentration. */
export function ecologySeriesCsv(site: SiteEcologyFull, tz: number): string {
  const selection = selectionName(site);
  return lines([
    [
      'station',
      'classes',
      'bucket_start',
      'bucket_end',
      'volume_l',
      'rois',
      'concentration_per_l',
      'pixel_size_um',
      'biovolume_mm3',
      'biovolume_mm3_per_l',
      'bucket_start_utc',
      'bucket_end_utc',
    ],
    ...site.buckets.map((b) => [
      site.dev_id,
      selection,
      localIso(b.start, tz),
      localIso(b.start + site.bucket_ms, tz),
      b.volume_l,
      b.count,
      b.concentration_per_l,
      site.pixel_size_um,
      b.biovolume_mm3,
      b.biovolume_mm3_per_l,
      utcIso(b.start),
      utcIso(b.start + site.bucket_ms),
    ]),
  ]);
}

/** One row per series and size class of the NBSS over the period (no rows without a pixel size or water). */
export function ecologyNbssCsv(site: SiteEcologyFull, tz: number): string {
  const seriesName = (s: NbssSeries) => (s.total ? `total: ${selectionName(site)}` : (s.name ?? 'unclassified'));
  return lines([
    [
      'station',
      'series',
      'period_start',
      'period_end',
      'volume_l',
      'pixel_size_um',
      'size_class',
      'biovolume_min_mm3',
      'biovolume_max_mm3',
      'esd_um',
      'rois',
      'biovolume_mm3',
      'nbss_per_l',
      'slope',
      'period_start_utc',
      'period_end_utc',
    ],
    ...site.nbss.flatMap((s) =>
      s.points.map((p) => [
        site.dev_id,
        seriesName(s),
        localIso(site.start, tz),
        localIso(site.end, tz),
        site.volume_l,
        site.pixel_size_um,
        p.size_class,
        p.min_mm3,
        p.max_mm3,
        p.esd_um,
        p.count,
        p.biovolume_mm3,
        p.nbss_per_l,
        s.slope,
        utcIso(site.start),
        utcIso(site.end),
      ]),
    ),
  ]);
}
