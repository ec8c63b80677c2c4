import { z } from 'zod';

/**
 * The head every answer about one station over a period in buckets starts with (the site page's histogram, ecology,
 * completeness, telemetry trends): which station, the period [start, end] and the bucket width, all in ms.
 */
export const siteSeriesHead = {
  ipp_id: z.number().int(),
  dev_id: z.string(),
  site_name: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  bucket_ms: z.number().int(),
};
