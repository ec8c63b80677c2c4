import { ResultCode } from '@ipp/contracts';
import sharp from 'sharp';
import { AppError } from '../../http/app-error.ts';
import { sniffImage, type ImageType } from '../../storage/files.ts';

export const THUMB_SIZE = 160;

const notAnImage = () =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'file', reasonKey: 'reason.notImage' }, 'file', 415);

/**
 * Reads an uploaded image: the type from its first bytes (never the name), the dimensions from decoding it, and
 * a WebP thumbnail for the grids. Anything that is not a decodable PNG, JPEG or WebP answers 415.
 */
export async function inspectImage(data: Buffer): Promise<{ mime: ImageType; width: number; height: number; thumb: Buffer }> {
  const mime = sniffImage(data);
  if (!mime) throw notAnImage();
  try {
    const image = sharp(data, { failOn: 'error', limitInputPixels: 50_000_000 });
    const meta = await image.metadata();
    const thumb = await image
      .clone()
      .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return { mime, width: meta.width ?? 0, height: meta.height ?? 0, thumb };
  } catch {
    throw notAnImage();
  }
}
