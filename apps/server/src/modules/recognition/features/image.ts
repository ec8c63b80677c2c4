/** Decoded images and their grey level (docs/recognition.md "Features"). */
import sharp from 'sharp';

/** Decoded pixels, 8 bits per channel, interleaved: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** Grey level (Rec. 601 luma) of each pixel; alpha darkens towards the (black) background. */
export function greyOf(img: RawImage): Uint8Array {
  const { data, width, height, channels } = img;
  const n = width * height;
  const grey = new Uint8Array(n);
  // One loop per layout (the same arithmetic as per pixel, without a branch per pixel).
  if (channels === 1) grey.set(data.subarray(0, n));
  else if (channels === 2) for (let i = 0, p = 0; i < n; i++, p += 2) grey[i] = Math.round((data[p]! * data[p + 1]!) / 255);
  else if (channels !== 4) {
    for (let i = 0, p = 0; i < n; i++, p += channels)
      grey[i] = (77 * data[p]! + 150 * data[p + 1]! + 29 * data[p + 2]! + 128) >> 8;
  } else {
    for (let i = 0, p = 0; i < n; i++, p += 4) {
      const v = (77 * data[p]! + 150 * data[p + 1]! + 29 * data[p + 2]! + 128) >> 8;
      grey[i] = Math.round((v * data[p + 3]!) / 255);
    }
  }
  return grey;
}

/**
 * Decodes an image (PNG, JPEG, WebP, TIFF…) to 8-bit interleaved pixels. A decoder warning fails it, as at ingest
 * (rois/images.ts), so re-identification reads every stored image that ingest accepted and no other.
 */
export async function decodeImage(data: Buffer): Promise<RawImage> {
  const { data: pixels, info } = await sharp(data, { failOn: 'error', limitInputPixels: 50_000_000 })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length),
    width: info.width,
    height: info.height,
    channels: info.channels,
  };
}
