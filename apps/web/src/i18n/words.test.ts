import { describe, expect, it } from 'vitest';
import en from './en.json';
import zh from './zh.json';

/** Words of issue 20: one name per UV-C part, SI-style byte units, and a storage reading that says what it is. */
describe('instrument words', () => {
  const UVC_PARTS = [
    'uvc_port_frequency_hz',
    'uvc_port_duty_pct',
    'uvc_illuminator_frequency_hz',
    'uvc_illuminator_duty_pct',
  ] as const;

  it('names each UV-C part the same in its configuration and in its measured reading', () => {
    for (const [lang, strings] of [
      ['zh', zh],
      ['en', en],
    ] as const) {
      for (const key of UVC_PARTS) {
        const configured = strings.ipps.config[key];
        const measured = strings.measured.label[key];
        expect(measured.replace(/（实测）| \(measured\)/, ''), `${lang} ${key}`).toBe(configured);
      }
    }
  });

  it('writes MB and GB, and says the storage reading is free space and the RAM reading is in use', () => {
    for (const strings of [zh, en]) {
      expect(strings.measured.unit.mb).toBe('MB');
      expect(strings.measured.unit.gb).toBe('GB');
    }
    expect(en.measured.label.storage_gb).toBe('Free storage');
    expect(zh.measured.label.storage_gb).toBe('可用存储');
    expect(en.measured.label.ram_mb).toBe('RAM in use');
    expect(zh.measured.label.ram_mb).toBe('已用内存');
  });
});
