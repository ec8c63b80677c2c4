import { MEASURED_KEYS } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { formatCount } from './format';
import { formatMeasured, MEASURED_FIELDS } from './measured';

const text = { t: (key: string) => `<${key}>`, formatCount: (count: number) => formatCount(count, (v) => `${v} 万`) };

describe('measured values', () => {
  it('have a way to be shown for every key of the device protocol', () => {
    expect(Object.keys(MEASURED_FIELDS).sort()).toEqual([...MEASURED_KEYS].sort());
  });

  it('carry their unit and at most the meaningful decimals', () => {
    expect(formatMeasured('temperature_c', 21.46, text)).toBe('21.5 <measured.unit.celsius>');
    expect(formatMeasured('humidity_pct', 40, text)).toBe('40 <measured.unit.rh>');
    expect(formatMeasured('uvc_current_a', 0.3514, text)).toBe('0.351 <measured.unit.a>');
    expect(formatMeasured('volume_total_l', 1523.456, text)).toBe('1523.46 <measured.unit.l>');
  });

  it('write counts (spec §9), times and wiper states', () => {
    expect(formatMeasured('wiper_clean_count', 12_345, text)).toBe('1.23 万');
    expect(formatMeasured('wiper_clean_count', 42, text)).toBe('42');
    expect(formatMeasured('wiper_last_clean_at', new Date(2026, 2, 5, 7).getTime(), text)).toBe('2026-03-05 07:00:00');
    expect(formatMeasured('wiper_state', 'cleaning', text)).toBe('<measured.wiper.cleaning>');
  });

  it('say "—" for what the device did not report', () => {
    expect(formatMeasured('cpu_temp_c', null, text)).toBe('—');
    expect(formatMeasured('wiper_state', undefined, text)).toBe('—');
  });
});
