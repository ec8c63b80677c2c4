import { LANGS } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { BUNDLED_STRINGS } from '@/i18n';
import { CONFIG_FIELDS } from './config-fields';
import { TELEMETRY_SECTIONS } from './telemetry';

describe('instrument form labels', () => {
  it('exist in both languages for every setting, measured value and unit', () => {
    const keys = [
      ...CONFIG_FIELDS.flatMap((field) => [`ipps.config.${field.key}`, ...(field.unitKey ? [field.unitKey] : [])]),
      ...Object.values(TELEMETRY_SECTIONS)
        .flat()
        .flatMap((item) => [`ipps.telemetry.${item.key}`, ...(item.unitKey ? [item.unitKey] : [])]),
      ...Object.keys(TELEMETRY_SECTIONS).map((section) => `ipps.section.${section}`),
    ];
    for (const lang of LANGS) {
      for (const key of keys) expect(BUNDLED_STRINGS[lang][key], `${lang} ${key}`).toBeTruthy();
    }
  });
});
