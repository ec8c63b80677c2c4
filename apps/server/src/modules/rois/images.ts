import { ResultCode } from '@ipp/contracts';
import sharp from 'sharp';
import { AppError } from '../../http/app-error.ts';
import { sniffImage, type ImageType } from '../../storage/files.ts';
import type { RawImage } from '../recognition/features/image.ts';

export const THUMB_SIZE = 160;

const notAnImage = () =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'file', reasonKey: 'reason.notImage' }, 'file', 415);

/**
 * The largest image accepted, as its header declares it: an ROI is a few hundred pixels across, so a claim beyond this
 * is a mistake or a decompression bomb (a few KB that would decode to gigabytes), refused before anything is decoded.
 */
export const MAX_IMAGE_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 4096 * 4096;

const tooManyPixels = (width: number, height: number) =>
  new AppError(
    ResultCode.BAD_PARAM,
    'imageTooLarge',
    { width, height, max: `${MAX_IMAGE_PIXELS / 1024 / 1024}M`, side: MAX_IMAGE_SIDE },
    'file',
    413,
  );

/**
 * The type from the image's first bytes (never its name) and its dimensions from its header alone: nothing is
 * decoded yet. Not a PNG, JPEG or WebP with a readable header: 415; dimensions past the limits: 413.
 */
export async function checkImage(data: Buffer): Promise<{ mime: ImageType; width: number; height: number }> {
  const mime = sniffImage(data);
  if (!mime) throw notAnImage();
  let width = 0;
  let height = 0;
  try {
    // The header only (metadata() decodes no pixels), without sharp's own pixel limit, so the limits here decide.
    ({ width = 0, height = 0 } = await sharp(data, { failOn: 'error', limitInputPixels: false }).metadata());
  } catch {
    throw notAnImage();
  }
  if (width <= 0 || height <= 0) throw notAnImage();
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) throw tooManyPixels(width, height);
  return { mime, width, height };
}

/**
 * Reads an uploaded image in one call to libvips (issue 39): the type from its first bytes, then the decode itself, whose
 * header check refuses more than MAX_IMAGE_PIXELS before any pixel is decoded. Only when that fails is the header read
 * again by checkImage, to answer 413 for an image too large and 415 for anything else; a side past MAX_IMAGE_SIDE
 * within the pixel limit is refused after its (bounded) decode. The answers are those of checkImage then decodeUpload.
 */
export async function inspectImage(
  data: Buffer,
): Promise<{ mime: ImageType; width: number; height: number; thumb: Buffer; pixels: RawImage }> {
  const mime = sniffImage(data);
  if (!mime) throw notAnImage();
  let decoded: Awaited<ReturnType<typeof decodeUpload>>;
  try {
    decoded = await decodeUpload(data);
  } catch (failed) {
    await checkImage(data);
    throw failed;
  }
  const { width, height } = decoded;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw tooManyPixels(width, height);
  return { mime, ...decoded };
}

/**
 * One decode of an image checkImage passed, to 8-bit pixels, which recognition measures and from which the WebP
 * thumbnail for the grids is made (issue 39: one decode instead of two). For PNG the thumbnail is the same file as
 * one made from the upload itself; for JPEG and WebP, which libvips would shrink while loading, and for 16-bit PNG, it
 * differs by rounding (roi-images.test.ts). A file that does not decode, even with a warning, answers 415.
 */
export async function decodeUpload(data: Buffer): Promise<{ width: number; height: number; thumb: Buffer; pixels: RawImage }> {
  try {
    const { data: raw, info } = await sharp(data, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const channels = info.channels;
    const thumb = await sharp(raw, { raw: { width: info.width, height: info.height, channels } })
      .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    const pixels = {
      data: new Uint8Array(raw.buffer, raw.byteOffset, raw.length),
      width: info.width,
      height: info.height,
      channels,
    };
    return { width: info.width, height: info.height, thumb, pixels };
  } catch {
    throw notAnImage();
  }
}
