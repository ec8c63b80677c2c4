/** A contrast-enhanced rendering of an ROI image for the viewer (docs/recognition.md "Features"). */
import sharp from 'sharp';
import { decodeImage, greyOf } from './image.ts';
import { borderMedian } from './segment.ts';

/**
 * A contrast-enhanced rendering for the viewer, as PNG: the grey level is stretched from the background (the
 * frame's edge median) to the 99.5th percentile of the pixels above it, then lifted by a gamma of 0.6 so that
 * faint appendages show; each pixel's channels are scaled together, so colours keep their hue.
 */
export async function enhanceImage(data: Buffer): Promise<Buffer> {
  const img = await decodeImage(data);
  const { width, height, channels } = img;
  const grey = greyOf(img);
  const n = width * height;
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) hist[grey[i]!]!++;
  const lo = n > 0 ? borderMedian(grey, width, height) : 0;
  let above = 0;
  for (let v = lo + 1; v < 256; v++) above += hist[v]!;
  let hi = 255;
  let seen = 0;
  for (let v = lo + 1; v < 256 && above > 0; v++) {
    seen += hist[v]!;
    if (seen >= 0.995 * above) {
      hi = v;
      break;
    }
  }
  if (hi <= lo) hi = Math.min(255, lo + 1);
  const lut = new Float64Array(256);
  for (let v = 0; v < 256; v++) {
    const t = Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
    lut[v] = v > 0 ? (255 * t ** 0.6) / v : 0;
  }
  const colourChannels = channels >= 3 ? 3 : 1;
  const out = Buffer.alloc(n * channels);
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const gain = lut[grey[i]!]!;
    for (let c = 0; c < channels; c++) {
      const v = img.data[p + c]!;
      out[p + c] = c < colourChannels ? Math.min(255, Math.round(v * gain)) : v;
    }
  }
  return sharp(out, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } })
    .png()
    .toBuffer();
}
