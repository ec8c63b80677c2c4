import { SYSTEM_CLASSES } from '@ipp/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/lib/random.ts';
import { PLANKTON_KIND_NAMES, PLANKTON_KINDS, pickKind, renderRoi } from '../../src/simulator/render.ts';

describe('synthetic ROI renderer', () => {
  it('maps every kind to the label index of the system class of the same name', () => {
    expect(PLANKTON_KIND_NAMES).toHaveLength(SYSTEM_CLASSES.length);
    for (const kind of PLANKTON_KIND_NAMES) {
      const cls = SYSTEM_CLASSES.find((c) => c.label_index === PLANKTON_KINDS[kind]);
      expect(cls?.name.slice(3).toLowerCase(), kind).toBe(kind);
    }
  });

  it.each(PLANKTON_KIND_NAMES)(
    'renders %s as a greyscale PNG of the stated size, dark background, bright organism',
    async (kind) => {
      for (const seed of [1, 2, 3]) {
        const roi = await renderRoi(kind, seed);
        expect(roi.png.subarray(1, 4).toString('latin1')).toBe('PNG');
        const meta = await sharp(roi.png).metadata();
        expect(meta).toMatchObject({ format: 'png', width: roi.width, height: roi.height, channels: 1 });
        expect(roi.width).toBeGreaterThanOrEqual(64);
        expect(roi.width).toBeLessThanOrEqual(360);
        expect(roi.height).toBeGreaterThanOrEqual(64);
        expect(roi.labelIndex).toBe(PLANKTON_KINDS[kind]);
        // The particle is part of the picture, never all of it.
        expect(roi.sizePx).toBeGreaterThan(500);
        expect(roi.sizePx).toBeLessThan(roi.width * roi.height * 0.8);

        const { data } = await sharp(roi.png).raw().toBuffer({ resolveWithObject: true });
        const sorted = Uint8Array.from(data).sort();
        const median = sorted[Math.floor(sorted.length / 2)] as number;
        const brightest = sorted[Math.floor(sorted.length * 0.995)] as number;
        expect(median).toBeLessThan(50);
        expect(brightest - median).toBeGreaterThan(60);
      }
    },
  );

  it('is deterministic for a seed and differs between seeds', async () => {
    for (const kind of PLANKTON_KIND_NAMES) {
      const a = await renderRoi(kind, 42);
      const b = await renderRoi(kind, 42);
      const c = await renderRoi(kind, 43);
      expect(b.png.equals(a.png), kind).toBe(true);
      expect(b.sizePx).toBe(a.sizePx);
      expect(c.png.equals(a.png), kind).toBe(false);
    }
  });

  it('varies the shape between seeds and keeps most particles above the default size filter (2000 px)', async () => {
    const sizes: number[] = [];
    const widths = new Set<number>();
    for (let seed = 0; seed < 80; seed++) {
      const roi = await renderRoi(
        PLANKTON_KIND_NAMES[seed % PLANKTON_KIND_NAMES.length] as (typeof PLANKTON_KIND_NAMES)[number],
        seed,
      );
      sizes.push(roi.sizePx);
      widths.add(roi.width);
    }
    expect(widths.size).toBeGreaterThan(40);
    expect(sizes.filter((s) => s >= 2000).length / sizes.length).toBeGreaterThan(0.85);
    expect(Math.max(...sizes)).toBeLessThan(360 * 360);
  });

  it('picks a plausible class mix: copepods and detritus common, medusae rare', () => {
    const rng = mulberry32(7);
    const counts = Object.fromEntries(PLANKTON_KIND_NAMES.map((k) => [k, 0])) as Record<string, number>;
    for (let i = 0; i < 10_000; i++) counts[pickKind(rng)]!++;
    for (const kind of PLANKTON_KIND_NAMES) expect(counts[kind], kind).toBeGreaterThan(0);
    expect(counts.copepod).toBeGreaterThan(counts.diatom_chain!);
    expect(counts.detritus).toBeGreaterThan(counts.dinoflagellate!);
    for (const kind of PLANKTON_KIND_NAMES.filter((k) => k !== 'medusa')) expect(counts.medusa).toBeLessThan(counts[kind]!);
  });

  it('mulberry32 repeats its sequence for a seed and stays in [0, 1)', () => {
    const a = mulberry32(123);
    const b = mulberry32(123);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(new Set(xs).size).toBe(1000);
  });
});
