/**
 * An upload is decoded once (issue 39): inspectImage's pixels are what recognition measures, and its thumbnail is made
 * from them. Both must equal what the two separate decodes gave before: the pixels of decodeImage, and the thumbnail
 * made from the file itself: byte for byte for PNG (real PWSSC images, grey and RGBA files), within rounding for WebP
 * and JPEG, which libvips shrinks while loading.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../src/modules/recognition/features.ts';
import { inspectImage, THUMB_SIZE } from '../src/modules/rois/images.ts';
import { PWSSC, sampledImages } from './helpers/shared-images.ts';

function realImages(): Buffer[] {
  return sampledImages(PWSSC, 40).map((f) => fs.readFileSync(path.join(PWSSC, f)));
}

/** Smooth grey and RGBA pictures (an organism-like blob on gradients), as PNG, WebP and JPEG files. */
async function syntheticImages(): Promise<Buffer[]> {
  const grey = Buffer.alloc(300 * 200);
  for (let y = 0; y < 200; y++)
    for (let x = 0; x < 300; x++) grey[y * 300 + x] = Math.max(0, 200 - Math.hypot(x - 150, (y - 100) * 1.5));
  const rgba = Buffer.alloc(240 * 180 * 4);
  for (let y = 0; y < 180; y++) {
    for (let x = 0; x < 240; x++) {
      const p = (y * 240 + x) * 4;
      rgba[p] = x;
      rgba[p + 1] = y;
      rgba[p + 2] = (x + y) >> 1;
      rgba[p + 3] = 128 + (x >> 1);
    }
  }
  const raw = (b: Buffer, width: number, height: number, channels: 1 | 4) => sharp(b, { raw: { width, height, channels } });
  return [
    await raw(grey, 300, 200, 1).png().toBuffer(),
    await raw(rgba, 240, 180, 4).png().toBuffer(),
    await raw(rgba, 240, 180, 4).webp({ quality: 90 }).toBuffer(),
    await raw(grey, 300, 200, 1).jpeg().toBuffer(),
  ];
}

describe('one decode per upload', () => {
  it('gives the pixels of decodeImage and the thumbnail made from the file, byte for byte', { timeout: 60_000 }, async () => {
    const images = [...realImages(), ...(await syntheticImages())];
    expect(images.length).toBeGreaterThan(20);
    const differ: number[] = [];
    for (const [i, data] of images.entries()) {
      const got = await inspectImage(data);
      const pixels = await decodeImage(data);
      expect([got.width, got.height, got.pixels.channels]).toEqual([pixels.width, pixels.height, pixels.channels]);
      expect(Buffer.compare(Buffer.from(got.pixels.data), Buffer.from(pixels.data))).toBe(0);
      const fromFile = await sharp(data, { failOn: 'error' })
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      if (got.thumb.equals(fromFile)) continue;
      // A WebP or JPEG file is shrunk while it loads (libvips), so its thumbnail may differ by rounding: the same
      // size, and pixels within 2 grey levels on average.
      const png = data.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const a = await sharp(got.thumb).raw().toBuffer({ resolveWithObject: true });
      const b = await sharp(fromFile).raw().toBuffer({ resolveWithObject: true });
      let diff = 0;
      for (let p = 0; p < a.data.length; p++) diff += Math.abs(a.data[p]! - (b.data[p] ?? 0));
      const close = a.info.width === b.info.width && a.info.height === b.info.height && diff / a.data.length <= 2;
      if (png || !close) differ.push(i);
    }
    // Every PNG (the instruments' format) byte for byte.
    expect(
      differ.map((i) => (i < images.length - 4 ? `PWSSC ${i}` : ['grey PNG', 'RGBA PNG', 'WebP', 'JPEG'][i - images.length + 4])),
    ).toEqual([]);
  });

  it('still answers 415 for a file that is not an image and for a truncated PNG', async () => {
    await expect(inspectImage(Buffer.from('not an image at all'))).rejects.toMatchObject({ status: 415 });
    const png = realImages()[0]!;
    await expect(inspectImage(png.subarray(0, Math.floor(png.length / 2)))).rejects.toMatchObject({ status: 415 });
  });
});
