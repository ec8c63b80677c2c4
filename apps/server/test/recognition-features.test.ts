import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  FEATURE_NAMES,
  FEATURE_VERSION,
  decodeImage,
  enhanceImage,
  featuresOfImage,
  featuresOfPixels,
  type RawImage,
} from '../src/modules/recognition/features.ts';
import { mulberry32 } from '../src/lib/random.ts';

function canvas(width: number, height: number, channels = 1): RawImage {
  return { data: new Uint8Array(width * height * channels), width, height, channels };
}

/** Paints every pixel whose centre satisfies `inside` with `value` (all channels). */
function paint(img: RawImage, inside: (x: number, y: number) => boolean, value: number | number[]) {
  const values = Array.isArray(value) ? value : new Array<number>(img.channels).fill(value);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (!inside(x, y)) continue;
      for (let c = 0; c < img.channels; c++) img.data[(y * img.width + x) * img.channels + c] = values[c]!;
    }
  }
  return img;
}

const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const feature = (values: Float32Array, name: string) => {
  const i = FEATURE_NAMES.indexOf(name);
  if (i < 0) throw new Error(`no feature ${name}`);
  return values[i]!;
};
const allFinite = (values: Float32Array) => values.every((v) => Number.isFinite(v));

describe('feature vector', () => {
  it('has one unique name per entry and a version', () => {
    const { values, version } = featuresOfPixels(paint(canvas(40, 40), disc(20, 20, 8), 120));
    expect(values.length).toBe(FEATURE_NAMES.length);
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_NAMES.length);
    expect(version).toBe(FEATURE_VERSION);
    expect(allFinite(values)).toBe(true);
  });
});

describe('morphology of drawn shapes', () => {
  it('measures a filled disc: area πr², diameter 2r, round, convex', () => {
    const r = 30;
    const { measures: m, values } = featuresOfPixels(paint(canvas(120, 100), disc(60, 50, r), 200));
    expect(m.area_px / (Math.PI * r * r)).toBeCloseTo(1, 1);
    expect(m.equivalent_diameter_px).toBeCloseTo(2 * r, 0);
    expect(m.major_axis_px).toBeCloseTo(2 * r, 0);
    expect(m.minor_axis_px).toBeCloseTo(2 * r, 0);
    expect(m.circularity).toBeGreaterThan(0.95);
    expect(m.solidity).toBeGreaterThan(0.98);
    expect(m.convexity).toBeGreaterThan(0.98);
    expect(m.eccentricity).toBeLessThan(0.1);
    expect(m.perimeter_px / (2 * Math.PI * r)).toBeCloseTo(1, 1);
    expect(m.feret_px).toBeGreaterThan(2 * r);
    expect(m.feret_px).toBeLessThan(2 * r + 2);
    expect(m.biovolume_px3).toBeCloseTo((Math.PI / 6) * m.major_axis_px * m.minor_axis_px ** 2, 3);
    expect(feature(values, 'hole_share')).toBe(0);
  });

  it('measures an ellipse: axes 2a and 2b, eccentricity √(1 − b²/a²)', () => {
    const a = 40;
    const b = 15;
    const { measures: m } = featuresOfPixels(
      paint(canvas(120, 100), (x, y) => ((x - 60) / a) ** 2 + ((y - 50) / b) ** 2 <= 1, 150),
    );
    expect(m.major_axis_px).toBeCloseTo(2 * a, 0);
    expect(Math.abs(m.minor_axis_px - 2 * b)).toBeLessThan(0.5);
    expect(m.eccentricity).toBeCloseTo(Math.sqrt(1 - (b / a) ** 2), 2);
    expect(m.elongation).toBeCloseTo(a / b, 1);
    expect(m.area_px / (Math.PI * a * b)).toBeCloseTo(1, 1);
  });

  it('finds the same axes whatever the orientation', () => {
    const t = Math.PI / 6;
    const inside = (x: number, y: number) => {
      const u = (x - 60) * Math.cos(t) + (y - 60) * Math.sin(t);
      const v = -(x - 60) * Math.sin(t) + (y - 60) * Math.cos(t);
      return (u / 40) ** 2 + (v / 12) ** 2 <= 1;
    };
    const { measures: m } = featuresOfPixels(paint(canvas(120, 120), inside, 150));
    expect(m.major_axis_px).toBeCloseTo(80, 0);
    expect(Math.abs(m.minor_axis_px - 24)).toBeLessThan(0.5);
  });

  it("measures a square's Feret diameter as its diagonal", () => {
    const side = 40;
    const { measures: m } = featuresOfPixels(
      paint(canvas(100, 100), (x, y) => x >= 30 && x < 30 + side && y >= 20 && y < 20 + side, 90),
    );
    expect(m.area_px).toBe(side * side);
    expect(m.feret_px).toBeCloseTo(side * Math.SQRT2, 1);
    expect(m.solidity).toBe(1);
    expect(m.circularity).toBeLessThan(0.9);
  });

  it('fills holes: a ring measures as the disc it encloses', () => {
    const ring = (x: number, y: number) => disc(50, 50, 25)(x, y) && !disc(50, 50, 15)(x, y);
    const full = featuresOfPixels(paint(canvas(100, 100), disc(50, 50, 25), 180));
    const { measures, values } = featuresOfPixels(paint(canvas(100, 100), ring, 180));
    expect(measures.area_px).toBe(full.measures.area_px);
    expect(feature(values, 'hole_share')).toBeCloseTo((Math.PI * 15 * 15) / (Math.PI * 25 * 25), 1);
  });

  it('measures the larger of two blobs', () => {
    const img = paint(canvas(150, 80), disc(40, 40, 20), 150);
    paint(img, disc(115, 40, 8), 250);
    const { measures, values } = featuresOfPixels(img);
    expect(measures.equivalent_diameter_px).toBeCloseTo(40, 0);
    expect(measures.mean_intensity).toBe(150);
    expect(Math.exp(feature(values, 'components_log')) - 1).toBeCloseTo(2, 5);
    expect(feature(values, 'largest_share')).toBeLessThan(1);
  });

  it('treats a thin line as long and thin', () => {
    const { measures: m, values } = featuresOfPixels(paint(canvas(100, 30), (x, y) => y === 15 && x >= 10 && x < 90, 200));
    expect(m.area_px).toBe(80);
    expect(m.feret_px).toBeCloseTo(80, 0);
    expect(m.elongation).toBeGreaterThan(50);
    expect(feature(values, 'thin_share')).toBe(1);
  });
});

