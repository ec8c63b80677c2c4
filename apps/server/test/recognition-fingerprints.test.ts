/**
 * Fingerprints of the per-image work of recognition over a wide real sample (issue 39): every 40th image of
 * ../shared/data/pwssc-spc-more in labels.csv order (about 240 images, 20-2,800 px across, every class). For each, the
 * sha256 of the measured features (Float32 bytes, with the measures) and of the network's input (pixels and size) is
 * compared with test/fixtures/recognition-fingerprints.json, recorded from the code before issue 39 made this work
 * cheaper; so are six synthetic images of the layouts the PWSSC files never use (grey, grey + alpha, RGBA; small and
 * larger than the working side). The golden test (recognition-features-golden.test.ts) names the feature that moved on a few images; this one
 * says that a speed-up changed nothing on the many, bit for bit.
 *
 * The folder is required: this test fails when it is missing. When the vector changes on purpose, regenerate with
 *   cd apps/server && UPDATE_GOLDEN=1 npx vitest run --config vitest.config.ts test/recognition-fingerprints.test.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { netInputOf } from '../src/modules/recognition/embedding/net-input.ts';
import {
  decodeImage,
  FEATURE_VERSION,
  featuresOfPixels,
  greyOf,
  type Measures,
  type RawImage,
} from '../src/modules/recognition/features.ts';
import { mulberry32 } from '../src/lib/random.ts';
import { PWSSC_MORE as MORE, sampledImages } from './helpers/shared-images.ts';

const FILE = path.join(import.meta.dirname, 'fixtures/recognition-fingerprints.json');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const EVERY = 40;

interface Fingerprints {
  feature_version: number;
  images: Record<string, { features: string; net_input: string }>;
}

const hex = (...parts: (Uint8Array | string)[]) => {
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex').slice(0, 32);
};

/**
 * Synthetic images for the layouts the PWSSC files (all 8-bit RGB) never use: grey, grey + alpha and RGBA, each
 * small (measured at full size) and longer than the 400 px working side (area-averaged).
 */
function synthetic(): { name: string; img: RawImage }[] {
  const out: { name: string; img: RawImage }[] = [];
  for (const channels of [1, 2, 4]) {
    for (const [width, height] of [
      [150, 110],
      [700, 260],
    ] as const) {
      const random = mulberry32(channels * 1000 + width);
      const data = new Uint8Array(width * height * channels);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const u = (x - width / 2) / (width * 0.4);
          const v = (y - height / 2) / (height * (0.25 + 0.1 * Math.sin(x / 17)));
          const inside = u * u + v * v <= 1;
          const level = inside ? 40 + 150 * (1 - Math.abs(v)) + 50 * random() : 3 * random();
          const p = (y * width + x) * channels;
          for (let c = 0; c < Math.min(channels, 3); c++) data[p + c] = Math.round(level * (1 - 0.2 * c));
          if (channels === 2) data[p + 1] = inside ? 255 - Math.round(60 * random()) : 255;
          if (channels === 4) data[p + 3] = inside ? 160 + Math.round(95 * random()) : 255;
        }
      }
      out.push({ name: `synthetic ${channels} channel(s) ${width}x${height}`, img: { data, width, height, channels } });
    }
  }
  return out;
}

describe('recognition fingerprints over a wide real sample', () => {
  it('computes the features and network input of every sampled image bit for bit as recorded', { timeout: 120_000 }, async () => {
    const files = sampledImages(MORE, EVERY);
    expect(files.length).toBeGreaterThan(200);
    const got: Fingerprints = { feature_version: FEATURE_VERSION, images: {} };
    const inputs: { name: string; img: () => Promise<RawImage> | RawImage }[] = [
      ...files.map((file) => ({ name: file, img: async () => decodeImage(fs.readFileSync(path.join(MORE, file))) })),
      ...synthetic().map(({ name, img }) => ({ name, img: () => img })),
    ];
    for (const input of inputs) {
      const img = await input.img();
      // As vector.ts runs them: one grey plane for both.
      const grey = greyOf(img);
      const f = featuresOfPixels(img, { grey });
      const measures = Object.keys(f.measures)
        .sort()
        .map((k) => `${k}=${Object.is(f.measures[k as keyof Measures], -0) ? '-0' : f.measures[k as keyof Measures]}`)
        .join(';');
      const net = netInputOf(img, undefined, grey);
      got.images[input.name] = {
        features: hex(new Uint8Array(f.values.buffer, f.values.byteOffset, f.values.byteLength), measures),
        net_input: hex(net.pixels, net.size.join(',')),
      };
    }
    if (UPDATE) {
      fs.writeFileSync(FILE, `${JSON.stringify(got, null, 2)}\n`);
      return;
    }
    const want = JSON.parse(fs.readFileSync(FILE, 'utf8')) as Fingerprints;
    expect(got.feature_version).toBe(want.feature_version);
    const moved = Object.keys(want.images).filter(
      (file) =>
        got.images[file]?.features !== want.images[file]!.features ||
        got.images[file]?.net_input !== want.images[file]!.net_input,
    );
    expect(Object.keys(got.images).sort()).toEqual(Object.keys(want.images).sort());
    expect(moved, `images whose features or network input moved: ${moved.slice(0, 10).join(', ')}`).toEqual([]);
  });
});
