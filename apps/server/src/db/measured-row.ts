import { MEASURED_KEYS, type Measured } from '@ipp/contracts';

/** A telemetry row (or the stored latest sample) as the Measured contract. */
export function measuredFromRow(row: Record<string, unknown> & { at: number }): Measured {
  const out: Record<string, unknown> = { at: Number(row.at) };
  for (const key of MEASURED_KEYS) {
    const value = row[key];
    out[key] = value === null || value === undefined ? null : key === 'wiper_state' ? value : Number(value);
  }
  return out as Measured;
}
