import { describe, expect, it } from 'vitest';
import { formatConfidence, formatCount, formatFileSize, formatSignificant, formatTime } from './format';

describe('formatCount (spec §9)', () => {
  it('shows counts below 10000 as they are', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(9999)).toBe('9999');
  });

  it('divides counts of 10000 or more by 10000 with two decimals, in the caller’s unit', () => {
    expect(formatCount(10_000)).toBe('1.00');
    expect(formatCount(12_345, (value) => `${value} 万`)).toBe('1.23 万');
    expect(formatCount(1_234_567, (value) => `${value} × 10⁴`)).toBe('123.46 × 10⁴');
  });

  it('leaves small counts without the unit', () => {
    expect(formatCount(42, (value) => `${value} 万`)).toBe('42');
  });
});

describe('formatFileSize (spec §9)', () => {
  it('shows KB up to 1,224,000 bytes', () => {
    expect(formatFileSize(0)).toBe('0.00 KB');
    expect(formatFileSize(2048)).toBe('2.00 KB');
    expect(formatFileSize(1_224_000)).toBe('1195.31 KB');
  });

  it('shows MB above 1,224,000 bytes', () => {
    expect(formatFileSize(1_224_001)).toBe('1.17 MB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.00 MB');
  });
});

describe('formatTime', () => {
  it('shows a dash for no time', () => {
    expect(formatTime(null)).toBe('—');
    expect(formatTime(0)).toBe('—');
  });
});

describe('formatConfidence', () => {
  it('says a calibrated probability near certainty is above 99.9 %, never 100 %', () => {
    expect(formatConfidence(0.873)).toBe('87.3 %');
    expect(formatConfidence(0.9999)).toBe('> 99.9 %');
    expect(formatConfidence(0.9994)).toBe('99.9 %');
    expect(formatConfidence(1)).toBe('100.0 %');
    expect(formatConfidence(0)).toBe('0.0 %');
  });
});

describe('formatSignificant', () => {
  it('keeps three significant figures of small concentrations and large ones, zero as 0', () => {
    expect(formatSignificant(0.0012345)).toBe('0.00123');
    expect(formatSignificant(0.1)).toBe('0.1');
    expect(formatSignificant(0)).toBe('0');
    expect(formatSignificant(2572.4)).toBe('2570');
    expect(formatSignificant(0.0000123)).toBe('1.23e-5');
    expect(formatSignificant(-0.0456)).toBe('-0.0456');
  });
});