describe('grey level and colour', () => {
  it('gives the mean and no spread for a uniform object', () => {
    const { measures, values } = featuresOfPixels(paint(canvas(60, 60), disc(30, 30, 12), 137));
    expect(measures.mean_intensity).toBe(137);
    expect(feature(values, 'intensity_mean')).toBe(137);
    expect(feature(values, 'intensity_std')).toBe(0);
    expect(feature(values, 'intensity_p50')).toBe(137);
  });

  it('gives the standard deviation of a two-level object', () => {
    // Left half 100, right half 200: mean 150, standard deviation 50.
    const img = paint(canvas(60, 40), (x, y) => x >= 10 && x < 50 && y >= 10 && y < 30, 100);
    paint(img, (x, y) => x >= 30 && x < 50 && y >= 10 && y < 30, 200);
    const { values } = featuresOfPixels(img);
    expect(feature(values, 'intensity_mean')).toBeCloseTo(150, 3);
    expect(feature(values, 'intensity_std')).toBeCloseTo(50, 3);
    expect(feature(values, 'intensity_skew')).toBeCloseTo(0, 3);
  });

  it('reads colour: a red object has a red chromaticity', () => {
    const { values } = featuresOfPixels(paint(canvas(50, 50, 3), disc(25, 25, 10), [200, 40, 40]));
    expect(feature(values, 'chroma_r')).toBeCloseTo(200 / 280, 3);
    expect(feature(values, 'opponent_rg_mean')).toBeCloseTo(160 / 255, 3);
    const grey = featuresOfPixels(paint(canvas(50, 50, 3), disc(25, 25, 10), [90, 90, 90])).values;
    expect(feature(grey, 'chroma_r')).toBeCloseTo(1 / 3, 5);
    expect(feature(grey, 'saturation_mean')).toBe(0);
  });

  it('treats transparent pixels as background', () => {
    const img = paint(canvas(40, 40, 4), () => true, [255, 255, 255, 0]);
    paint(img, disc(20, 20, 8), [180, 180, 180, 255]);
    const { measures } = featuresOfPixels(img);
    expect(measures.equivalent_diameter_px).toBeCloseTo(16, 0);
  });
});

describe('segmentation threshold', () => {
  it('counts grey levels at least `threshold` above the background as object', () => {
    // A bright core (r 10) in a dim halo (r 20, 5 grey levels above the background of 10).
    const img = paint(canvas(80, 80), () => true, 10);
    paint(img, disc(40, 40, 20), 15);
    paint(img, disc(40, 40, 10), 100);
    const low = featuresOfPixels(img, { threshold: 3 }).measures;
    const high = featuresOfPixels(img, { threshold: 20 }).measures;
    expect(low.equivalent_diameter_px).toBeCloseTo(40, 0);
    expect(high.equivalent_diameter_px).toBeCloseTo(20, 0);
    // The default is the instruments' 3.
    expect(featuresOfPixels(img).measures.area_px).toBe(low.area_px);
  });

  it("falls back to Otsu's threshold when the configured one sits in the noise", () => {
    // Background noise 0-9 everywhere, a disc of 120: threshold 1 would mark most of the frame.
    const img = canvas(80, 80);
    const r = mulberry32(7);
    for (let i = 0; i < img.data.length; i++) img.data[i] = Math.floor(r() * 10);
    paint(img, disc(40, 40, 15), 120);
    const { measures, values } = featuresOfPixels(img, { threshold: 1 });
    expect(feature(values, 'segmentation_fallback')).toBe(1);
    expect(measures.equivalent_diameter_px).toBeCloseTo(30, 0);
  });
});

