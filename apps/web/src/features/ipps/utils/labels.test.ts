import { LANGS, MEASURED_KEYS } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { BUNDLED_STRINGS } from '@/i18n/bundled';
import { MEASURED_FIELDS } from '@/lib/measured';
import { CONFIG_FIELDS } from './config-fields';
import { TELEMETRY_SECTIONS } from './telemetry';

const items = Object.values(TELEMETRY_SECTIONS).flat();

describe('instrument form labels', () => {
  it('exist in both languages for every setting, measured value, unit and state', () => {
    const keys = [
      ...CONFIG_FIELDS.flatMap((field) => [`ipps.config.${field.key}`, ...(field.unitKey ? [field.unitKey] : [])]),
      ...items.map((item) => (item.kind === 'measured' ? `measured.label.${item.key}` : `ipps.telemetry.${item.key}`)),
      ...Object.values(MEASURED_FIELDS).flatMap((field) => (field.unit ? [`measured.unit.${field.unit}`] : [])),
      ...['idle', 'cleaning', 'fault'].map((state) => `measured.wiper.${state}`),
      ...Object.keys(TELEMETRY_SECTIONS).map((section) => `ipps.section.${section}`),
      'ipps.state.applied',
      'ipps.state.pending',
    ];
    for (const lang of LANGS) {
      for (const key of keys) expect(BUNDLED_STRINGS[lang][key], `${lang} ${key}`).toBeTruthy();
    }
  });

  it('show every measured value of the device protocol exactly once', () => {
    const measured = items.flatMap((item) => (item.kind === 'measured' ? [item.key] : []));
    expect(measured.toSorted()).toEqual([...MEASURED_KEYS].sort());
  });
});
