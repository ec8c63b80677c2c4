import dayjs from 'dayjs';

/** Epoch milliseconds as local date and time; '—' for none. */
export function formatTime(ms: number | null | undefined): string {
  return ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '—';
}

/** Spec §9: counts of 10000 or more are shown in units of 10,000 with two decimals. */
export const COUNT_UNIT = 10_000;

/**
 * A count as the spec shows it: below 10000 as is, otherwise divided by 10000 with two decimals and
 * passed to `inTenThousands` so the caller adds the unit in its language ("1.23 万", "1.23 × 10⁴").
 */
export function formatCount(count: number, inTenThousands: (value: string) => string = (value) => value): string {
  if (count < COUNT_UNIT) return String(count);
  return inTenThousands((count / COUNT_UNIT).toFixed(2));
}

/** Spec §9: sizes above 1,224,000 bytes are shown in MB, the others in KB. */
export const FILE_SIZE_MB_ABOVE = 1_224_000;

export function formatFileSize(bytes: number): string {
  if (bytes > FILE_SIZE_MB_ABOVE) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  return `${(bytes / 1024).toFixed(2)} KB`;
}

/**
 * A measured value to `digits` significant figures (concentrations of 0.001-0.1 ind/L keep their digits where a fixed
 * two decimals read "0.01" or "0"); exponent notation outside 10⁻⁴-10⁶. Zero reads "0".
 */
export function formatSignificant(value: number, digits = 3): string {
  if (value === 0 || !Number.isFinite(value)) return String(value === 0 ? 0 : value);
  const abs = Math.abs(value);
  return abs >= 1e-4 && abs < 1e6 ? String(Number(value.toPrecision(digits))) : value.toExponential(digits - 1);
}

/**
 * A confidence (0-1) in %, one decimal. A model's calibrated probability is never certainty (it stops at 99.99%),
 * so one that would round to 100 reads "> 99.9 %"; an instrument's 1 reads "100.0 %".
 */
export function formatConfidence(share: number): string {
  return share < 1 && share >= 0.9995 ? '> 99.9 %' : `${(share * 100).toFixed(1)} %`;
}
