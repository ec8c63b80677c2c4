import { ROI_FLAG_BITS, ROI_FLAG_RULES } from '@ipp/contracts';

/** What the flags read of a telemetry sample. */
export interface FlagSample {
  at: number;
  wiper_state: string | null;
  wiper_last_clean_at: number | null;
  uvc_illuminator_duty_pct: number | null;
  temperature_c: number | null;
}

/**
 * The flags of an ROI captured at `capturedAt` (ROI_FLAGS) from the station's telemetry sample at or before it; none
 * without a sample within ROI_FLAG_RULES.sampleWithinMs (nothing known, nothing flagged).
 */
export function flagBitsOf(sample: FlagSample | undefined | null, capturedAt: number): number {
  if (!sample || capturedAt - Number(sample.at) > ROI_FLAG_RULES.sampleWithinMs) return 0;
  // A clean lasts seconds: the images within wiperSettleMs after one (the one the sample reports, or the sample itself
  // when it caught the wiper cleaning) are flagged, not every image until the next sample.
  const near = (clean: number | null) =>
    clean !== null && capturedAt >= clean && capturedAt - clean <= ROI_FLAG_RULES.wiperSettleMs;
  const cleaning =
    (sample.wiper_state === 'cleaning' && near(Number(sample.at))) ||
    near(sample.wiper_last_clean_at === null ? null : Number(sample.wiper_last_clean_at));
  const uvc = (sample.uvc_illuminator_duty_pct ?? 0) > 0;
  const t = sample.temperature_c;
  const range = ROI_FLAG_RULES.temperatureC;
  const hot = t !== null && (t < range.min || t > range.max);
  return (cleaning ? ROI_FLAG_BITS.wiper : 0) | (uvc ? ROI_FLAG_BITS.uvc : 0) | (hot ? ROI_FLAG_BITS.temperature : 0);
}

/** The cleans a sample tells of: the last clean it reports, and its own time when it caught the wiper cleaning. */
export function cleansOf(sample: Pick<FlagSample, 'at' | 'wiper_state' | 'wiper_last_clean_at'>): number[] {
  const out = new Set<number>();
  if (sample.wiper_last_clean_at !== null) out.add(Number(sample.wiper_last_clean_at));
  if (sample.wiper_state === 'cleaning') out.add(Number(sample.at));
  return [...out];
}
