import { describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { roiSize, sizeText } from './roi-size';

describe('particle size', () => {
  it('gives the area in px² and, with a pixel size, the equivalent circular diameter in µm', () => {
    expect(roiSize(2345, null)).toEqual({ px: '2345 px²', esdUm: null });
    // 2·√(2345/π) = 54.64 px; at 2 µm per pixel 109.3 µm.
    expect(roiSize(2345, 2)).toEqual({ px: '2345 px²', esdUm: '109' });
    // A disc of diameter 10 px covers 79 whole pixels: 2·√(79/π) = 10.03 px, at 0.5 µm/px 5.01 µm.
    expect(roiSize(79, 0.5).esdUm).toBe('5.01');
  });

  it('writes it in the interface language', async () => {
    await setLanguage('en');
    expect(sizeText({ size_px: 2345, pixel_size_um: 2 }, i18n.t)).toBe('2345 px² (ESD 109 µm)');
    expect(sizeText({ size_px: 2345, pixel_size_um: null }, i18n.t)).toBe('2345 px²');
    await setLanguage('zh');
    expect(sizeText({ size_px: 2345, pixel_size_um: 2 }, i18n.t)).toBe('2345 px²（等效直径 109 µm）');
  });
});
