import { describe, expect, it } from 'vitest';
import { countryList, countryName } from './countries';

describe('country map (spec §3)', () => {
  it('names a two-letter code in Chinese and English', () => {
    expect(countryName('CN', 'zh')).toBe('中国');
    expect(countryName('NO', 'en')).toBe('Norway');
    expect(countryName('NO', 'zh')).toBe('挪威');
  });

  it('gives no name for Others ("") or a code the list does not know', () => {
    expect(countryName('', 'zh')).toBeNull();
    expect(countryName('ZZ', 'en')).toBeNull();
    expect(countryName('cn', 'en')).toBeNull();
  });

  it('lists every country once, sorted by name in the language', () => {
    const en = countryList('en');
    expect(en.length).toBeGreaterThan(240);
    expect(new Set(en.map((country) => country.code)).size).toBe(en.length);
    const names = en.map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
    expect(countryList('zh').find((country) => country.code === 'DE')?.name).toBe('德国');
  });
});