describe('degenerate images', () => {
  it('gives zeros for an all-black image', () => {
    const { values, measures } = featuresOfPixels(canvas(64, 48, 3));
    expect(values.every((v) => v === 0)).toBe(true);
    expect(Object.values(measures).every((v) => v === 0)).toBe(true);
  });

  it('handles 1×1 and empty images', () => {
    for (const img of [canvas(1, 1), paint(canvas(1, 1), () => true, 255), canvas(0, 0), canvas(3, 1, 3)]) {
      const { values, measures } = featuresOfPixels(img);
      expect(values.length).toBe(FEATURE_NAMES.length);
      expect(allFinite(values)).toBe(true);
      expect(Object.values(measures).every(Number.isFinite)).toBe(true);
    }
  });

  it('measures a single bright pixel', () => {
    const { values, measures } = featuresOfPixels(paint(canvas(5, 5), (x, y) => x === 2 && y === 2, 100));
    expect(measures.area_px).toBe(1);
    expect(allFinite(values)).toBe(true);
  });

  it('rejects pixel data shorter than its dimensions', () => {
    expect(() => featuresOfPixels({ data: new Uint8Array(10), width: 10, height: 10, channels: 1 })).toThrow(RangeError);
    expect(() => featuresOfPixels({ data: new Uint8Array(10), width: 10, height: 1, channels: 5 })).toThrow(RangeError);
  });

  it('measures a 2808-px-wide image quickly and in image pixels', () => {
    const width = 2808;
    const height = 1200;
    const img = paint(canvas(width, height, 3), (x, y) => ((x - 1400) / 1200) ** 2 + ((y - 600) / 400) ** 2 <= 1, [150, 140, 90]);
    const t0 = performance.now();
    const { values, measures } = featuresOfPixels(img);
    const ms = performance.now() - t0;
    expect(allFinite(values)).toBe(true);
    expect(measures.major_axis_px).toBeCloseTo(2400, -1);
    expect(measures.minor_axis_px).toBeCloseTo(800, -1);
    expect(measures.area_px / (Math.PI * 1200 * 400)).toBeCloseTo(1, 2);
    expect(ms).toBeLessThan(4000);
  });
});

describe('decoding and enhancement', () => {
  it('decodes a PNG and measures it like its pixels', async () => {
    const img = paint(canvas(64, 64, 3), disc(32, 32, 14), [160, 150, 100]);
    const png = await sharp(Buffer.from(img.data), { raw: { width: 64, height: 64, channels: 3 } })
      .png()
      .toBuffer();
    const decoded = await decodeImage(png);
    expect([decoded.width, decoded.height, decoded.channels]).toEqual([64, 64, 3]);
    expect((await featuresOfImage(png)).values).toEqual(featuresOfPixels(img).values);
  });

  it('decodes a 16-bit PNG to 8 bits', async () => {
    const png = await sharp(Buffer.from(paint(canvas(32, 32), disc(16, 16, 8), 200).data), {
      raw: { width: 32, height: 32, channels: 1 },
    })
      .toColourspace('grey16')
      .png()
      .toBuffer();
    const decoded = await decodeImage(png);
    expect(Math.max(...decoded.data)).toBeGreaterThan(150);
    expect(Math.max(...decoded.data)).toBeLessThanOrEqual(255);
  });

  it('renders a brighter PNG of the same size that keeps the background dark', async () => {
    const img = paint(canvas(48, 48, 3), disc(24, 24, 12), [40, 30, 20]);
    const png = await sharp(Buffer.from(img.data), { raw: { width: 48, height: 48, channels: 3 } })
      .png()
      .toBuffer();
    const out = await enhanceImage(png);
    const meta = await sharp(out).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 48, 48]);
    const px = await decodeImage(out);
    const centre = (24 * 48 + 24) * px.channels;
    expect(px.data[centre]!).toBeGreaterThan(200);
    // Hue kept: red stays above green above blue.
    expect(px.data[centre]!).toBeGreaterThan(px.data[centre + 1]!);
    expect(px.data[centre + 1]!).toBeGreaterThan(px.data[centre + 2]!);
    expect(px.data[0]).toBe(0);
  });
});
